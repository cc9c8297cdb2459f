import { testDatabaseKinds } from '@innkeep/storage/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizationServer } from '../src/provider/authorization-server.ts';
import { accountPages } from '../src/web/account-pages.ts';
import {
  authorizeInBrowser,
  authorizeUrl,
  Browser,
  createOwner,
  createSubUser,
  formOf,
  freePort,
  type OauthWorld,
  oauthSecretKeys,
  openOauthWorld,
  pkcePair,
  type RegisteredClient,
  registerClient,
  type TestUser,
  testSigningKey,
} from './support/oauth-harness.ts';

// The account pages and the authorization server share one sign-in, as in apps/server.
describe.each(testDatabaseKinds)('one sign-in for the account pages and OAuth on %s', (kind) => {
  let world: OauthWorld;
  let app: FastifyInstance;
  let origin: string;
  let owner: TestUser;
  let client: RegisteredClient;

  beforeAll(async () => {
    world = await openOauthWorld(kind);
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    app = Fastify({ logger: false });
    await app.register(authorizationServer, {
      db: world.db,
      baseUrl: origin,
      secretKeys: oauthSecretKeys,
      signingKeys: [testSigningKey()],
      identity: world.identity,
      clock: world.clock,
      registrationRateLimit: { max: 10_000, timeWindowMs: 60_000 },
    });
    await app.register(accountPages, {
      db: world.db,
      identity: world.identity,
      secretKeys: oauthSecretKeys,
      baseUrl: origin,
      clock: world.clock,
    });
    await app.listen({ port, host: '127.0.0.1' });
    owner = await createOwner(world);
    client = await registerClient(origin, {
      client_name: 'Desk assistant',
      redirect_uris: ['http://127.0.0.1:48123/callback'],
    });
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    await world?.close();
  });

  function authorizationUrl(extra: Record<string, string> = {}): string {
    const redirectUri = client.redirect_uris[0] ?? '';
    return authorizeUrl(
      origin,
      { client_id: client.client_id, redirect_uri: redirectUri },
      pkcePair().challenge,
      extra,
    );
  }

  /** Opens an authorization in `browser` and returns the page it stops at. */
  async function openAuthorization(browser: Browser, extra: Record<string, string> = {}) {
    const url = authorizationUrl(extra);
    const { response, url: at } = await browser.follow(await browser.get(url), url);
    return { status: response.status, url: at, html: await response.text() };
  }

  async function signInOnLoginPage(browser: Browser, user: { email: string; password: string }) {
    const { action, csrf } = formOf(await (await browser.get(`${origin}/login`)).text());
    const response = await browser.post(
      new URL(action, origin).href,
      new URLSearchParams({ csrf, email: user.email, password: user.password }),
    );
    expect(response.status).toBe(303);
  }

  async function signOut(browser: Browser) {
    const settings = await browser.get(`${origin}/settings`);
    const csrf = /name="csrf" value="([^"]+)"/.exec(await settings.text())?.[1] ?? '';
    const response = await browser.post(`${origin}/logout`, new URLSearchParams({ csrf }));
    expect(response.headers.get('location')).toBe('/login?signed_out=1');
  }

  const isLoginForm = (html: string) => html.includes('Sign in to connect Desk assistant');
  const isConsentPage = (html: string) => html.includes('Connect Desk assistant to Innkeep?');

  it('does not ask a host signed in at /login to sign in again when connecting an assistant', async () => {
    const browser = new Browser();
    await signInOnLoginPage(browser, owner);
    const page = await openAuthorization(browser);
    expect(page.status).toBe(200);
    expect(isConsentPage(page.html)).toBe(true);
    expect(page.html).toContain(owner.email);
  });

  it('still asks when the assistant sends prompt=login', async () => {
    const browser = new Browser();
    await signInOnLoginPage(browser, owner);
    const page = await openAuthorization(browser, { prompt: 'login' });
    expect(isLoginForm(page.html)).toBe(true);
  });

  it('still asks a signed-in team member, who may sign in as the owner instead', async () => {
    const browser = new Browser();
    await signInOnLoginPage(browser, await createSubUser(world, owner));
    const page = await openAuthorization(browser);
    expect(isLoginForm(page.html)).toBe(true);
  });

  it('signs the account pages in when the host signs in during an authorization', async () => {
    const browser = new Browser();
    expect((await browser.get(`${origin}/settings`)).status).toBe(303);
    const outcome = await authorizeInBrowser(browser, authorizationUrl(), owner);
    expect(outcome.redirect.searchParams.get('code')).not.toBeNull();
    const settings = await browser.get(`${origin}/settings`);
    expect(settings.status).toBe(200);
    expect(await settings.text()).toContain(owner.email);
  });

  it('asks again after signing out, also where the authorization server remembered the host', async () => {
    const browser = new Browser();
    await authorizeInBrowser(browser, authorizationUrl(), owner);
    expect(isConsentPage((await openAuthorization(browser)).html)).toBe(true);
    await signOut(browser);
    expect(isLoginForm((await openAuthorization(browser)).html)).toBe(true);
  });

  it('asks again once the other browsers are signed out from the settings page', async () => {
    const elsewhere = new Browser();
    await authorizeInBrowser(elsewhere, authorizationUrl(), owner);
    const here = new Browser();
    await signInOnLoginPage(here, owner);
    const settings = await (await here.get(`${origin}/settings`)).text();
    const csrf = /name="csrf" value="([^"]+)"/.exec(settings)?.[1] ?? '';
    await here.post(`${origin}/settings/sessions/sign-out-others`, new URLSearchParams({ csrf }));
    expect(isLoginForm((await openAuthorization(elsewhere)).html)).toBe(true);
    expect(isConsentPage((await openAuthorization(here)).html)).toBe(true);
  });

  it('connects as whoever is signed in now, after another person signed out in the same browser', async () => {
    const browser = new Browser();
    await authorizeInBrowser(browser, authorizationUrl(), owner);
    await signOut(browser);
    const nextOwner = await createOwner(world);
    await signInOnLoginPage(browser, nextOwner);
    const page = await openAuthorization(browser);
    expect(isConsentPage(page.html)).toBe(true);
    expect(page.html).toContain(nextOwner.email);
    expect(page.html).not.toContain(owner.email);
  });

  it('connects as whoever signed in last, after the previous person’s session ran out unused', async () => {
    const browser = new Browser();
    await authorizeInBrowser(browser, authorizationUrl(), owner);
    world.clock.advance(3 * 60 * 60 * 1000);
    const nextOwner = await createOwner(world);
    await signInOnLoginPage(browser, nextOwner);
    const page = await openAuthorization(browser);
    expect(isConsentPage(page.html)).toBe(true);
    expect(page.html).toContain(nextOwner.email);
  });
});
