import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizationServer } from '../src/provider/authorization-server.ts';
import {
  type AccessTokenVerifier,
  createAccessTokenVerifier,
} from '../src/resource-server/access-token-verifier.ts';
import { accountPages } from '../src/web/account-pages.ts';
import { launchChromium, watchForProblems } from './support/chromium.ts';
import {
  authorizeUrl,
  createOwner,
  freePort,
  type OauthWorld,
  oauthSecretKeys,
  openOauthWorld,
  pkcePair,
  refresh,
  registerClient,
  type TestUser,
  testSigningKey,
  tokenRequest,
} from './support/oauth-harness.ts';
import {
  keyboardWalk,
  overflows,
  reachingPastTheRight,
  seriousAxeViolations,
  viewports,
} from './support/page-checks.ts';

/** A stand-in for a desktop app's loopback listener: records the query of every callback it receives. */
interface CallbackServer {
  readonly redirectUri: string;
  readonly received: URLSearchParams[];
  close(): Promise<void>;
}

async function startCallbackServer(): Promise<CallbackServer> {
  const received: URLSearchParams[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/callback') received.push(url.searchParams);
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end('<!doctype html><title>Connected</title><p>You can close this window.</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the callback server has no port');
  return {
    redirectUri: `http://127.0.0.1:${address.port}/callback`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let clientCounter = 0;

/** One run of "connect an assistant" in the browser, up to the browser being sent to the redirect URI. */
interface Connection {
  readonly clientId: string;
  readonly clientName: string;
  readonly redirectUri: string;
  readonly state: string;
  readonly verifier: string;
  /** The query of the redirect URI the browser was sent to. */
  readonly callback: URLSearchParams;
  /** The checkboxes the consent page offered, in page order. */
  readonly offered: string[];
  /** The consent page's group headings, as Chromium renders them. */
  readonly groups: string[];
  /** The offered scopes whose "in your name" mark Chromium shows. */
  readonly markedInYourName: string[];
  /** What Chromium reported as wrong on the way (CSP violations, error responses). */
  readonly problems: string[];
}

// PGlite: every step here is a handful of queries, and the flow on PostgreSQL is covered without a browser.
describe('OAuth in Chromium (PGlite)', () => {
  let world: OauthWorld;
  let app: FastifyInstance;
  let origin: string;
  let resource: string;
  let verifier: AccessTokenVerifier;
  let callbacks: CallbackServer;
  let browser: Browser;

  beforeAll(async () => {
    world = await openOauthWorld('pglite');
    callbacks = await startCallbackServer();
    // The issuer and the account pages' form checks need the public address before the app listens.
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    resource = `${origin}/mcp`;
    // What apps/server's buildApp composes: the authorization server and the account pages on one app,
    // so the interaction pages get their stylesheet and "Connected apps" sees the provider's grants.
    app = Fastify({ logger: false });
    await app.register(authorizationServer, {
      db: world.db,
      baseUrl: origin,
      secretKeys: oauthSecretKeys,
      signingKeys: [testSigningKey()],
      identity: world.identity,
      clock: world.clock,
    });
    await app.register(accountPages, {
      db: world.db,
      identity: world.identity,
      secretKeys: oauthSecretKeys,
      baseUrl: origin,
      clock: world.clock,
    });
    await app.listen({ host: '127.0.0.1', port });
    verifier = createAccessTokenVerifier({ db: world.db, resource, clock: world.clock });
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await callbacks?.close();
    await world?.close();
  });

  /**
   * Registers a public client with `redirectUri` over HTTP, opens its authorization request (PKCE S256,
   * resource `/mcp`, `scopes`, a state) in a fresh page of `context`, signs `owner` in, unticks `untick` on
   * the consent page and clicks Allow, then waits for the browser to request the redirect URI (and, for an
   * http one, to show what the callback server answered).
   */
  async function connect(
    context: BrowserContext,
    owner: TestUser,
    options: { redirectUri: string; scopes: readonly string[]; untick: string },
  ): Promise<Connection> {
    clientCounter += 1;
    const clientName = `Browser assistant ${clientCounter}`;
    const { redirectUri } = options;
    const client = await registerClient(origin, { client_name: clientName, redirect_uris: [redirectUri] });
    const { verifier: codeVerifier, challenge } = pkcePair();
    const state = randomBytes(12).toString('base64url');
    const url = authorizeUrl(origin, { client_id: client.client_id, redirect_uri: redirectUri }, challenge, {
      resource,
      scope: options.scopes.join(' '),
      state,
    });
    const page = await context.newPage();
    const problems = watchForProblems(page);
    try {
      await page.goto(url);
      expect(new URL(page.url()).pathname).toMatch(/^\/oauth\/interaction\/[^/]+$/);
      expect(await page.textContent('form')).toContain(`Sign in to connect ${clientName}`);
      await page.fill('#email', owner.email);
      await page.fill('#password', owner.password);
      await page.click('button:has-text("Sign in")');

      await page.waitForSelector('h1:has-text("Connect")');
      expect(await page.textContent('h1')).toBe(`Connect ${clientName} to Innkeep?`);
      // The stylesheet, served by the account pages, loaded under the interaction page's policy.
      expect(await page.evaluate('getComputedStyle(document.querySelector("button")).borderRadius')).toBe(
        '6px',
      );
      const checkboxes = await page.locator('input[name="scope"]').all();
      const offered = await Promise.all(
        checkboxes.map(async (box) => (await box.getAttribute('value')) ?? ''),
      );
      const groups = (await page.locator('.scope-group h2').allInnerTexts()).map((text) => text.trim());
      const markedInYourName: string[] = [];
      for (const scope of offered) {
        const mark = page.locator(`label:has(input[value="${scope}"]) .in-your-name`);
        if ((await mark.count()) > 0 && (await mark.isVisible())) markedInYourName.push(scope);
      }
      await page.uncheck(`input[name="scope"][value="${options.untick}"]`);
      // A redirect a policy blocks never becomes a request, so this times out when the chain is stopped.
      const arrival = page
        .waitForEvent('request', {
          predicate: (request) => request.url().startsWith(`${redirectUri}?`),
          timeout: 5_000,
        })
        .catch((error: unknown) => {
          const reported = problems.join(' | ') || 'nothing';
          throw new Error(`The browser was never sent to ${redirectUri}; it reported ${reported}`, {
            cause: error,
          });
        });
      await page.click('button:has-text("Allow")');
      const callback = new URL((await arrival).url()).searchParams;
      if (redirectUri.startsWith('http:')) {
        await page.waitForURL((at) => at.href.startsWith(redirectUri));
        expect(await page.textContent('p')).toBe('You can close this window.');
      }
      return {
        clientId: client.client_id,
        clientName,
        redirectUri,
        state,
        verifier: codeVerifier,
        callback,
        offered,
        groups,
        markedInYourName,
        problems,
      };
    } finally {
      await page.close();
    }
  }

  /** Exchanges the code of `connection` at the token endpoint as the client would. */
  function exchange(connection: Connection) {
    return tokenRequest(origin, {
      grant_type: 'authorization_code',
      code: connection.callback.get('code') ?? '',
      redirect_uri: connection.redirectUri,
      code_verifier: connection.verifier,
      client_id: connection.clientId,
      resource,
    });
  }

  it('logs in, consents and reaches the redirect with a code', async () => {
    const owner = await createOwner(world);
    const context = await browser.newContext();
    try {
      const before = callbacks.received.length;
      const connection = await connect(context, owner, {
        redirectUri: callbacks.redirectUri,
        scopes: ['listings:read', 'reservations:read', 'messages:write'],
        untick: 'messages:write',
      });
      expect(connection.offered).toEqual(['listings:read', 'reservations:read', 'messages:write']);
      expect(connection.groups).toEqual(['See (changes nothing)', 'Change (acts on your account)']);
      expect(connection.markedInYourName).toEqual(['messages:write']);
      const received = callbacks.received.slice(before);
      expect(received).toHaveLength(1);
      const query = received[0] ?? new URLSearchParams();
      expect(query.get('code')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
      expect(query.get('code')).toBe(connection.callback.get('code'));
      expect(query.get('state')).toBe(connection.state);
      expect(query.get('iss')).toBe(origin);
      expect(query.has('error')).toBe(false);
      expect(connection.problems).toEqual([]);

      const token = await exchange(connection);
      expect(token.status).toBe(200);
      expect(String(token.body.scope).split(' ').sort()).toEqual(['listings:read', 'reservations:read']);
      const verified = await verifier.verify(String(token.body.access_token));
      expect(verified).toMatchObject({ userId: owner.userId, clientId: connection.clientId });
      expect(verified?.scopes).toEqual(['listings:read', 'reservations:read']);
    } finally {
      await context.close();
    }
  });

  // The pages of the flow itself, as the other pages are checked in pages-browser.test.ts: axe runs injected,
  // which the interaction pages' policy refuses, so this context bypasses it (the flows above keep it).
  for (const viewport of viewports) {
    it(`shows sign-in and consent that fit, are reached by keyboard and pass axe at ${viewport.width}x${viewport.height}`, async () => {
      const owner = await createOwner(world);
      const client = await registerClient(origin, {
        client_name: 'A fairly long assistant name that has to wrap on a phone',
        redirect_uris: [callbacks.redirectUri],
      });
      const url = authorizeUrl(
        origin,
        { client_id: client.client_id, redirect_uri: callbacks.redirectUri },
        pkcePair().challenge,
        { resource, scope: 'listings:read reservations:read messages:write calendar:write' },
      );
      const context = await browser.newContext({ viewport, bypassCSP: true });
      try {
        const page = await context.newPage();
        const check = async (name: string) => {
          if (await overflows(page))
            expect.fail(`${name} scrolls sideways: ${await reachingPastTheRight(page)}`);
          expect(await seriousAxeViolations(page), name).toEqual([]);
          // Axe leaves focus where it was; a reload starts the keyboard walk from the top.
          await page.reload();
          const walk = await keyboardWalk(page);
          expect(walk.first, name).toBe('Skip to content');
          expect(walk.unreached, name).toEqual([]);
        };
        await page.goto(url);
        await check('OAuth sign-in');
        await page.fill('#email', owner.email);
        await page.fill('#password', owner.password);
        await page.click('button:has-text("Sign in")');
        await page.waitForSelector('h1:has-text("Connect")');
        await check('consent');
      } finally {
        await context.close();
      }
    });
  }

  it('generates an auth token on the settings page and disconnects an app', async () => {
    const owner = await createOwner(world);
    const context = await browser.newContext();
    try {
      const connection = await connect(context, owner, {
        redirectUri: callbacks.redirectUri,
        scopes: ['listings:read', 'calendar:read', 'messages:write'],
        untick: 'calendar:read',
      });
      expect(connection.problems).toEqual([]);
      const token = await exchange(connection);
      expect(token.status).toBe(200);
      const accessToken = String(token.body.access_token);
      const refreshToken = String(token.body.refresh_token);
      expect(await verifier.verify(accessToken)).not.toBeNull();

      const page = await context.newPage();
      const problems = watchForProblems(page);
      // Signing in to connect the app signed this browser in to the account pages too: /login goes on.
      await page.goto(`${origin}/login`);
      expect(page.url()).toBe(`${origin}/settings`);
      expect(await page.textContent('.who')).toBe(owner.email);

      await page.click('button:has-text("Generate auth token")');
      const first = (await page.textContent('.token pre code')) ?? '';
      expect((await world.identity.authenticateAuthToken(first))?.userId).toBe(owner.userId);
      // Replacing the token takes a confirmation first: whatever uses the old one stops working.
      await page.click('a:has-text("Replace the auth token")');
      await page.click('button:has-text("Replace auth token")');
      const second = (await page.textContent('.token pre code')) ?? '';
      expect(second).not.toBe(first);
      expect((await world.identity.authenticateAuthToken(second))?.userId).toBe(owner.userId);
      expect(await world.identity.authenticateAuthToken(first)).toBeNull();

      await page.goto(`${origin}/settings/apps`);
      const row = page.locator('ul.grants > li', { hasText: connection.clientName });
      expect(await row.count()).toBe(1);
      const allowed = (await row.locator('dt:has-text("Allowed to") + dd').textContent()) ?? '';
      expect(allowed).toContain('See your listings and their settings');
      expect(allowed).toContain('Send messages to guests');
      expect(allowed).not.toContain('See availability and nightly prices');

      await row.locator('button:has-text("Disconnect")').click();
      expect(page.url()).toBe(`${origin}/settings/apps?disconnected=1`);
      expect(await page.textContent('.notice')).toContain('The assistant was disconnected');
      expect(await page.locator('ul.grants > li', { hasText: connection.clientName }).count()).toBe(0);
      expect(problems).toEqual([]);

      expect(await verifier.verify(accessToken)).toBeNull();
      const refused = await refresh(origin, connection.clientId, refreshToken);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe('invalid_grant');
    } finally {
      await context.close();
    }
  });

  // Chromium applies a page's form-action to every redirect after the form's post; a policy naming only
  // https and 127.0.0.1/localhost blocked the last hop to a native client and left the person on the page.
  it('sends a native client to its custom-scheme redirect URI without a CSP violation', async () => {
    const owner = await createOwner(world);
    const context = await browser.newContext();
    try {
      const connection = await connect(context, owner, {
        redirectUri: 'cursor://anysphere.cursor-retrieval/oauth/innkeep/callback',
        scopes: ['listings:read', 'reviews:read'],
        untick: 'reviews:read',
      });
      expect(connection.callback.get('state')).toBe(connection.state);
      expect(connection.callback.get('iss')).toBe(origin);
      expect(connection.problems).toEqual([]);
      const token = await exchange(connection);
      expect(token.status).toBe(200);
      expect(token.body.scope).toBe('listings:read');
    } finally {
      await context.close();
    }
  });
});
