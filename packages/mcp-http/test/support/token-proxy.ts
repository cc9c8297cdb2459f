import { createServer, request, type Server } from 'node:http';

/** A listening reverse proxy. */
export interface TokenProxy {
  /** Where it listens, e.g. `http://127.0.0.1:5555`. */
  readonly origin: string;
  close(): Promise<void>;
}

/**
 * A reverse proxy on 127.0.0.1 that adds `Authorization: Bearer <token>` to every request it forwards to
 * `target`, for clients that cannot send credentials (the MCP conformance suite's server mode). Its own
 * Host and Origin become the target's, so the Origin allowlist sees the deployment's address; any other
 * Host or Origin (a DNS-rebinding probe's) passes through unchanged, to be refused by the server.
 */
export async function startTokenProxy(target: string, token: string): Promise<TokenProxy> {
  const to = new URL(target);
  let self = '';
  const server: Server = createServer((incoming, outgoing) => {
    const headers = { ...incoming.headers, authorization: `Bearer ${token}` };
    if (headers.host === self) headers.host = to.host;
    if (headers.origin === `http://${self}`) headers.origin = to.origin;
    const forwarded = request(
      { host: to.hostname, port: to.port, method: incoming.method, path: incoming.url, headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy has no TCP address');
  self = `127.0.0.1:${address.port}`;
  return {
    origin: `http://${self}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error === undefined ? resolve() : reject(error)));
      }),
  };
}
