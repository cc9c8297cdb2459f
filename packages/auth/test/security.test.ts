import { testDatabaseKinds } from '@innkeep/storage/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityHeaders } from '../src/web/security-headers.ts';
import {
  browse,
  buildPagesApp,
  CookieJar,
  createHost,
  csrfFrom,
  openPagesWorld,
  type PagesWorld,
  signIn,
  type TestHost,
  testSecretKeys,
} from './support/account-pages-harness.ts';

const pagePolicy =
  "default-src 'none'; style-src 'self'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'; script-src 'self'; form-action 'self'";
// No form-action: Chromium applies it to the redirects after the consent post, which end at the client's
// redirect_uri (cursor://, http://[::1]:…) and no source list can name those.
const interactionPolicy =
  "default-src 'none'; style-src 'self'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'";

describe('securityHeaders plugin', () => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = Fastify();
    await app.register(securityHeaders);
    app.get('/page', async (_request, reply) => reply.type('text/html; charset=utf-8').send('<p>hi</p>'));
    app.get('/oauth/interaction/:uid', async (_request, reply) =>
      reply.type('text/html').send('<p>consent</p>'),
    );
    app.get('/oauth/interaction/:uid/login', async (_request, reply) =>
      reply.type('text/html').send('<p>sign in</p>'),
    );
    app.get('/oauth/interactionx', async (_request, reply) => reply.type('text/html').send('<p>other</p>'));
    app.get('/cached', async (_request, reply) =>
      reply.type('text/html').header('cache-control', 'public, max-age=60').send('<p>public</p>'),
    );
    app.get('/data', async () => ({ ok: true }));
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
  });

  it('adds the policy and hardening headers to HTML pages of the registering context', async () => {
    const response = await app.inject({ url: '/page' });
    expect(response.headers).toMatchObject({
      'content-security-policy': pagePolicy,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'x-frame-options': 'DENY',
      'cache-control': 'no-store',
    });
  });

  it('drops form-action only on OAuth interaction pages, so their posts may end at any redirect URI', async () => {
    const response = await app.inject({ url: '/oauth/interaction/abc123?x=1' });
    expect(response.headers['content-security-policy']).toBe(interactionPolicy);
    expect(response.headers['content-security-policy']).not.toContain('form-action');
    const nested = await app.inject({ url: '/oauth/interaction/abc123/login' });
    expect(nested.headers['content-security-policy']).toBe(interactionPolicy);
    const lookalike = await app.inject({ url: '/oauth/interactionx' });
    expect(lookalike.headers['content-security-policy']).toBe(pagePolicy);
  });

  it('keeps a cache policy a route chose, and leaves non-HTML responses alone', async () => {
    expect((await app.inject({ url: '/cached' })).headers['cache-control']).toBe('public, max-age=60');
    const data = await app.inject({ url: '/data' });
    expect(data.headers['content-security-policy']).toBeUndefined();
  });
});

