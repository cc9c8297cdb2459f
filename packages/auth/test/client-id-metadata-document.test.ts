import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer, request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { isSpecialUseAddress } from '@innkeep/domain';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccessTokenVerifier } from '../src/resource-server/access-token-verifier.ts';
import { resourceServer } from '../src/resource-server/resource-server.ts';
import { SdkOauthClient } from '../src/testing.ts';
import {
  authorizeUrl,
  buildServerApp,
  createOwner,
  freePort,
  type OauthWorld,
  openOauthWorld,
  pkcePair,
  type RunningServer,
  startServer,
  type TestUser,
} from './support/oauth-harness.ts';

// Client ID Metadata Documents (MCP 2025-11-25): the client's `client_id` is the https URL of a JSON
// document describing it, which the authorization server fetches instead of a registration. The documents
// are served here by a local https server whose self-signed certificate only these tests' fetch trusts.

/** A self-signed certificate for 127.0.0.1 and localhost, made with openssl for this run. */
function selfSignedCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'innkeep-cimd-'));
  try {
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
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
      ],
      { stdio: 'ignore' },
    );
    return {
      key: readFileSync(join(dir, 'key.pem'), 'utf8'),
      cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A fetch (enough of one for oidc-provider) that trusts `ca` and nothing else, honouring its abort signal. */
function fetchTrusting(ca: string): typeof fetch {
  return (input, init) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const request = httpsRequest(
        url,
        {
          method: init?.method ?? 'GET',
          headers: Object.fromEntries(new Headers(init?.headers)),
          ca,
          signal: init?.signal ?? undefined,
        },
        (response) => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(response.headers)) {
            if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
          }
          const body = Readable.toWeb(response) as ReadableStream<Uint8Array>;
          resolve(new Response(body, { status: response.statusCode ?? 500, headers }));
        },
      );
      request.on('error', reject);
      request.end();
    });
}

/** What the document server answers at a path: a JSON document, or no answer at all. */
type Served = { readonly document: Record<string, unknown> } | { readonly hang: true };

/** An https (or plain http) server of metadata documents that records every path asked for. */
interface DocumentServer {
  readonly origin: string;
  readonly requested: string[];
  /** Serves what `make` gives for the document's own URL at `path`, and returns that URL. */
  serve(path: string, make: (url: string) => Served): string;
  close(): Promise<void>;
}

