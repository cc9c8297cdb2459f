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

const firefoxOnWindows = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
const safariOnIphone =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

describe.each(testDatabaseKinds)('signed-in browsers and password on the settings page on %s', (kind) => {
  let world: PagesWorld;
  let app: FastifyInstance;

  beforeAll(async () => {
    world = await openPagesWorld(kind);
    app = await buildPagesApp(world);
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    await world?.close();
  });

  /** Signs `host` in from a browser that sends `userAgent` on every request. */
  async function browserOf(host: TestHost, userAgent: string, remoteAddress: string) {
    const jar = new CookieJar();
    const headers = { 'user-agent': userAgent };
    const login = await browse(app, jar, { url: '/login', headers, remoteAddress });
    const response = await browse(app, jar, {
      url: '/login',
      form: { email: host.email, password: host.password, csrf: csrfFrom(login.body) },
      headers,
      remoteAddress,
    });
    expect(response.statusCode).toBe(303);
    return jar;
  }

  async function settingsOf(jar: CookieJar) {
    return browse(app, jar, { url: '/settings' });
  }

  it('lists the signed-in browsers with where and when, marking this one', async () => {
    const host = await createHost(world, { timeZone: 'UTC' });
    const laptop = await browserOf(host, firefoxOnWindows, '203.0.113.5');
    world.clock.advance(5 * 60 * 1000);
    await browserOf(host, safariOnIphone, '198.51.100.7');
    const page = (await settingsOf(laptop)).body;
    expect(page).toContain('<h2>Signed-in browsers</h2>');
    expect(page).toMatch(
      /<tr class="current">\n<td>Firefox on Windows <strong>\(this browser\)<\/strong><\/td>\n<td>203\.0\.113\.5<\/td>/,
    );
    expect(page).toMatch(/<tr>\n<td>Safari on iOS<\/td>\n<td>198\.51\.100\.7<\/td>/);
    expect(page).toContain('>Sign out other sessions</button>');
  });

  it('signs the other browsers out and keeps this one', async () => {
    const host = await createHost(world);
    const laptop = await browserOf(host, firefoxOnWindows, '203.0.113.5');
    const phone = await browserOf(host, safariOnIphone, '198.51.100.7');
    const someoneElse = await browserOf(await createHost(world), firefoxOnWindows, '203.0.113.9');

    const settings = await settingsOf(laptop);
    const forged = await browse(app, laptop, {
      url: '/settings/sessions/sign-out-others',
      form: { csrf: 'not-the-token' },
    });
    expect(forged.statusCode).toBe(403);
    expect((await settingsOf(phone)).statusCode).toBe(200);

    const response = await browse(app, laptop, {
      url: '/settings/sessions/sign-out-others',
      form: { csrf: csrfFrom(settings.body) },
    });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/settings?done=others_signed_out#sessions');
    const after = await browse(app, laptop, { url: response.headers.location ?? '' });
    expect(after.statusCode).toBe(200);
    expect(after.body).toContain('Every other browser is signed out.');
    expect(after.body).toContain('No other browser is signed in.');
    expect((await settingsOf(phone)).statusCode).toBe(303);
    expect((await settingsOf(someoneElse)).statusCode).toBe(200);
  });

  it('changes the password, which signs every other browser out', async () => {
    const host = await createHost(world);
    const laptop = await browserOf(host, firefoxOnWindows, '203.0.113.5');
    const phone = await browserOf(host, safariOnIphone, '198.51.100.7');
    const settings = await settingsOf(laptop);
    expect(settings.body).toContain('<form method="post" action="/settings/password">');

    const newPassword = 'a much better passphrase';
    const response = await browse(app, laptop, {
      url: '/settings/password',
      form: {
        csrf: csrfFrom(settings.body),
        current_password: host.password,
        new_password: newPassword,
        confirm_password: newPassword,
      },
    });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/settings?done=password_changed');
    const after = await browse(app, laptop, { url: response.headers.location ?? '' });
    expect(after.body).toContain('Your password is changed, and every other browser is signed out.');
    expect((await settingsOf(phone)).statusCode).toBe(303);

    expect((await signIn(app, new CookieJar(), host)).statusCode).toBe(401);
    expect(
      (await signIn(app, new CookieJar(), { email: host.email, password: newPassword })).statusCode,
    ).toBe(303);
  });

  it.each([
    [{ current_password: '' }, 'Enter your current password.'],
    [{ new_password: 'short', confirm_password: 'short' }, 'Passwords need at least 10 characters.'],
    [{ confirm_password: 'something else entirely' }, 'The two new passwords differ.'],
    [
      { new_password: 'SAME', confirm_password: 'SAME' },
      'The new password must differ from the current one.',
    ],
  ])('refuses %j without changing anything', async (change, message) => {
    const host = await createHost(world);
    const laptop = await browserOf(host, firefoxOnWindows, '203.0.113.5');
    const phone = await browserOf(host, safariOnIphone, '198.51.100.7');
    const form: Record<string, string> = {
      csrf: csrfFrom((await settingsOf(laptop)).body),
      current_password: host.password,
      new_password: 'a much better passphrase',
      confirm_password: 'a much better passphrase',
      ...change,
    };
    if (form.new_password === 'SAME') form.new_password = form.confirm_password = host.password;
    const response = await browse(app, laptop, { url: '/settings/password', form });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain(message);
    expect((await settingsOf(phone)).statusCode).toBe(200);
    expect((await signIn(app, new CookieJar(), host)).statusCode).toBe(303);
  });

  it('throttles wrong current passwords like sign-ins', async () => {
    const host = await createHost(world);
    const laptop = await browserOf(host, firefoxOnWindows, '203.0.113.5');
    const csrf = csrfFrom((await settingsOf(laptop)).body);
    const attempt = (currentPassword: string) =>
      browse(app, laptop, {
        url: '/settings/password',
        form: {
          csrf,
          current_password: currentPassword,
          new_password: 'a much better passphrase',
          confirm_password: 'a much better passphrase',
        },
        remoteAddress: '203.0.113.5',
      });
    for (let guess = 1; guess <= 5; guess += 1) {
      const response = await attempt(`wrong guess ${guess}`);
      expect(response.statusCode).toBe(403);
      expect(response.body).toContain('The current password is not correct; nothing was changed.');
    }
    const locked = await attempt(host.password);
    expect(locked.statusCode).toBe(429);
    expect(locked.body).toContain('Too many failed sign-in attempts.');
    expect((await signIn(app, new CookieJar(), host, undefined, '198.51.100.99')).statusCode).toBe(303);
  });
});