describe.each(testDatabaseKinds)('account page security on %s', (kind) => {
  let world: PagesWorld;
  let app: FastifyInstance;
  let host: TestHost;

  beforeAll(async () => {
    world = await openPagesWorld(kind);
    app = await buildPagesApp(world);
    host = await createHost(world);
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    await world?.close();
  });

  async function tokenHash(): Promise<string | null> {
    const row = await world.db
      .selectFrom('users')
      .select('auth_token_hash')
      .where('id', '=', host.userId)
      .executeTakeFirstOrThrow();
    return row.auth_token_hash;
  }

  it.each(['/login', '/settings', '/settings/apps'])(
    'sends security headers and no scripts on %s',
    async (url) => {
      const jar = new CookieJar();
      await signIn(app, jar, host);
      if (url === '/login') jar.values.delete('ik_session');
      const response = await browse(app, jar, { url });
      expect(response.statusCode).toBe(200);
      expect(response.headers).toMatchObject({
        'content-security-policy': pagePolicy,
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'x-frame-options': 'DENY',
        'cache-control': 'no-store',
      });
      expect(response.body).not.toMatch(/<script|\sstyle=|\son[a-z]+=/i);
      expect(response.body).toContain('<link rel="stylesheet" href="/assets/innkeep.css">');
    },
  );

  it('serves the stylesheet as CSS', async () => {
    const response = await app.inject({ url: '/assets/innkeep.css' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.body).toContain('button');
    expect(response.body).not.toMatch(/@import|url\(|https?:/);
  });

  it('sends security headers on error pages too', async () => {
    const jar = new CookieJar();
    const response = await browse(app, jar, {
      url: '/login',
      form: { email: host.email, password: host.password },
    });
    expect(response.statusCode).toBe(403);
    expect(response.headers['content-security-policy']).toBe(pagePolicy);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('refuses sign-in without the form token: no session, no failure counted', async () => {
    const jar = new CookieJar();
    await browse(app, jar, { url: '/login' });
    const response = await browse(app, jar, {
      url: '/login',
      form: { email: host.email, password: host.password },
    });
    expect(response.statusCode).toBe(403);
    expect(response.body).toContain('nothing was changed');
    expect(jar.values.has('ik_session')).toBe(false);
  });

  it('refuses a token post with a missing or wrong CSRF token, or from a foreign Origin, changing nothing', async () => {
    const jar = new CookieJar();
    await signIn(app, jar, host);
    const csrf = csrfFrom((await browse(app, jar, { url: '/settings' })).body);
    const before = await tokenHash();

    const attempts: { form: Record<string, string>; headers?: Record<string, string> }[] = [
      { form: {} },
      { form: { csrf: 'not-the-token' } },
      { form: { csrf: `${csrf}x` } },
      { form: { csrf }, headers: { origin: 'https://evil.example' } },
      { form: { csrf }, headers: { origin: 'null', 'sec-fetch-site': 'cross-site' } },
      { form: { csrf }, headers: { 'sec-fetch-site': 'cross-site' } },
      { form: { csrf }, headers: { 'sec-fetch-site': 'same-site' } },
    ];
    for (const attempt of attempts) {
      const response = await browse(app, jar, { url: '/settings/auth-token', ...attempt });
      expect(response.statusCode).toBe(403);
      expect(response.body).not.toContain('ik_at_');
    }
    expect(await tokenHash()).toBe(before);

    // The same token from our own origin works, also as browsers send it under Referrer-Policy no-referrer.
    const ok = await browse(app, jar, {
      url: '/settings/auth-token',
      form: { csrf },
      headers: { origin: 'https://innkeep.test', 'sec-fetch-site': 'same-origin' },
    });
    expect(ok.statusCode).toBe(200);
    const afterFirst = await tokenHash();
    expect(afterFirst).not.toBe(before);
    // A token exists now: replacing it takes the confirmation's `replace=yes`.
    const nullOrigin = await browse(app, jar, {
      url: '/settings/auth-token',
      form: { csrf, replace: 'yes' },
      headers: { origin: 'null', 'sec-fetch-site': 'same-origin' },
    });
    expect(nullOrigin.statusCode).toBe(200);
    expect(await tokenHash()).not.toBe(afterFirst);
  });

  it('refuses a CSRF token made for another browser’s cookie', async () => {
    const victim = new CookieJar();
    await signIn(app, victim, host);
    const attacker = new CookieJar();
    const attackerToken = csrfFrom((await browse(app, attacker, { url: '/login' })).body);
    const before = await tokenHash();
    const response = await browse(app, victim, {
      url: '/settings/auth-token',
      form: { csrf: attackerToken },
    });
    expect(response.statusCode).toBe(403);
    expect(await tokenHash()).toBe(before);
  });

  it('refuses sign-out without the token: the session stays', async () => {
    const jar = new CookieJar();
    await signIn(app, jar, host);
    const response = await browse(app, jar, { url: '/logout', form: { csrf: 'nope' } });
    expect(response.statusCode).toBe(403);
    expect((await browse(app, jar, { url: '/settings' })).statusCode).toBe(200);
  });

  it('ignores a made-up or altered session cookie and clears it', async () => {
    const jar = new CookieJar();
    await signIn(app, jar, host);
    const cookie = jar.values.get('ik_session') ?? '';
    const altered = `${cookie.slice(0, -1)}${cookie.endsWith('A') ? 'B' : 'A'}`;
    for (const value of [altered, 'A'.repeat(43), `${cookie}.extra`, 'x'.repeat(5000)]) {
      const forged = new CookieJar();
      forged.values.set('ik_session', value);
      const response = await browse(app, forged, { url: '/settings' });
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe('/login?next=%2Fsettings');
      expect(forged.values.has('ik_session')).toBe(false);
    }
    expect((await browse(app, jar, { url: '/settings' })).statusCode).toBe(200);
  });

  it('keeps sessions through a rotation of the secret keys: they are records, not signatures', async () => {
    const [oldKey = '', newKey = ''] = testSecretKeys;
    const before = await buildPagesApp(world, { secretKeys: [oldKey] });
    const after = await buildPagesApp(world, { secretKeys: [newKey] });
    try {
      const jar = new CookieJar();
      await signIn(before, jar, host);
      const session = jar.values.get('ik_session') ?? '';
      const response = await after.inject({ url: '/settings', cookies: { ik_session: session } });
      expect(response.statusCode).toBe(200);
    } finally {
      await before.close();
      await after.close();
    }
  });

  it('refuses to start with missing or short secret keys', async () => {
    await expect(buildPagesApp(world, { secretKeys: [] })).rejects.toThrow(/32 characters/);
    await expect(buildPagesApp(world, { secretKeys: ['short'] })).rejects.toThrow(/32 characters/);
  });
});
