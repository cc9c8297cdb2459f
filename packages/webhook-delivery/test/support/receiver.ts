import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver got. */
export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** The sender's port of the connection it came on: equal for two requests on one kept-alive connection. */
  readonly remotePort: number;
}

/** How the receiver answers a request; it may also never answer. */
export type Answer = (response: ServerResponse, request: ReceivedRequest) => void;

/** A real HTTP server on loopback that records what it receives and answers as the test says. */
export interface Receiver {
  /** `http://127.0.0.1:<port>` followed by `path`. */
  url(path?: string): string;
  readonly received: ReceivedRequest[];
  /** How many connections senders have opened to it so far. */
  connections(): number;
  /** Changes how the next requests are answered; default 204. */
  answerWith(answer: Answer): void;
  close(): Promise<void>;
}

/** Starts a {@link Receiver} on a free loopback port. */
export async function startReceiver(): Promise<Receiver> {
  const received: ReceivedRequest[] = [];
  let answer: Answer = (response) => response.writeHead(204).end();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const got = {
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        remotePort: request.socket.remotePort ?? 0,
      };
      received.push(got);
      answer(response, got);
    });
  });
  let connections = 0;
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path = '/hooks') => `http://127.0.0.1:${port}${path}`,
    received,
    connections: () => connections,
    answerWith(next) {
      answer = next;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A loopback URL nothing listens on: connecting to it is refused. */
export async function refusingUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/hooks`;
}
