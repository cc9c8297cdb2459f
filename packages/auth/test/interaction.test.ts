import { allScopes } from '@innkeep/domain';
import { testDatabaseKinds } from '@innkeep/storage/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccessTokenVerifier } from '../src/resource-server/access-token-verifier.ts';
import {
  authorizeInBrowser,
  authorizeUrl,
  Browser,
  createOwner,
  createSubUser,
  formOf,
  issueTokens,
  type OauthWorld,
  offeredScopes,
  openOauthWorld,
  pkcePair,
  type RegisteredClient,
  type RunningServer,
  registerClient,
  startServer,
  type TestUser,
} from './support/oauth-harness.ts';

/** Every scope in the order the consent page lists them: those that only read ("See"), then the rest. */
const consentPageOrder = [
  ...allScopes.filter((scope) => scope.endsWith(':read')),
  ...allScopes.filter((scope) => !scope.endsWith(':read')),
];

describe.each(testDatabaseKinds)('sign-in and consent pages on %s', (kind) => {
  let world: OauthWorld;
  let server: RunningServer;
  let owner: TestUser;

  beforeAll(async () => {
    world = await openOauthWorld(kind);
    server = await startServer(world);
    owner = await createOwner(world);
  }, 180_000);

  afterAll(async () => {
    await server?.app.close();
    await world?.close();
  });

  async function loopbackClient(name = 'Desk assistant'): Promise<RegisteredClient> {
    return registerClient(server.origin, {
      client_name: name,
      redirect_uris: ['http://127.0.0.1:48123/callback'],
    });
  }

  /** Opens the authorization URL of `client` in `browser` and returns the page it lands on. */
  async function open(browser: Browser, client: RegisteredClient, extra: Record<string, string> = {}) {
    const { challenge } = pkcePair();
    const url = authorizeUrl(
      server.baseUrl,
      { client_id: client.client_id, redirect_uri: client.redirect_uris[0] ?? '' },
      challenge,
      extra,
    );
    const { response, url: at } = await browser.follow(await browser.get(url), url);
    return { response, url: at, html: await response.text() };
  }

  async function signIn(
    browser: Browser,
    page: { url: string; html: string },
    user: { email: string; password: string },
  ) {
    const { action, csrf } = formOf(page.html);
    const target = new URL(action, page.url).href;
    const response = await browser.post(
      target,
      new URLSearchParams({ csrf, email: user.email, password: user.password }),
    );
    const followed = await browser.follow(response, target);
    return { response: followed.response, url: followed.url, html: await followed.response.text() };
  }

  it('shows a sign-in page with security headers, no-store and a CSRF cookie', async () => {
    const page = await open(new Browser(), await loopbackClient('Header check'));
    expect(page.response.status).toBe(200);
    expect(page.response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.response.headers.get('cache-control')).toBe('no-store');
    expect(page.response.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.response.headers.get('x-frame-options')).toBe('DENY');
    expect(page.html).toContain('Sign in to connect Header check to your Innkeep account.');
    expect(page.html).not.toContain('<script');
  });

  it('shows the consent page with the app, where it returns, and every scope ticked in plain words', async () => {
    const browser = new Browser();
    const consent = await signIn(browser, await open(browser, await loopbackClient('Scope lister')), owner);
    expect(consent.response.status).toBe(200);
    expect(consent.html).toContain('Connect Scope lister to Innkeep?');
    expect(consent.html).toContain('an app on this computer</strong> (127.0.0.1:48123)');
    expect(consent.html).toContain('See your listings and their settings');
    expect(consent.html).toContain('Send messages to guests');
    expect(consent.html).toContain('<strong class="in-your-name">Sends in your name to guests</strong>');
    expect(offeredScopes(consent.html)).toEqual(consentPageOrder);
    expect(consent.html.match(/name="scope" value="[^"]+" checked/g)).toHaveLength(allScopes.length);
    expect(consent.html).toContain('Remember this decision');
    expect(consent.html).toMatch(/<button type="submit" class="primary">Allow<\/button>/);
    expect(consent.html).toMatch(/formaction="[^"]+\/abort">Deny<\/button>/);
    expect(consent.response.headers.get('cache-control')).toBe('no-store');
    expect(consent.html).toContain(owner.email);
  });

  it('escapes a hostile client name', async () => {
    const browser = new Browser();
    const page = await open(browser, await loopbackClient('<img src=x onerror=alert(1)>'));
    expect(page.html).not.toContain('<img src=x');
    expect(page.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('grants only the scopes left ticked', async () => {
    const kept = ['listings:read', 'reservations:read', 'calendar:read'];
    const tokens = await issueTokens(server, owner, { consent: { decision: 'allow', scopes: kept } });
    expect(tokens.scope.split(' ').sort()).toEqual([...kept].sort());
    const verified = await createAccessTokenVerifier({
      db: world.db,
      resource: `${server.baseUrl}/mcp`,
    }).verify(tokens.accessToken);
    expect(verified?.scopes).toEqual(kept);
  });

  it('asks again when nothing is ticked, instead of connecting an app that can do nothing', async () => {
    const browser = new Browser();
    const consent = await signIn(browser, await open(browser, await loopbackClient()), owner);
    const { action, csrf } = formOf(consent.html);
    const response = await browser.post(new URL(action, consent.url).href, new URLSearchParams({ csrf }));
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('Tick at least one thing the app may do, or choose Deny.');
  });

  it('sends access_denied to the client when the person chooses Deny', async () => {
    const client = await loopbackClient();
    const { challenge } = pkcePair();
    const outcome = await authorizeInBrowser(
      new Browser(),
      authorizeUrl(
        server.baseUrl,
        { client_id: client.client_id, redirect_uri: client.redirect_uris[0] ?? '' },
        challenge,
      ),
      owner,
      { decision: 'deny' },
    );
    expect(outcome.redirect.origin).toBe('http://127.0.0.1:48123');
    expect(outcome.redirect.searchParams.get('error')).toBe('access_denied');
    expect(outcome.redirect.searchParams.get('state')).toBe('st-123');
    expect(outcome.redirect.searchParams.get('code')).toBeNull();
  });

  it('shows a team member the owner-only page and sends the client access_denied', async () => {
    const member = await createSubUser(world, owner);
    const browser = new Browser();
    const client = await loopbackClient('Team assistant');
    const refusal = await signIn(browser, await open(browser, client), member);
    expect(refusal.response.status).toBe(403);
    expect(refusal.html).toContain(
      "Assistants connect to the account owner's login: ask the owner, or connect an assistant from your",
    );
    const returnTo = /<a class="button" href="([^"]+)">Return to Team assistant<\/a>/.exec(refusal.html)?.[1];
    expect(returnTo).toBeDefined();
    const back = await browser.get(new URL(returnTo ?? '', refusal.url).href);
    expect(back.status).toBe(303);
    const redirect = new URL(back.headers.get('location') ?? '');
    expect(redirect.origin).toBe('http://127.0.0.1:48123');
    expect(redirect.searchParams.get('error')).toBe('access_denied');
    expect(redirect.searchParams.get('error_description')).toContain('account owner');

    // The team member was not signed in: the next attempt in this browser asks for a login again,
    // so the owner can use it.
    const again = await open(browser, client);
    expect(again.html).toContain('name="password"');
  });

  it('refuses consent to an owner demoted since signing in, even with a remembered decision', async () => {
    const demoted = await createOwner(world);
    const client = await registerClient(server.origin, {
      client_name: 'Hosted assistant',
      redirect_uris: ['https://assistant.example.com/callback'],
      token_endpoint_auth_method: 'client_secret_post',
    });
    const { challenge } = pkcePair();
    const url = authorizeUrl(
      server.baseUrl,
      { client_id: client.client_id, redirect_uri: 'https://assistant.example.com/callback' },
      challenge,
    );
    const browser = new Browser();
    await authorizeInBrowser(browser, url, demoted, { decision: 'allow', remember: true });
    await world.db.updateTable('users').set({ role: 'manager' }).where('id', '=', demoted.userId).execute();

    // Still signed in at the authorization server, so no sign-in page: straight to the refusal.
    const { response, url: at } = await browser.follow(await browser.get(url), url);
    expect(response.status).toBe(403);
    const page = await response.text();
    expect(page).toContain('Ask the account owner');
    const returnTo = /<a class="button" href="([^"]+)">/.exec(page)?.[1] ?? '';
    const back = await browser.get(new URL(returnTo, at).href);
    expect(new URL(back.headers.get('location') ?? '').searchParams.get('error')).toBe('access_denied');
  });

  it('refuses a wrong password, then throttles the email after five failures', async () => {
    const victim = await createOwner(world);
    const browser = new Browser();
    const client = await loopbackClient();
    let page = await open(browser, client);
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      const { action, csrf } = formOf(page.html);
      const response = await browser.post(
        new URL(action, page.url).href,
        new URLSearchParams({ csrf, email: victim.email, password: 'wrong password!' }),
      );
      expect(response.status).toBe(401);
      page = { ...page, html: await response.text() };
      expect(page.html).toContain('That email and password do not match an Innkeep login.');
      expect(page.html).toContain(`value="${victim.email}"`);
    }
    const { action, csrf } = formOf(page.html);
    const locked = await browser.post(
      new URL(action, page.url).href,
      new URLSearchParams({ csrf, email: victim.email, password: victim.password }),
    );
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await locked.text()).toContain('Too many failed sign-in attempts.');
  });

  it('refuses a sign-in post without a valid CSRF token or from another site', async () => {
    const browser = new Browser();
    const page = await open(browser, await loopbackClient());
    const { action, csrf } = formOf(page.html);
    const target = new URL(action, page.url).href;
    const forged = await browser.post(
      target,
      new URLSearchParams({ csrf: 'forged', email: owner.email, password: owner.password }),
    );
    expect(forged.status).toBe(403);
    expect(await forged.text()).toContain('This form expired or came from another site.');
    const crossSite = await browser.post(
      target,
      new URLSearchParams({ csrf, email: owner.email, password: owner.password }),
      'https://evil.example',
    );
    expect(crossSite.status).toBe(403);
  });

  it('shows a start-again page for an unknown, foreign or expired interaction', async () => {
    const unknown = await new Browser().get(`${server.origin}/oauth/interaction/not-a-real-uid`);
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain('Please start again');

    // Another browser (no interaction cookie) cannot use someone's interaction URL.
    const page = await open(new Browser(), await loopbackClient());
    const elsewhere = await new Browser().get(page.url);
    expect(await elsewhere.text()).toContain('Please start again');

    const browser = new Browser();
    const waiting = await open(browser, await loopbackClient());
    world.clock.advance(3601 * 1000);
    try {
      const { action, csrf } = formOf(waiting.html);
      const late = await browser.post(
        new URL(action, waiting.url).href,
        new URLSearchParams({ csrf, email: owner.email, password: owner.password }),
      );
      expect(late.status).toBe(400);
      expect(await late.text()).toContain('This sign-in page has expired');
    } finally {
      world.clock.advance(-3601 * 1000);
    }
  });

  it('skips the consent page for a remembered web client, on a new browser, and asks again otherwise', async () => {
    const client = await registerClient(server.origin, {
      client_name: 'Hosted assistant',
      redirect_uris: ['https://assistant.example.com/callback'],
      token_endpoint_auth_method: 'client_secret_post',
    });
    const { challenge } = pkcePair();
    const url = authorizeUrl(
      server.baseUrl,
      { client_id: client.client_id, redirect_uri: 'https://assistant.example.com/callback' },
      challenge,
    );
    const forgetful = await authorizeInBrowser(new Browser(), url, owner, { decision: 'allow' });
    expect(forgetful.offered).toEqual(consentPageOrder);
    const askedAgain = await authorizeInBrowser(new Browser(), url, owner, {
      decision: 'allow',
      remember: true,
    });
    expect(askedAgain.offered).toEqual(consentPageOrder);

    const remembered = await authorizeInBrowser(new Browser(), url, owner);
    expect(remembered.offered).toBeUndefined();
    expect(remembered.redirect.searchParams.get('code')).toBeTruthy();
    const consentRows = await world.db
      .selectFrom('oauth_consents')
      .select(['user_id', 'client_id'])
      .where('client_id', '=', client.client_id)
      .execute();
    expect(consentRows).toEqual([{ user_id: owner.userId, client_id: client.client_id }]);
  });

  it('keeps a refusal: scopes unticked on a remembered decision are not granted later', async () => {
    const client = await registerClient(server.origin, {
      redirect_uris: ['https://assistant.example.com/callback'],
      token_endpoint_auth_method: 'client_secret_post',
    });
    const { challenge } = pkcePair();
    const url = authorizeUrl(
      server.baseUrl,
      { client_id: client.client_id, redirect_uri: 'https://assistant.example.com/callback' },
      challenge,
    );
    await authorizeInBrowser(new Browser(), url, owner, {
      decision: 'allow',
      scopes: ['listings:read'],
      remember: true,
    });
    const later = await authorizeInBrowser(new Browser(), url, owner);
    expect(later.offered).toBeUndefined();
    const grant = await world.db
      .selectFrom('oidc_model')
      .select('payload')
      .where('model', '=', 'Grant')
      .where('client_id', '=', client.client_id)
      .executeTakeFirstOrThrow();
    expect(grant.payload).toMatchObject({ resources: { [`${server.baseUrl}/mcp`]: 'listings:read' } });
  });

  it('still asks a native client after a remembered decision, showing what it already holds', async () => {
    const client = await registerClient(server.origin, {
      client_name: 'Cursor',
      redirect_uris: ['cursor://anysphere.cursor-retrieval/oauth/callback'],
    });
    const { challenge } = pkcePair();
    const url = authorizeUrl(
      server.baseUrl,
      { client_id: client.client_id, redirect_uri: 'cursor://anysphere.cursor-retrieval/oauth/callback' },
      challenge,
    );
    const first = await authorizeInBrowser(new Browser(), url, owner, { decision: 'allow', remember: true });
    expect(first.redirect.protocol).toBe('cursor:');
    expect(first.offered).toEqual(consentPageOrder);

    // Any app on the device can claim a custom scheme, so oidc-provider asks again (native_client_prompt).
    const browser = new Browser();
    const consent = await signIn(browser, await open(browser, client), owner);
    expect(consent.html).toContain('Connect Cursor to Innkeep?');
    expect(consent.html).toContain('an app on this device');
    expect(offeredScopes(consent.html)).toEqual([]);
    expect(consent.html).toContain('It already may:');
    const { action, csrf } = formOf(consent.html);
    const allowed = await browser.follow(
      await browser.post(new URL(action, consent.url).href, new URLSearchParams({ csrf })),
      consent.url,
    );
    expect(new URL(allowed.response.headers.get('location') ?? '').searchParams.get('code')).toBeTruthy();
  });
});
