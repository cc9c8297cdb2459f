import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import type { Clock, IdentityUseCases, OperatorUseCases } from '@innkeep/domain';
import { createIdentityUseCases, createOperatorUseCases } from '@innkeep/domain/postgres';
import type { TestDatabaseKind } from '@innkeep/domain/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type {
  AuthDatabase,
  LoginThrottleTable,
  OauthConsentsTable,
  OidcModelTable,
} from '../../src/postgres/database.ts';
import { authorizationServer } from '../../src/provider/authorization-server.ts';
import { generateSigningKey, type SigningKey } from '../../src/provider/signing-keys.ts';
import { openAuthTestDatabase } from '../../src/testing.ts';

/** Cookie keys for the test servers (at least 32 characters each). */
export const oauthSecretKeys = ['oauth-test-key-0123456789abcdefghijklmnop'];

/** One RSA key for every test server of a file: generating one costs ~100 ms. */
let sharedSigningKey: SigningKey | undefined;
export function testSigningKey(): SigningKey {
  sharedSigningKey ??= generateSigningKey();
  return sharedSigningKey;
}

/** A clock that runs with real time, plus whatever the test has added. */
export interface ShiftableClock extends Clock {
  advance(ms: number): void;
}

/**
 * Real time plus an offset. oidc-provider checks expiry against the machine's clock, so the adapter's
 * clock must start at real time; tests move it forward to step past grace windows and lifetimes.
 */
export function createShiftableClock(): ShiftableClock {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    advance(ms) {
      offset += ms;
    },
  };
}

/** A database with the use cases and a clock, shared by the servers of one test file. */
export interface OauthWorld {
  readonly db: Kysely<AuthDatabase>;
  readonly clock: ShiftableClock;
  readonly identity: IdentityUseCases;
  readonly operator: OperatorUseCases;
  /** Set for PostgreSQL. */
  readonly url: string | undefined;
  close(): Promise<void>;
}

/** Opens a private, migrated database of `kind`. */
export async function openOauthWorld(kind: TestDatabaseKind): Promise<OauthWorld> {
  const handle = await openAuthTestDatabase(kind);
  const db: Kysely<AuthDatabase> = handle.db.withTables<{
    oidc_model: OidcModelTable;
    oauth_consents: OauthConsentsTable;
    login_throttle: LoginThrottleTable;
  }>();
  const clock = createShiftableClock();
  return {
    db,
    clock,
    identity: createIdentityUseCases({ db, clock }),
    operator: createOperatorUseCases({ db, clock }),
    url: handle.url,
    close: () => handle.close(),
  };
}

/** A person who can sign in. */
export interface TestUser {
  readonly email: string;
  readonly password: string;
  readonly userId: string;
  readonly accountId: string;
}

let userCounter = 0;

/** Creates an account whose owner signs in with the returned email and password. */
export async function createOwner(world: OauthWorld): Promise<TestUser> {
  userCounter += 1;
  const email = `owner${userCounter}-${randomBytes(3).toString('hex')}@example.test`;
  const password = 'correct horse battery';
  const { accountId, userId } = await world.operator.createOwnerAccount({
    accountName: 'Harbour Stays',
    email,
    password,
    firstName: 'Olivia',
    lastName: 'Owner',
    timeZone: 'Europe/Lisbon',
    currency: 'EUR',
    subscriptionStatus: 'active',
  });
  return { email, password, userId, accountId };
}

/** Adds a team member (manager) to `owner`'s account. */
export async function createSubUser(world: OauthWorld, owner: TestUser): Promise<TestUser> {
  userCounter += 1;
  const email = `manager${userCounter}-${randomBytes(3).toString('hex')}@example.test`;
  const password = 'another fine password';
  const { userId } = await world.operator.addSubUser({
    accountId: owner.accountId,
    email,
    firstName: 'Manny',
    lastName: 'Manager',
    role: 'manager',
    password,
  });
  return { email, password, userId, accountId: owner.accountId };
}

