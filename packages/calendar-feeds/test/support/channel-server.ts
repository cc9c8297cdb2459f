import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import {
  createServer as createHttpServer,
  type IncomingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One request the channel got. */
export interface ChannelRequest {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
}

/** How the channel answers a request to one path; it may also never answer. */
export type ChannelAnswer = (response: ServerResponse, request: ChannelRequest) => void;

/** A real HTTP server on loopback that plays a channel serving calendar feeds, as each test says. */
export interface ChannelServer {
  /** `http://127.0.0.1:<port>` (or `https://`) followed by `path`. */
  url(path: string): string;
  /** Every request so far, in order. */
  readonly received: ChannelRequest[];
  /** Answers requests to `path` (whatever their query) with `answer` from now on; others answer 404. */
  serve(path: string, answer: ChannelAnswer): void;
  close(): Promise<void>;
}

/**
 * A certificate for 127.0.0.1 made for this test process by openssl (self-signed, valid a day), with its key:
 * trusted only where a test adds it, and no key is kept in the repository.
 */
const testTls = (() => {
  const dir = mkdtempSync(join(tmpdir(), 'innkeep-channel-tls-'));
  const key = join(dir, 'key.pem');
  const cert = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  const pems = { cert: readFileSync(cert, 'utf8'), key: readFileSync(key, 'utf8') };
  rmSync(dir, { recursive: true, force: true });
  return pems;
})();

/** The certificate a {@link startChannelServer}`(true)` serves, for a test to trust. */
export const testCertificate = testTls.cert;

/** Starts a {@link ChannelServer} on a free port of 127.0.0.1, over https with {@link testCertificate} if `tls`. */
export async function startChannelServer(tls = false): Promise<ChannelServer> {
  const received: ChannelRequest[] = [];
  const answers = new Map<string, ChannelAnswer>();
  const handle = (request: { url?: string; headers: IncomingHttpHeaders }, response: ServerResponse) => {
    const got = { path: request.url ?? '', headers: request.headers };
    received.push(got);
    const answer = answers.get(got.path.replace(/\?.*$/, ''));
    if (answer === undefined) response.writeHead(404).end('No such calendar');
    else answer(response, got);
  };
  const server: Server = tls
    ? createHttpsServer(
        {
          cert: testTls.cert,
          key: testTls.key,
        },
        handle,
      )
    : createHttpServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `${tls ? 'https' : 'http'}://127.0.0.1:${port}${path}`,
    received,
    serve(path, answer) {
      answers.set(path, answer);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
