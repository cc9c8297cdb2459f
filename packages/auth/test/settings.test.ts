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

const tokenInPage = /<pre class="wrap" id="new-auth-token"><code>(ik_at_[^<]+)<\/code><\/pre>/;

describe.each(testDatabaseKinds)('settings page on %s', (kind) => {
  let world: PagesWorld;
  let app: FastifyInstance;
  let host: TestHost;

  beforeAll(async () => {
    world = await openPagesWorld(kind);
    app = await buildPagesApp(world);
    host = await createHost(world, { timeZone: 'America/New_York' });
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    await world?.close();
  });

  /** Posts the token form as the settings page has it, or as the confirmation page has it (`replace`). */
  async function generateToken(jar: CookieJar, options: { replace?: boolean } = {}) {
    const settings = await browse(app, jar, { url: '/settings' });
    const form = { csrf: csrfFrom(settings.body), ...(options.replace === true ? { replace: 'yes' } : {}) };
    return browse(app, jar, { url: '/settings/auth-token', form });
  }

  it('sends people who are not signed in to /login, coming back here afterwards', async () => {
    const response = await browse(app, new CookieJar(), { url: '/settings' });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/login?next=%2Fsettings');
    const apps = await browse(app, new CookieJar(), { url: '/settings/apps' });
    expect(apps.headers.location).toBe('/login?next=%2Fsettings%2Fapps');
  });

  it('shows profile, account and a trial subscription in plain words', async () => {
    const jar = new CookieJar();
    await signIn(app, jar, host);
    const page = (await browse(app, jar, { url: '/settings' })).body;
    expect(page).toContain('<dt>Name</dt><dd>Hannah Host</dd>');
    expect(page).toContain(`<dt>Email</dt><dd>${host.email}</dd>`);
    expect(page).toContain('<dt>Role</dt><dd>Owner</dd>');
    expect(page).toMatch(/<dt>Name<\/dt><dd>Seaside Stays \d+<\/dd>/);
    expect(page).toContain('<dt>Time zone</dt><dd>America/New_York</dd>');
    expect(page).toContain('<dt>Currency</dt><dd>USD</dd>');
    expect(page).toContain('<dt>Plan</dt><dd>Standard</dd>');
    expect(page).toContain('<dt>Status</dt><dd>Free trial</dd>');
    expect(page).toContain('In good standing: assistants and integrations can use this account.');
    expect(page).toContain('You have no auth token yet.');
    expect(page).toContain('>Generate auth token</button>');
    // Without a home page or webhooks, the navigation names only the pages this server has.
    expect(page).toContain('<a class="skip-link" href="#main">Skip to content</a>');
    expect(page).toContain('<a class="brand" href="/settings">Innkeep</a>');
    expect(page).toMatch(
      /<nav class="site" aria-label="Site">\n<a href="\/settings" aria-current="page">Settings<\/a>\n<a href="\/settings\/apps">Connected assistants<\/a>\n<form method="post" action="\/logout">/,
    );
    expect(page).toContain('<main id="main" tabindex="-1">');
    // No copy button, so no script.
    expect(page).not.toContain('<script');
  });

  it('shows a subscription that is not in good standing, with its period end in the account time zone', async () => {
    const lapsed = await createHost(world, { timeZone: 'America/New_York' });
    await world.operator.setSubscriptionStatus({
      accountId: lapsed.accountId,
      status: 'past_due',
      currentPeriodEnd: '2027-01-31T05:00:00Z',
    });
    const jar = new CookieJar();
    await signIn(app, jar, lapsed);
    const page = (await browse(app, jar, { url: '/settings' })).body;
    expect(page).toContain('<dt>Status</dt><dd>Payment overdue</dd>');
    expect(page).toContain('Not in good standing: connected assistants and the API are paused');
    expect(page).not.toContain('In good standing:');
    // 05:00 UTC on 31 January is midnight in New York (EST, UTC-5).
    expect(page).toContain('<dt>Current period ends</dt>\n<dd>Jan 31, 2027, 12:00 AM EST</dd>');
  });

  it('generates an auth token, shows it once, and it authenticates', async () => {
    const jar = new CookieJar();
    await signIn(app, jar, host);
    const response = await generateToken(jar);
    expect(response.statusCode).toBe(200);
    expect(response.headers.location).toBeUndefined();
    expect(response.headers['cache-control']).toBe('no-store');
    const token = tokenInPage.exec(response.body)?.[1] ?? '';
    expect(token).toMatch(/^ik_at_/);
    expect(response.body).toContain('it is shown only this once');
    expect(response.body).toContain('It replaces your previous auth token, which no longer works.');
    expect(response.body).toContain(
      '<code>authToken</code> header on requests to <code class="wrap">https://innkeep.test/api/…</code>',
    );
    expect(response.body).toContain(
      `<pre class="wrap" id="curl-example"><code>curl -H "authToken: ${token}" https://innkeep.test/api/getListings</code></pre>`,
    );
    // Copy buttons, hidden until the page's one script shows them.
    expect(response.body).toContain('<script src="/assets/innkeep.js" defer></script>');
    expect(response.body).toContain('data-copy="new-auth-token" hidden>Copy auth token</button>');
    expect(response.body).toContain('data-copy="curl-example" hidden>Copy example</button>');

    const principal = await world.identity.authenticateAuthToken(token);
    expect(principal).toMatchObject({ userId: host.userId, accountId: host.accountId, role: 'owner' });

    const later = (await browse(app, jar, { url: '/settings' })).body;
    expect(later).not.toContain(token);
    // The clock stands at 12:00 UTC on 1 March 2027: 7:00 in New York.
    expect(later).toContain('Your current auth token was generated Mar 1, 2027, 7:00 AM EST.');
  });

  it('replaces a token only after the confirmation step, and then revokes the previous one', async () => {
    const user = await createHost(world, { timeZone: 'America/New_York' });
    const jar = new CookieJar();
    await signIn(app, jar, user);
    expect((await browse(app, jar, { url: '/settings/auth-token/replace' })).headers.location).toBe(
      '/settings#auth-token',
    );
    const first = tokenInPage.exec((await generateToken(jar)).body)?.[1] ?? '';
    expect(first).toMatch(/^ik_at_/);
    const settings = (await browse(app, jar, { url: '/settings' })).body;
    expect(settings).not.toContain('>Generate auth token</button>');
    expect(settings).toContain('<a href="/settings/auth-token/replace">Replace the auth token…</a>');

    // The settings page's form, or a replayed one, does not replace the token in use: it asks first.
    const unconfirmed = await generateToken(jar);
    expect(unconfirmed.statusCode).toBe(303);
    expect(unconfirmed.headers.location).toBe('/settings/auth-token/replace');
    expect((await world.identity.authenticateAuthToken(first))?.userId).toBe(user.userId);
    const confirmation = await browse(app, jar, { url: '/settings/auth-token/replace' });
    expect(confirmation.statusCode).toBe(200);
    expect(confirmation.body).toContain('<h1>Replace your auth token?</h1>');
    expect(confirmation.body).toContain(
      'Your current token made Mar 1, 2027, 7:00 AM EST stops working at once',
    );
    expect(confirmation.body).toContain('<input type="hidden" name="replace" value="yes">');
    expect(confirmation.body).toContain('<a href="/settings#auth-token">Keep the current token</a>');

    const second = tokenInPage.exec((await generateToken(jar, { replace: true })).body)?.[1] ?? '';
    expect(second).toMatch(/^ik_at_/);
    expect(second).not.toBe(first);
    expect(await world.identity.authenticateAuthToken(first)).toBeNull();
    expect((await world.identity.authenticateAuthToken(second))?.userId).toBe(user.userId);
  });

  it('lets a read-only team member see their role and generate their own token', async () => {
    const { userId } = await world.operator.addSubUser({
      accountId: host.accountId,
      email: `viewer.${process.pid}@example.test`,
      firstName: 'Vic',
      lastName: 'Viewer',
      role: 'viewer',
      password: 'viewer password 1',
    });
    const jar = new CookieJar();
    await signIn(app, jar, { email: `viewer.${process.pid}@example.test`, password: 'viewer password 1' });
    const page = (await browse(app, jar, { url: '/settings' })).body;
    expect(page).toContain('<dt>Role</dt><dd>Team member — viewer (read only)</dd>');
    const token = tokenInPage.exec((await generateToken(jar)).body)?.[1] ?? '';
    expect((await world.identity.authenticateAuthToken(token))?.userId).toBe(userId);
  });

  it('serves the copy-button script under a policy that allows only our own scripts', async () => {
    const script = await browse(app, new CookieJar(), { url: '/assets/innkeep.js' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.body).toContain("querySelectorAll('button[data-copy]')");
    const login = await browse(app, new CookieJar(), { url: '/login' });
    expect(login.headers['content-security-policy']).toContain("script-src 'self'");
  });

  it('sends a token request without a session to sign-in, generating nothing', async () => {
    const jar = new CookieJar();
    const login = await browse(app, jar, { url: '/login' });
    const before = await world.db
      .selectFrom('users')
      .select('auth_token_hash')
      .where('id', '=', host.userId)
      .executeTakeFirstOrThrow();
    const response = await browse(app, jar, {
      url: '/settings/auth-token',
      form: { csrf: csrfFrom(login.body) },
    });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/login?next=%2Fsettings');
    const after = await world.db
      .selectFrom('users')
      .select('auth_token_hash')
      .where('id', '=', host.userId)
      .executeTakeFirstOrThrow();
    expect(after).toEqual(before);
  });
});