/** A TCP port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return address.port;
}

/** A running authorization server. */
export interface RunningServer {
  readonly app: FastifyInstance;
  /** Where this instance listens, e.g. http://127.0.0.1:40123 */
  readonly origin: string;
  readonly baseUrl: string;
}

/**
 * Builds an app with the authorization server and listens on 127.0.0.1. `baseUrl` defaults to the
 * instance's own address; several instances of one deployment pass the same one.
 */
export async function startServer(
  world: OauthWorld,
  options: {
    baseUrl?: string;
    port?: number;
    refreshTokenGraceSeconds?: number;
    registrationRateLimit?: { max: number; timeWindowMs: number };
    redis?: Redis;
  } = {},
): Promise<RunningServer> {
  const port = options.port ?? (await freePort());
  const origin = `http://127.0.0.1:${port}`;
  const baseUrl = options.baseUrl ?? origin;
  const app = await buildServerApp(world, { ...options, baseUrl });
  await app.listen({ port, host: '127.0.0.1' });
  return { app, origin, baseUrl };
}

/** The app of {@link startServer}, not listening (for `inject`). */
export async function buildServerApp(
  world: OauthWorld,
  options: {
    baseUrl: string;
    refreshTokenGraceSeconds?: number;
    registrationRateLimit?: { max: number; timeWindowMs: number };
    redis?: Redis;
  },
): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  await app.register(authorizationServer, {
    db: world.db,
    baseUrl: options.baseUrl,
    secretKeys: oauthSecretKeys,
    signingKeys: [testSigningKey()],
    identity: world.identity,
    clock: world.clock,
    ...(options.refreshTokenGraceSeconds === undefined
      ? {}
      : { refreshTokenGraceSeconds: options.refreshTokenGraceSeconds }),
    // Every test registers its own clients from 127.0.0.1; the limit itself is tested on its own.
    registrationRateLimit: options.registrationRateLimit ?? { max: 10_000, timeWindowMs: 60_000 },
    redis: options.redis,
  });
  return app;
}

/** A registered client, as the registration endpoint answered. */
export interface RegisteredClient {
  readonly client_id: string;
  readonly client_secret?: string;
  readonly redirect_uris: string[];
  readonly token_endpoint_auth_method: string;
  readonly [field: string]: unknown;
}

