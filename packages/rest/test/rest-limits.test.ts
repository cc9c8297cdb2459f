import { withAuthTables } from '@innkeep/auth';
import { getUserOperation } from '@innkeep/operations';
import { type DatabaseHandle, openDatabase } from '@innkeep/storage';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineRoute } from '../src/route-definition.ts';
import {
  authTokenOf,
  callApi,
  demoUsers,
  openRestWorld,
  type RestWorld,
  type RunningRestApp,
  startRestApp,
} from './support/rest-world.ts';

const routes = [
  defineRoute({
    operation: getUserOperation,
    method: 'GET',
    path: '/getUser',
    summary: 'The user.',
    tag: 'T',
  }),
];

describe('the REST limit of PRODUCT.md on one instance', () => {
  let world: RestWorld;
  let running: RunningRestApp;

  beforeAll(async () => {
    world = await openRestWorld('pglite');
    running = await startRestApp(world, { routes });
  }, 300_000);

  afterAll(async () => {
    await running?.close();
    await world?.close();
  });

  it('allows 120 requests a minute on one authToken and refuses the 121st', async () => {
    const authToken = await authTokenOf(world, demoUsers.owner);
    const statuses: number[] = [];
    for (let request = 1; request <= 121; request += 1) {
      statuses.push((await callApi(running, 'GET', '/getUser', { headers: { authToken } })).status);
    }
    expect(statuses.slice(0, 120).every((status) => status === 200)).toBe(true);
    expect(statuses[120]).toBe(429);
  }, 120_000);
});

// Two instances of one deployment behind a load balancer: their own connection pools to one PostgreSQL
// database, one BASE_URL, one Redis for the counters.
describe('the REST limit across two instances on PostgreSQL and Redis', () => {
  const rateLimits = { perCredential: 5, withApiKey: 8 };
  let world: RestWorld;
  let secondPool: DatabaseHandle;
  let redis: Redis;
  let a: RunningRestApp;
  let b: RunningRestApp;

  beforeAll(async () => {
    world = await openRestWorld('postgres');
    if (world.url === undefined) throw new Error('a PostgreSQL world has a URL');
    secondPool = await openDatabase({ kind: 'postgres', url: world.url });
    redis = new Redis({ host: '127.0.0.1', port: 6379, maxRetriesPerRequest: 1 });
    a = await startRestApp(world, { routes, rateLimits, redis });
    b = await startRestApp(world, {
      routes,
      rateLimits,
      redis,
      baseUrl: a.baseUrl,
      db: withAuthTables(secondPool.db),
    });
  }, 300_000);

  afterAll(async () => {
    await a?.close();
    await b?.close();
    redis?.disconnect();
    await secondPool?.close();
    await world?.close();
  });

  it('counts one authToken across both instances, in Redis under its digest', async () => {
    const authToken = await authTokenOf(world, demoUsers.owner);
    const answers = [];
    for (const server of [a, b, a, b, a, b, a]) {
      answers.push(await callApi(server, 'GET', '/getUser', { headers: { authToken } }));
    }
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(answers.map((answer) => answer.headers.get('ratelimit-remaining'))).toEqual([
      '4',
      '3',
      '2',
      '1',
      '0',
      '0',
      '0',
    ]);
    expect(answers[5]?.body).toMatchObject({
      code: 'rate_limited',
      details: { retryAfterSeconds: expect.any(Number) },
    });
    const keys = await redis.keys('innkeep:api-rate:*');
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.some((key) => key.includes(authToken))).toBe(false);
  });

  it('raises the ceiling for an authToken sent with a valid apiKey, on both instances', async () => {
    const authToken = await authTokenOf(world, demoUsers.manager);
    const { apiKey } = await world.operator.issuePartnerApiKey({ partnerName: 'Two-instance partner' });
    const statuses: number[] = [];
    for (const server of [a, b, a, b, a, b, a, b, a]) {
      statuses.push((await callApi(server, 'GET', '/getUser', { headers: { authToken, apiKey } })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 429]);
  });
});
