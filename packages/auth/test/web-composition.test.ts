import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import { testDatabaseKinds } from '@innkeep/storage/testing';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountPages } from '../src/web/account-pages.ts';
import {
  CookieJar,
  createHost,
  openPagesWorld,
  type PagesWorld,
  signIn,
  testBaseUrl,
  testSecretKeys,
} from './support/account-pages-harness.ts';

describe.each(testDatabaseKinds)('account pages inside a larger app on %s', (kind) => {
  let world: PagesWorld;

  beforeAll(async () => {
    world = await openPagesWorld(kind);
  }, 180_000);

  afterAll(async () => {
    await world?.close();
  });

  it('reuses cookie and form parsing the app already has, and keeps its headers to its own routes', async () => {
    const app = Fastify();
    await app.register(fastifyCookie);
    await app.register(fastifyFormbody);
    app.get('/elsewhere', async (_request, reply) => reply.type('text/html').send('<p>not ours</p>'));
    await app.register(accountPages, {
      db: world.db,
      identity: world.identity,
      clock: world.clock,
      baseUrl: `${testBaseUrl}/`,
      secretKeys: testSecretKeys,
    });
    await app.ready();
    try {
      const host = await createHost(world);
      const response = await signIn(app, new CookieJar(), host);
      expect(response.statusCode).toBe(303);
      // https base URL: cookies are Secure unless told otherwise.
      expect(response.cookies.find((c) => c.name === 'ik_session')?.secure).toBe(true);
      const elsewhere = await app.inject({ url: '/elsewhere' });
      expect(elsewhere.headers['content-security-policy']).toBeUndefined();
    } finally {
      await app.close();
    }
  });
});
