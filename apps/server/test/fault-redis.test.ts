import { authMigrations, rateLimitKey } from '@innkeep/auth';
import { RedisServer } from '@innkeep/auth/testing';
import { systemClock } from '@innkeep/domain';
import { createOperatorUseCases, domainMigrations } from '@innkeep/storage';
import { openTestDatabase, type TestDatabase } from '@innkeep/storage/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort } from './support/processes.ts';
import { type ServerProcess, startServerProcess } from './support/server-process.ts';

// Redis holds the /mcp rate-limit counters that instances share. While it is gone /mcp must keep serving
// and keep counting, on each instance alone, and go back to the shared counters once Redis is back.

const limit = 20;
const owner = { email: 'rhea@example.test', password: 'correct horse battery' };
const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping', params: {} });

describe('/mcp while Redis goes away and comes back', () => {
  let database: TestDatabase;
  let redisServer: RedisServer;
  let redis: Redis;
  let server: ServerProcess;
  const tokens: string[] = [];

  beforeAll(async () => {
    redisServer = new RedisServer(await freePort());
    await redisServer.start();
    redis = new Redis({
      host: '127.0.0.1',
      port: redisServer.port,
      maxRetriesPerRequest: 1,
      lazyConnect: true,
    });
    // This test's own client reconnects by itself; its failed attempts while Redis is down say nothing.
    redis.on('error', () => {});
    database = await openTestDatabase('postgres', { ...domainMigrations, ...authMigrations });
    await createOperatorUseCases({ db: database.db, clock: systemClock }).createOwnerAccount({
      accountName: 'Redis Fault Stays',
      ...owner,
      firstName: 'Rhea',
      lastName: 'Owner',
      timeZone: 'Europe/Lisbon',
      currency: 'EUR',
      subscriptionStatus: 'active',
    });
    server = await startServerProcess(database.url ?? '', {
      REDIS_URL: `redis://127.0.0.1:${redisServer.port}`,
      MCP_RATE_LIMIT: String(limit),
      LOG_LEVEL: 'info',
    });
    // Every token up front: the sign-in's own limits are not what this test is about.
    for (let index = 0; index < 4; index += 1) tokens.push(await server.accessToken(owner));
  });

  afterAll(async () => {
    await server?.kill();
    redis?.disconnect();
    await redisServer?.kill();
    await database?.close();
  });

  /** The counter of `token` in Redis; null when Redis holds none. */
  async function sharedCount(token: string): Promise<number | null> {
    if (redis.status !== 'ready') await redis.connect();
    const keys = await redis.keys(`innkeep:mcp-rate:*${rateLimitKey(token)}`);
    if (keys.length === 0) return null;
    return Number(await redis.get(keys[0] ?? ''));
  }

  /** Sends `count` pings with `token`, `concurrency` at a time, and returns their HTTP statuses. */
  async function pings(token: string, count: number, concurrency = 4): Promise<number[]> {
    const statuses: number[] = [];
    let next = 0;
    const worker = async () => {
      while (next < count) {
        const id = next;
        next += 1;
        statuses[id] = (await server.mcp(token, ping(id))).status;
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    return statuses;
  }

  const ok = (count: number) => Array.from({ length: count }, () => 200);

  it('counts through Redis while it answers', async () => {
    const [first = ''] = tokens;
    expect(await pings(first, 5)).toEqual(ok(5));
    expect(await sharedCount(first)).toBe(5);
  });

  it('keeps serving when Redis dies under load, and keeps counting on the instance', async () => {
    const [first = '', second = ''] = tokens;
    const underLoad = pings(first, 15);
    await redisServer.kill();
    redis.disconnect();
    // Each request is counted once, in Redis or here: 5 + 15 stays within the limit either way.
    expect(await underLoad).toEqual(ok(15));

    // A token Redis never counted: the instance alone refuses the request past the limit.
    expect(await pings(second, limit)).toEqual(ok(limit));
    const over = await server.mcp(second, ping(limit + 1));
    expect(over.status).toBe(429);
    expect(await over.json()).toMatchObject({ error: { code: -32012 } });
    expect(server.child.exitCode).toBeNull();
    expect(
      server.output().match(/Redis is unreachable: \/mcp rate limits count on each instance/g),
    ).toHaveLength(1);
  });

  it('counts through Redis again once it is back, empty as it is', async () => {
    const [, , probe = '', fresh = ''] = tokens;
    await redisServer.start();
    // ioredis reconnects on its own schedule; the first request after that counts in Redis again.
    await vi.waitFor(
      async () => {
        await server.mcp(probe, ping(0));
        expect(await sharedCount(probe)).not.toBeNull();
      },
      { timeout: 15_000, interval: 250 },
    );
    expect(await pings(fresh, 3)).toEqual(ok(3));
    expect(await sharedCount(fresh)).toBe(3);
    expect(server.output()).toContain('Redis answers again: /mcp rate limits count across instances');
    expect(server.child.exitCode).toBeNull();
  });
});
