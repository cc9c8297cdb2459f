import { withAuthTables } from '@innkeep/auth';
import { type DatabaseHandle, openDatabase } from '@innkeep/storage';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  demoOwner,
  type McpWorld,
  openMcpWorld,
  type Person,
  post,
  type RunningApp,
  rpc,
  startApp,
  tokenFor,
} from './support/mcp-world.ts';

describe('the per-token rate limit of /mcp', () => {
  let world: McpWorld;
  let owner: Person;
  const started: RunningApp[] = [];

  beforeAll(async () => {
    world = await openMcpWorld('pglite');
    owner = await demoOwner(world);
  }, 120_000);

  afterAll(async () => {
    for (const app of started) await app.app.close();
    await world?.close();
  });

  async function start(options: Parameters<typeof startApp>[1]): Promise<RunningApp> {
    const app = await startApp(world, options);
    started.push(app);
    return app;
  }

  it('answers the request over the limit with 429, Retry-After and -32012 with the request id', async () => {
    const server = await start({ rateLimit: { max: 5, timeWindow: 60_000 } });
    const token = await tokenFor(server, owner);
    for (let request = 1; request <= 5; request += 1) {
      expect((await post(server.mcpUrl, rpc('ping', {}, request), token)).status).toBe(200);
    }
    const over = await post(server.mcpUrl, rpc('tools/list', {}, 'six'), token);
    expect(over.status).toBe(429);
    const retryAfter = Number(over.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(over.body).toMatchObject({
      jsonrpc: '2.0',
      id: 'six',
      error: {
        code: -32012,
        message: expect.stringMatching(/^rate_limited/),
        data: { retryAfterSeconds: retryAfter },
      },
    });

    // The limit is per access token: another token of the same person is counted on its own.
    const other = await tokenFor(server, owner);
    expect((await post(server.mcpUrl, rpc('ping'), other)).status).toBe(200);
    // Requests without a usable token are refused as such, not counted against anyone.
    expect((await post(server.mcpUrl, rpc('ping'))).status).toBe(401);
  });

  it('allows 300 requests a minute on one token by default, and refuses the 301st', async () => {
    const server = await start({});
    const token = await tokenFor(server, owner);
    let ok = 0;
    for (let request = 1; request <= 300; request += 1) {
      if ((await post(server.mcpUrl, rpc('ping', {}, request), token)).status === 200) ok += 1;
    }
    expect(ok).toBe(300);
    const over = await post(server.mcpUrl, rpc('ping', {}, 301), token);
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ id: 301, error: { code: -32012 } });
  }, 180_000);
});

// Two instances of one deployment, as behind a load balancer: two listening apps with their own connection
// pools to one PostgreSQL database, one BASE_URL, and one Redis for the counters; nothing else shared.
describe('two instances on PostgreSQL and Redis', () => {
  const limit = { max: 5, timeWindow: 60_000 };
  let world: McpWorld;
  let secondPool: DatabaseHandle;
  let redis: Redis;
  let owner: Person;
  let a: RunningApp;
  let b: RunningApp;

  beforeAll(async () => {
    world = await openMcpWorld('postgres');
    owner = await demoOwner(world);
    if (world.url === undefined) throw new Error('a PostgreSQL world has a URL');
    secondPool = await openDatabase({ kind: 'postgres', url: world.url });
    redis = new Redis({ host: '127.0.0.1', port: 6379, maxRetriesPerRequest: 1 });
    a = await startApp(world, { rateLimit: limit, redis });
    b = await startApp(world, {
      rateLimit: limit,
      redis,
      baseUrl: a.baseUrl,
      db: withAuthTables(secondPool.db),
    });
  }, 120_000);

  afterAll(async () => {
    await a?.app.close();
    await b?.app.close();
    redis?.disconnect();
    await secondPool?.close();
    await world?.close();
  });

  const getUser = rpc('tools/call', { name: 'get_user', arguments: {} });

  it('serves a token issued by one instance on the other', async () => {
    const fromA = await tokenFor(a, owner);
    const onB = await post(b.mcpUrl, getUser, fromA);
    expect(onB.status).toBe(200);
    expect(onB.body).toMatchObject({
      result: { structuredContent: { email: owner.email, account: { id: owner.accountId } } },
    });

    // Registered and exchanged at B's token endpoint (the consent pages are at BASE_URL, A's address).
    const fromB = await tokenFor(b, owner);
    const onA = await post(a.mcpUrl, getUser, fromB);
    expect(onA.status).toBe(200);
    expect(onA.body).toMatchObject({
      result: { structuredContent: { email: owner.email, account: { id: owner.accountId } } },
    });
  });

  it('counts one token across both instances', async () => {
    const token = await tokenFor(a, owner);
    const statuses: number[] = [];
    for (const server of [a, b, a, b, a, b, a]) {
      statuses.push((await post(server.mcpUrl, rpc('ping'), token)).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    // Keys are the token's digest, never the token.
    const keys = await redis.keys('innkeep:mcp-rate:*');
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.some((key) => key.includes(token))).toBe(false);
  });
});