async function startDocumentServer(tls?: { key: string; cert: string }): Promise<DocumentServer> {
  const documents = new Map<string, Served>();
  const requested: string[] = [];
  const handler = (
    request: import('node:http').IncomingMessage,
    response: import('node:http').ServerResponse,
  ) => {
    const path = request.url ?? '/';
    requested.push(path);
    const served = documents.get(path);
    if (served === undefined) return void response.writeHead(404).end();
    if ('hang' in served) return;
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(served.document));
  };
  const server: Server = tls === undefined ? createHttpServer(handler) : createHttpsServer(tls, handler);
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const origin = `${tls === undefined ? 'http' : 'https'}://127.0.0.1:${port}`;
  return {
    origin,
    requested,
    serve(path, make) {
      const url = `${origin}${path}`;
      documents.set(path, make(url));
      return url;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The authorization server with a stand-in `/mcp`: the resource server guarding a real MCP server (the
 * SDK's, stateless) with one tool, `whoami`, answering with the account the access token speaks for.
 */
async function startServerWithMcp(
  world: OauthWorld,
  clientIdMetadataDocuments: { fetch: typeof fetch; allowPrivateAddresses: boolean },
): Promise<RunningServer> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const app = await buildServerApp(world, { baseUrl: origin, clientIdMetadataDocuments });
  await app.register(async (scope: FastifyInstance) => {
    await scope.register(resourceServer, {
      baseUrl: origin,
      resource: 'mcp',
      verifier: createAccessTokenVerifier({ db: world.db, resource: `${origin}/mcp`, clock: world.clock }),
      metadataAtWellKnownRoot: true,
      refuse: (_request, reply, refusal) => reply.send({ message: refusal.message, code: refusal.code }),
    });
    scope.post('/mcp', { preHandler: scope.requireAccessToken }, async (request, reply) => {
      const accountId = request.verifiedAccessToken?.accountId ?? '';
      const server = new McpServer({ name: 'cimd-test', version: '1.0.0' });
      server.registerTool('whoami', { description: 'The account this token speaks for.' }, () => ({
        content: [{ type: 'text', text: accountId }],
      }));
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      await server.connect(transport);
      reply.hijack();
      await transport.handleRequest(request.raw, reply.raw, request.body);
    });
    scope.get('/mcp', async (_request, reply) => reply.code(405).send());
  });
  await app.listen({ port, host: '127.0.0.1' });
  return { app, origin, baseUrl: origin };
}

const redirectUri = 'http://127.0.0.1:48123/callback';

/** A valid document for `url`, with `overrides`. */
function documentFor(url: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    client_id: url,
    client_name: 'Hosted assistant',
    redirect_uris: [redirectUri],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    ...overrides,
  };
}

/**
 * Starts an authorization for `clientId`, as a client would, and returns the status with the error and
 * description of the page shown when the request cannot go back to the client.
 */
async function authorizeAs(server: RunningServer, clientId: string) {
  const { challenge } = pkcePair();
  const response = await fetch(
    authorizeUrl(server.baseUrl, { client_id: clientId, redirect_uri: redirectUri }, challenge),
    { redirect: 'manual' },
  );
  const page = await response.text();
  return {
    status: response.status,
    error: /<code>([^<]*)<\/code>/.exec(page)?.[1],
    description: /<p class="lead">([^<]*)<\/p>/.exec(page)?.[1],
  };
}

describe('Client ID Metadata Documents', () => {
  let world: OauthWorld;
  let owner: TestUser;
  let tls: { key: string; cert: string };
  let documents: DocumentServer;
  let server: RunningServer;

  beforeAll(async () => {
    world = await openOauthWorld('pglite');
    owner = await createOwner(world);
    tls = selfSignedCertificate();
    documents = await startDocumentServer(tls);
    server = await startServerWithMcp(world, { fetch: fetchTrusting(tls.cert), allowPrivateAddresses: true });
  }, 180_000);

  afterAll(async () => {
    await server?.app.close();
    await documents?.close();
    await world?.close();
  });

  it('are advertised in the authorization server metadata', async () => {
    const metadata = await (await fetch(`${server.origin}/.well-known/oauth-authorization-server`)).json();
    expect(metadata).toMatchObject({ client_id_metadata_document_supported: true });
  });

  it('let the MCP SDK client connect with its document URL: consent, PKCE code, token, then a tool call', async () => {
    const documentUrl = documents.serve('/clients/assistant.json', (url) => ({ document: documentFor(url) }));
    // Its "browser" is the person signing in and approving the consent page; the code is read from the
    // redirect.
    const client = new SdkOauthClient({
      person: owner,
      clientName: 'Hosted assistant',
      redirectUrl: redirectUri,
      clientMetadataUrl: documentUrl,
    });
    const mcpUrl = new URL(`${server.baseUrl}/mcp`);

    const first = new StreamableHTTPClientTransport(mcpUrl, { authProvider: client });
    await expect(new Client({ name: 'hosted', version: '1.0.0' }).connect(first)).rejects.toThrow(
      'Unauthorized',
    );
    // The client named itself by its document instead of registering, and the server read the document.
    expect(client.information?.client_id).toBe(documentUrl);
    const [authorization] = client.authorizations;
    expect(authorization?.url.searchParams.get('client_id')).toBe(documentUrl);
    expect(authorization?.url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(documents.requested).toContain('/clients/assistant.json');
    expect(authorization?.outcome.offered?.length).toBeGreaterThan(0);
    const code = client.callback.get('code') ?? '';
    expect(code).not.toBe('');

    await first.finishAuth(code);
    expect(client.saved).toMatchObject({ token_type: 'Bearer' });

    const mcp = new Client({ name: 'hosted', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: client }));
    try {
      const result = await mcp.callTool({ name: 'whoami', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: owner.accountId }]);
    } finally {
      await mcp.close();
    }
    // Nothing was registered: the client exists only as its document.
    const stored = await world.db
      .selectFrom('oidc_model')
      .select('id')
      .where('model', '=', 'Client')
      .where('id', '=', documentUrl)
      .execute();
    expect(stored).toEqual([]);
  }, 60_000);

  it('are refused when the document names another client_id', async () => {
    const url = documents.serve('/clients/impostor.json', () => ({
      document: documentFor('https://assistant.example/client.json'),
    }));
    expect(await authorizeAs(server, url)).toMatchObject({
      status: 400,
      error: 'invalid_client_metadata',
      description: 'client_id metadata document client_id does not match the expected value',
    });
  });

  it('are refused over 5 KB', async () => {
    const url = documents.serve('/clients/large.json', (own) => ({
      document: documentFor(own, { description: 'x'.repeat(5 * 1024) }),
    }));
    expect(await authorizeAs(server, url)).toMatchObject({
      status: 400,
      error: 'invalid_client',
      description: 'client_id metadata document fetch failed',
    });
    // Just under the limit passes: the authorization goes on to the sign-in page.
    const small = documents.serve('/clients/small.json', (own) => ({
      document: documentFor(own, { description: 'x'.repeat(4 * 1024) }),
    }));
    const { challenge } = pkcePair();
    const response = await fetch(
      authorizeUrl(server.baseUrl, { client_id: small, redirect_uri: redirectUri }, challenge),
      { redirect: 'manual' },
    );
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toMatch(/\/oauth\/interaction\//);
  });

  it('are refused when their redirect URIs would not pass a registration', async () => {
    const url = documents.serve('/clients/plain-http.json', (own) => ({
      document: documentFor(own, { redirect_uris: ['http://assistant.example/callback'] }),
    }));
    const answer = await authorizeAs(server, url);
    expect(answer).toMatchObject({ status: 400, error: 'invalid_client_metadata' });
    expect(answer.description).toContain('uses http on a host other than this computer');
  });

  it('are refused from an http URL, which is never fetched', async () => {
    const plain = await startDocumentServer();
    try {
      const url = plain.serve('/clients/plain.json', (own) => ({ document: documentFor(own) }));
      expect(await authorizeAs(server, url)).toMatchObject({
        status: 400,
        error: 'invalid_client',
        description: 'client is invalid',
      });
      expect(plain.requested).toEqual([]);
    } finally {
      await plain.close();
    }
  });

  it('are given up on when the document does not arrive within 2.5 s, and not asked for again at once', async () => {
    const url = documents.serve('/clients/slow.json', () => ({ hang: true }));
    const started = Date.now();
    const refusal = {
      status: 400,
      error: 'invalid_client',
      description: 'client_id metadata document fetch failed',
    };
    expect(await authorizeAs(server, url)).toMatchObject(refusal);
    expect(Date.now() - started).toBeLessThan(4_000);
    // A second attempt moments later fails at once, without another fetch.
    const again = Date.now();
    expect(await authorizeAs(server, url)).toMatchObject(refusal);
    expect(Date.now() - again).toBeLessThan(1_000);
    expect(documents.requested.filter((path) => path === '/clients/slow.json')).toHaveLength(1);
  }, 15_000);

  it('are not fetched from loopback or private addresses outside tests', async () => {
    const strict = await startServer(world, {
      clientIdMetadataDocuments: { fetch: fetchTrusting(tls.cert), allowPrivateAddresses: false },
    });
    try {
      // By address, and by a name that resolves to one.
      for (const host of ['127.0.0.1', 'localhost']) {
        const path = `/clients/private-${host}.json`;
        const url = documents.serve(path, (own) => ({
          document: documentFor(own.replace('127.0.0.1', host)),
        }));
        expect(await authorizeAs(strict, url.replace('127.0.0.1', host))).toMatchObject({
          status: 400,
          error: 'invalid_client',
          description: 'client_id metadata document fetch failed',
        });
        expect(documents.requested).not.toContain(path);
      }
    } finally {
      await strict.app.close();
    }
  });
});

describe('isSpecialUseAddress', () => {
  it('refuses loopback, private, link-local and mapped forms, and allows public hosts', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fd12:3456::1',
      '::ffff:127.0.0.1',
      '::ffff:a9fe:a9fe',
      '64:ff9b::a00:1',
      'not-an-address',
    ]) {
      expect({ address, refused: isSpecialUseAddress(address) }).toEqual({ address, refused: true });
    }
    for (const address of ['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111']) {
      expect({ address, refused: isSpecialUseAddress(address) }).toEqual({ address, refused: false });
    }
  });
});