/** Registers a client and fails the test unless the server answers 201. */
export async function registerClient(
  origin: string,
  metadata: Record<string, unknown>,
): Promise<RegisteredClient> {
  const response = await fetch(`${origin}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(metadata),
  });
  const body = await response.json();
  if (response.status !== 201)
    throw new Error(`registration failed: ${response.status} ${JSON.stringify(body)}`);
  return body as RegisteredClient;
}

/** A PKCE verifier and its S256 challenge. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The query of an authorization request for `client`, with PKCE S256 and a state. */
export function authorizeUrl(
  baseUrl: string,
  client: { client_id: string; redirect_uri: string },
  challenge: string,
  extra: Record<string, string> = {},
): string {
  const params = new URLSearchParams({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: client.redirect_uri,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'st-123',
    ...extra,
  });
  return `${baseUrl}/oauth/authorize?${params.toString()}`;
}

interface StoredCookie {
  readonly value: string;
  readonly path: string;
}

/**
 * Just enough of a browser's cookie store for these flows: one host, paths honoured (oidc-provider scopes
 * its interaction cookies to paths), deletions by expiry or Max-Age=0.
 */
export class CookieJar {
  readonly #cookies = new Map<string, StoredCookie>();

  store(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = header.split(';').map((part) => part.trim());
      const separator = pair.indexOf('=');
      const name = pair.slice(0, separator);
      const value = pair.slice(separator + 1);
      let path = '/';
      let expired = value === '';
      for (const attribute of attributes) {
        const [key = '', attributeValue = ''] = attribute.split('=');
        if (key.toLowerCase() === 'path') path = attributeValue;
        if (key.toLowerCase() === 'max-age' && Number(attributeValue) <= 0) expired = true;
        if (key.toLowerCase() === 'expires' && new Date(attributeValue).getTime() < Date.now())
          expired = true;
      }
      const key = `${name};${path}`;
      if (expired) this.#cookies.delete(key);
      else this.#cookies.set(key, { value, path });
    }
  }

  headerFor(url: string): string {
    const path = new URL(url).pathname;
    return [...this.#cookies.entries()]
      .filter(
        ([, cookie]) =>
          path === cookie.path ||
          path.startsWith(cookie.path.endsWith('/') ? cookie.path : `${cookie.path}/`),
      )
      .map(([key, cookie]) => `${key.slice(0, key.indexOf(';'))}=${cookie.value}`)
      .join('; ');
  }
}

/** A person at a browser: follows nothing by itself, keeps cookies, and can submit forms. */
export class Browser {
  readonly jar = new CookieJar();

  async get(url: string): Promise<Response> {
    return this.#send(url, { method: 'GET' });
  }

  async post(url: string, form: URLSearchParams, origin = new URL(url).origin): Promise<Response> {
    return this.#send(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
      body: form.toString(),
    });
  }

  /**
   * Follows redirects from `url` while they stay on `origin`, and returns the last response: a page, or
   * the redirect that leaves for somewhere else (e.g. the client's redirect_uri).
   */
  async follow(response: Response, from: string): Promise<{ response: Response; url: string }> {
    let current = response;
    let url = from;
    while (current.status >= 300 && current.status < 400) {
      const next = new URL(current.headers.get('location') ?? '', url).href;
      if (new URL(next).origin !== new URL(url).origin) return { response: current, url };
      url = next;
      current = await this.get(url);
    }
    return { response: current, url };
  }

  async #send(url: string, init: RequestInit): Promise<Response> {
    const cookie = this.jar.headerFor(url);
    const headers = new Headers(init.headers);
    if (cookie !== '') headers.set('cookie', cookie);
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    this.jar.store(response);
    return response;
  }
}

/** The form fields of a page: the CSRF token and the form's action. */
export function formOf(html: string): { action: string; csrf: string } {
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
  const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
  if (action === undefined || csrf === undefined) throw new Error(`no form on the page:\n${html}`);
  return { action: action.replaceAll('&amp;', '&'), csrf };
}

/** The scopes offered with a checkbox on a consent page. */
export function offeredScopes(html: string): string[] {
  return [...html.matchAll(/name="scope" value="([^"]+)"/g)].map((match) => match[1] ?? '');
}

/** Where a consent decision goes: Allow posts to the form action, Deny to the button's formaction. */
export function denyActionOf(html: string): string {
  const action = /formaction="([^"]+)"/.exec(html)?.[1];
  if (action === undefined) throw new Error('no Deny button');
  return action;
}

/** How the person answers the consent page. */
export interface ConsentChoice {
  readonly decision: 'allow' | 'deny';
  /** Scopes left ticked; default: all offered. */
  readonly scopes?: readonly string[];
  readonly remember?: boolean;
}

/** What came of an authorization in the browser. */
export interface AuthorizationOutcome {
  /** The redirect to the client's redirect_uri, parsed. */
  readonly redirect: URL;
  /** Scopes that were offered on the consent page; undefined when no consent page was shown. */
  readonly offered: string[] | undefined;
}

/**
 * Plays the person: opens the authorization URL, signs in if asked, answers the consent page if shown, and
 * returns the redirect to the client. `instances` lets each step go to a different server of one deployment.
 */
export async function authorizeInBrowser(
  browser: Browser,
  url: string,
  user: { email: string; password: string },
  consent: ConsentChoice = { decision: 'allow' },
  instances: { login?: string; consent?: string } = {},
): Promise<AuthorizationOutcome> {
  let offered: string[] | undefined;
  let step = await browser.follow(await browser.get(url), url);
  for (let pages = 0; pages < 4; pages += 1) {
    const { response } = step;
    if (response.status >= 300 && response.status < 400) {
      return { redirect: new URL(response.headers.get('location') ?? ''), offered };
    }
    const html = await response.text();
    if (response.status !== 200)
      throw new Error(`unexpected page ${response.status} at ${step.url}:\n${html}`);
    const { action, csrf } = formOf(html);
    if (action.endsWith('/login')) {
      const target = new URL(action, instances.login ?? step.url).href;
      const form = new URLSearchParams({ csrf, email: user.email, password: user.password });
      step = await browser.follow(await browser.post(target, form), target);
      continue;
    }
    offered = offeredScopes(html);
    const base = instances.consent ?? step.url;
    const target = new URL(consent.decision === 'allow' ? action : denyActionOf(html), base).href;
    const form = new URLSearchParams({ csrf });
    for (const scope of consent.scopes ?? offered) form.append('scope', scope);
    if (consent.remember === true) form.set('remember', 'yes');
    step = await browser.follow(await browser.post(target, form), target);
  }
  throw new Error('the authorization did not finish within four pages');
}

/** Token endpoint call with a form body; returns status and parsed JSON. */
export async function tokenRequest(
  origin: string,
  params: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const response = await fetch(`${origin}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(params).toString(),
  });
  return {
    status: response.status,
    body: (await response.json()) as Record<string, unknown>,
    headers: response.headers,
  };
}

