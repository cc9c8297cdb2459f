import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisServer } from '../src/testing.ts';
import {
  freePort,
  type OauthWorld,
  openOauthWorld,
  type RunningServer,
  registerClient,
  startServer,
} from './support/oauth-harness.ts';

// The registration limit counts in Redis, shared by every instance; while Redis is gone each instance must
// go on counting alone rather than letting every registration through.

const limit = 3;
const client = { client_name: 'Counted client', redirect_uris: ['http://127.0.0.1:48123/callback'] };

describe('the registration limit while Redis is down', () => {
  let world: OauthWorld;
  let redisServer: RedisServer;
  let redis: Redis;
  let server: RunningServer;

  beforeAll(async () => {
    redisServer = new RedisServer(await freePort());
    await redisServer.start();
    redis = new Redis({ host: '127.0.0.1', port: redisServer.port, maxRetriesPerRequest: 1 });
    // The client keeps trying to reconnect while its server is gone; those failures are expected here.
    redis.on('error', () => {});
    world = await openOauthWorld('pglite');
    server = await startServer(world, { registrationRateLimit: { max: limit, timeWindowMs: 60_000 }, redis });
  }, 120_000);

  afterAll(async () => {
    await server?.app.close();
    redis?.disconnect();
    await redisServer?.kill();
    await world?.close();
  });

  it('counts in Redis while it answers, and on the instance once it is gone', async () => {
    await registerClient(server.origin, client);
    expect(await redis.keys('innkeep:oauth-register:*')).toHaveLength(1);

    await redisServer.kill();
    await expect.poll(() => redis.status, { timeout: 10_000 }).not.toBe('ready');
    // The instance starts its own count: `limit` more pass, the next is refused.
    for (let registration = 1; registration <= limit; registration += 1) {
      await registerClient(server.origin, client);
    }
    const over = await fetch(`${server.origin}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(client),
    });
    expect(over.status).toBe(429);
    expect(await over.json()).toMatchObject({ error: 'too_many_requests' });
  });
});
