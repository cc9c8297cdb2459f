import { createServer, request as httpRequest, type Server } from 'node:http';
import { openDatabase } from '@innkeep/storage';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withAuthTables } from '../src/postgres/auth-database.ts';
import type { AuthDatabase } from '../src/postgres/database.ts';
import { createAccessTokenVerifier } from '../src/resource-server/access-token-verifier.ts';
import {
  authorizeInBrowser,
  authorizeUrl,
  Browser,
  createOwner,
  freePort,
  type OauthWorld,
  openOauthWorld,
  pkcePair,
  type RunningServer,
  refresh,
  registerClient,
  startServer,
  type TestUser,
  tokenRequest,
} from './support/oauth-harness.ts';

type Instance = 'A' | 'B';

/**
 * A load balancer at BASE_URL: sends each request to the instance `route` picks and records who served
 * what, so a test can make every step of one authorization land on a chosen instance.
 */
async function startLoadBalancer(
  port: number,
  instances: Record<Instance, string>,
  route: (method: string, path: string) => Instance,
): Promise<{ server: Server; served: string[] }> {
  const served: string[] = [];
  const server = createServer((incoming, outgoing) => {
    const path = incoming.url ?? '/';
    const instance = route(incoming.method ?? 'GET', path);
    served.push(`${instance} ${incoming.method} ${path.split('?')[0]}`);
    const target = new URL(path, instances[instance]);
    const forwarded = httpRequest(
      target,
      { method: incoming.method, headers: incoming.headers },
      (response) => {
        outgoing.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(outgoing);
      },
    );
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { server, served };
}

function authTables(pool: Awaited<ReturnType<typeof openDatabase>>): Kysely<AuthDatabase> {
  return withAuthTables(pool.db);
}

// Two instances of one deployment behind a load balancer: separate processes in production, here two
// Fastify apps with their own connection pools to one PostgreSQL database and nothing else in common.
describe('two instances on one PostgreSQL database', () => {
  let world: OauthWorld;
  let secondPool: Awaited<ReturnType<typeof openDatabase>>;
  let a: RunningServer;
  let b: RunningServer;
  let balancer: Awaited<ReturnType<typeof startLoadBalancer>>;
  let baseUrl: string;
  let owner: TestUser;
  let nextRoundRobin: Instance = 'A';

  beforeAll(async () => {
    world = await openOauthWorld('postgres');
    if (world.url === undefined) throw new Error('the PostgreSQL test database has no URL');
    secondPool = await openDatabase({ kind: 'postgres', url: world.url, poolSize: 5 });
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    a = await startServer(world, { baseUrl });
    b = await startServer({ ...world, db: authTables(secondPool) }, { baseUrl });
    // Sign-in posts go to A and consent posts to B; every other request alternates.
    balancer = await startLoadBalancer(port, { A: a.origin, B: b.origin }, (method, path) => {
      if (method === 'POST' && path.endsWith('/login')) return 'A';
      if (method === 'POST' && path.endsWith('/confirm')) return 'B';
      const instance = nextRoundRobin;
      nextRoundRobin = instance === 'A' ? 'B' : 'A';
      return instance;
    });
    owner = await createOwner(world);
  }, 180_000);

  afterAll(async () => {
    balancer?.server.close();
    await a?.app.close();
    await b?.app.close();
    await secondPool?.close();
    await world?.close();
  });

  it('signs in on A, consents on B, exchanges on A and verifies on B', async () => {
    const redirectUri = 'http://127.0.0.1:48123/callback';
    const client = await registerClient(b.origin, { client_name: 'Balanced', redirect_uris: [redirectUri] });
    const { verifier, challenge } = pkcePair();
    balancer.served.length = 0;
    const outcome = await authorizeInBrowser(
      new Browser(),
      authorizeUrl(baseUrl, { client_id: client.client_id, redirect_uri: redirectUri }, challenge),
      owner,
      { decision: 'allow', scopes: ['listings:read', 'calendar:read'] },
    );
    expect(balancer.served.filter((line) => line.includes('POST'))).toEqual([
      expect.stringMatching(/^A POST \/oauth\/interaction\/[^/]+\/login$/),
      expect.stringMatching(/^B POST \/oauth\/interaction\/[^/]+\/confirm$/),
    ]);
    // The pages in between alternated between the instances too.
    expect(new Set(balancer.served.map((line) => line[0]))).toEqual(new Set(['A', 'B']));
    const code = outcome.redirect.searchParams.get('code') ?? '';
    expect(code).not.toBe('');
    expect(outcome.redirect.searchParams.get('iss')).toBe(baseUrl);

    const token = await tokenRequest(a.origin, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
      client_id: client.client_id,
    });
    expect(token.status).toBe(200);
    expect(token.body.scope).toBe('listings:read calendar:read');

    const onB = createAccessTokenVerifier({ db: authTables(secondPool), resource: `${baseUrl}/mcp` });
    expect(await onB.verify(String(token.body.access_token))).toMatchObject({
      userId: owner.userId,
      clientId: client.client_id,
      scopes: ['listings:read', 'calendar:read'],
    });

    // A refresh on B of a token issued on A rotates it; A then honours B's new refresh token.
    const onBRefresh = await refresh(b.origin, client.client_id, String(token.body.refresh_token));
    expect(onBRefresh.status).toBe(200);
    const onARefresh = await refresh(a.origin, client.client_id, String(onBRefresh.body.refresh_token));
    expect(onARefresh.status).toBe(200);
  });

  it('remembers a decision made on one instance when the next authorization lands on the other', async () => {
    const redirectUri = 'https://assistant.example.com/callback';
    const client = await registerClient(a.origin, {
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: 'client_secret_post',
    });
    const { challenge } = pkcePair();
    const target = { client_id: client.client_id, redirect_uri: redirectUri };
    const first = await authorizeInBrowser(new Browser(), authorizeUrl(baseUrl, target, challenge), owner, {
      decision: 'allow',
      remember: true,
    });
    expect(first.offered).toBeDefined();
    const second = await authorizeInBrowser(new Browser(), authorizeUrl(baseUrl, target, challenge), owner);
    expect(second.offered).toBeUndefined();
    expect(second.redirect.searchParams.get('code')).toBeTruthy();
  });
});