/** A finished authorization: the client, its redirect URI, the code and the PKCE verifier. */
export interface AuthorizedCode {
  readonly client: RegisteredClient;
  readonly redirectUri: string;
  readonly code: string;
  readonly verifier: string;
  readonly browser: Browser;
}

/**
 * Registers a public loopback client (unless one is given), signs `user` in and approves the consent
 * page, and returns the authorization code. `extra` adds or overrides authorization parameters.
 */
export async function authorizedCode(
  server: RunningServer,
  user: { email: string; password: string },
  options: {
    client?: RegisteredClient;
    extra?: Record<string, string>;
    consent?: ConsentChoice;
    browser?: Browser;
  } = {},
): Promise<AuthorizedCode> {
  const client =
    options.client ??
    (await registerClient(server.origin, {
      client_name: 'Test assistant',
      redirect_uris: ['http://127.0.0.1:48123/callback'],
    }));
  const redirectUri = client.redirect_uris[0] ?? '';
  const { verifier, challenge } = pkcePair();
  const browser = options.browser ?? new Browser();
  const outcome = await authorizeInBrowser(
    browser,
    authorizeUrl(
      server.baseUrl,
      { client_id: client.client_id, redirect_uri: redirectUri },
      challenge,
      options.extra,
    ),
    user,
    options.consent,
  );
  const code = outcome.redirect.searchParams.get('code');
  if (code === null) throw new Error(`no code in ${outcome.redirect.href}`);
  return { client, redirectUri, code, verifier, browser };
}

/** Tokens of a finished authorization code exchange. */
export interface IssuedTokens {
  readonly client: RegisteredClient;
  readonly accessToken: string;
  readonly refreshToken: string;
  readonly scope: string;
}

/** {@link authorizedCode}, then the token exchange; fails the test unless it answers 200. */
export async function issueTokens(
  server: RunningServer,
  user: { email: string; password: string },
  options: Parameters<typeof authorizedCode>[2] = {},
): Promise<IssuedTokens> {
  const { client, redirectUri, code, verifier } = await authorizedCode(server, user, options);
  const token = await tokenRequest(server.origin, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirectUri,
    code_verifier: verifier,
    client_id: client.client_id,
  });
  if (token.status !== 200) throw new Error(`token exchange failed: ${JSON.stringify(token.body)}`);
  return {
    client,
    accessToken: String(token.body.access_token),
    refreshToken: String(token.body.refresh_token),
    scope: String(token.body.scope),
  };
}

/** A refresh-token grant for a public client. */
export function refresh(origin: string, clientId: string, refreshToken: string) {
  return tokenRequest(origin, {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: clientId,
  });
}
