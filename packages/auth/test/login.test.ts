import { testDatabaseKinds } from '@innkeep/storage/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
} from './support/account-pages-harness.ts';

const minuteMs = 60 * 1000;

describe.each(testDatabaseKinds)('sign-in pages on %s', (kind) => {
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

  it('shows a sign-in form with email, password, a CSRF field and an ik_csrf cookie', async () => {
    const jar = new CookieJar();
    const response = await browse(app, jar, { url: '/login' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toContain('<form class="card" method="post" action="/login">');
    expect(response.body).toContain('name="email"');
    expect(response.body).toContain('name="password"');
    expect(response.body).toContain('>Sign in</button>');
    expect(jar.values.has('ik_csrf')).toBe(true);
    const cookie = response.cookies.find((c) => c.name === 'ik_csrf');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(response.body).not.toContain('<script');
  });

  it('signs in with the right password (any letter case of the email) and lands on /settings', async () => {
    const jar = new CookieJar();
    const response = await signIn(app, jar, { email: host.email.toUpperCase(), password: host.password });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/settings');
    const session = response.cookies.find((c) => c.name === 'ik_session');
    expect(session).toMatchObject({
      httpOnly: true,
      sameSite: 'Lax',
      path: '/',
      maxAge: 43_200,
      secure: true,
    });
    const settings = await browse(app, jar, { url: '/settings' });
    expect(settings.statusCode).toBe(200);
    expect(settings.body).toContain(host.email);
  });

  it('returns to a same-site next page after signing in', async () => {
    const jar = new CookieJar();
    const login = await browse(app, jar, { url: '/login?next=%2Fsettings%2Fapps' });
    expect(login.body).toContain('action="/login?next=%2Fsettings%2Fapps"');
    const response = await signIn(app, jar, host, '/settings/apps');
    expect(response.headers.location).toBe('/settings/apps');
  });

  it.each([
    '//evil.example',
    'https://evil.example',
    '/\\evil.example',
    'https:evil.example',
    '/.//evil.example',
    '/settings/..//evil.example/phish',
    '/%2e//evil.example',
  ])('refuses to send anyone to next=%s', async (next) => {
    const jar = new CookieJar();
    const response = await signIn(app, jar, host, next);
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/settings');
    // Already signed in, /login still only redirects on site.
    const again = await browse(app, jar, { url: `/login?next=${encodeURIComponent(next)}` });
    expect(again.headers.location).toBe('/settings');
  });

  it('says only "email or password is wrong", for a wrong password and for an unknown email alike', async () => {
    const jar = new CookieJar();
    const wrongPassword = await signIn(app, jar, { email: host.email, password: 'not the password' });
    const unknownEmail = await signIn(app, jar, {
      email: 'nobody@example.test',
      password: 'not the password',
    });
    for (const response of [wrongPassword, unknownEmail]) {
      expect(response.statusCode).toBe(401);
      expect(response.body).toContain('The email or password is wrong.');
      expect(response.cookies.find((c) => c.name === 'ik_session')).toBeUndefined();
    }
    expect(wrongPassword.body).toContain(`value="${host.email}"`);
    expect(wrongPassword.body.replace(host.email, 'EMAIL')).toBe(
      unknownEmail.body.replace('nobody@example.test', 'EMAIL'),
    );
  });

  it('asks for both fields without counting a failure', async () => {
    const forgetful = await createHost(world);
    const jar = new CookieJar();
    const page = await browse(app, jar, { url: '/login' });
    const response = await browse(app, jar, {
      url: '/login',
      form: { email: forgetful.email, password: '', csrf: csrfFrom(page.body) },
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('Enter your email and your password.');
    const rows = await world.db
      .selectFrom('login_throttle')
      .select('key')
      .where('key', '=', `email:${forgetful.email.toLowerCase()}`)
      .execute();
    expect(rows).toEqual([]);
  });

  it('locks an email after 5 failures for 15 minutes, even for the right password, then lets it in', async () => {
    const victim = await createHost(world);
    const jar = new CookieJar();
    for (let failure = 1; failure <= 5; failure += 1) {
      const response = await signIn(app, jar, { email: victim.email, password: `wrong guess ${failure}` });
      expect(response.statusCode).toBe(401);
    }
    const locked = await signIn(app, jar, victim);
    expect(locked.statusCode).toBe(429);
    expect(locked.headers['retry-after']).toBe('900');
    expect(locked.body).toContain('Too many failed sign-in attempts. Wait 15 minutes, then try again.');
    expect(locked.cookies.find((c) => c.name === 'ik_session')).toBeUndefined();
    // Other people can still sign in from the same address.
    expect((await signIn(app, new CookieJar(), host)).statusCode).toBe(303);

    world.clock.advance(14 * minuteMs);
    const stillLocked = await signIn(app, jar, victim);
    expect(stillLocked.statusCode).toBe(429);
    expect(stillLocked.headers['retry-after']).toBe('60');

    world.clock.advance(minuteMs);
    const unlocked = await signIn(app, jar, victim);
    expect(unlocked.statusCode).toBe(303);
    const rows = await world.db
      .selectFrom('login_throttle')
      .select('key')
      .where('key', '=', `email:${victim.email.toLowerCase()}`)
      .execute();
    expect(rows).toEqual([]);
  });

  it('redirects a signed-in person from /login to /settings', async () => {
    const jar = new CookieJar();
    await signIn(app, jar, host);
    const response = await browse(app, jar, { url: '/login' });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/settings');
  });

  it('signs out: the session cookie is cleared and /settings asks to sign in again', async () => {
    const jar = new CookieJar();
    await signIn(app, jar, host);
    const settings = await browse(app, jar, { url: '/settings' });
    const response = await browse(app, jar, { url: '/logout', form: { csrf: csrfFrom(settings.body) } });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/login?signed_out=1');
    expect(jar.values.has('ik_session')).toBe(false);
    const login = await browse(app, jar, { url: '/login?signed_out=1' });
    expect(login.body).toContain('You are signed out.');
    const after = await browse(app, jar, { url: '/settings' });
    expect(after.statusCode).toBe(303);
    expect(after.headers.location).toBe('/login?next=%2Fsettings');
  });

  it('signs out a person whose user was deleted', async () => {
    const leaving = await createHost(world);
    const jar = new CookieJar();
    await signIn(app, jar, leaving);
    expect((await browse(app, jar, { url: '/settings' })).statusCode).toBe(200);
    await world.db.deleteFrom('users').where('id', '=', leaving.userId).execute();
    const response = await browse(app, jar, { url: '/settings' });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/login?next=%2Fsettings');
    expect(jar.values.has('ik_session')).toBe(false);
  });

  it('ends a session 12 hours after sign-in, however active', async () => {
    const jar = new CookieJar();
    await signIn(app, jar, host);
    for (let hour = 1; hour < 12; hour += 1) {
      world.clock.advance(60 * minuteMs);
      expect((await browse(app, jar, { url: '/settings' })).statusCode).toBe(200);
    }
    world.clock.advance(60 * minuteMs - 1000);
    expect((await browse(app, jar, { url: '/settings' })).statusCode).toBe(200);
    world.clock.advance(1000);
    const response = await browse(app, jar, { url: '/settings' });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/login?next=%2Fsettings');
  });

  it('ends a session after 2 hours without use', async () => {
    const jar = new CookieJar();
    await signIn(app, jar, host);
    world.clock.advance(2 * 60 * minuteMs);
    const response = await browse(app, jar, { url: '/settings' });
    expect(response.statusCode).toBe(303);
    expect(jar.values.has('ik_session')).toBe(false);
  });

  it('signing out ends the session itself: a copied cookie opens nothing, on any instance', async () => {
    const jar = new CookieJar();
    await signIn(app, jar, host);
    const copied = jar.values.get('ik_session') ?? '';
    const otherInstance = await buildPagesApp(world);
    try {
      const before = await otherInstance.inject({ url: '/settings', cookies: { ik_session: copied } });
      expect(before.statusCode).toBe(200);
      const settings = await browse(app, jar, { url: '/settings' });
      await browse(app, jar, { url: '/logout', form: { csrf: csrfFrom(settings.body) } });
      for (const instance of [app, otherInstance]) {
        const after = await instance.inject({ url: '/settings', cookies: { ik_session: copied } });
        expect(after.statusCode).toBe(303);
        expect(after.headers.location).toBe('/login?next=%2Fsettings');
      }
    } finally {
      await otherInstance.close();
    }
  });

  it('gives a new session id at every sign-in and ends the one the browser had', async () => {
    const jar = new CookieJar();
    await signIn(app, jar, host);
    const first = jar.values.get('ik_session') ?? '';
    // Signed in, /login only redirects; the form token of any of our pages posts the sign-in again.
    const settings = await browse(app, jar, { url: '/settings' });
    await browse(app, jar, {
      url: '/login',
      form: { email: host.email, password: host.password, csrf: csrfFrom(settings.body) },
    });
    const second = jar.values.get('ik_session') ?? '';
    expect(second).not.toBe(first);
    expect((await app.inject({ url: '/settings', cookies: { ik_session: first } })).statusCode).toBe(303);
    expect((await app.inject({ url: '/settings', cookies: { ik_session: second } })).statusCode).toBe(200);
  });

  it('sets cookies without Secure when told to (plain-http development)', async () => {
    const plain = await buildPagesApp(world, { secureCookies: false });
    try {
      const response = await signIn(plain, new CookieJar(), host);
      expect(response.cookies.find((c) => c.name === 'ik_session')?.secure).toBeUndefined();
    } finally {
      await plain.close();
    }
  });
});
