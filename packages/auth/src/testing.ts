import { createHash, randomBytes } from 'node:crypto';
import { domainMigrations } from '@innkeep/storage';
import { openTestDatabase, type TestDatabase, type TestDatabaseKind } from '@innkeep/storage/testing';
// Types only: the SDK is a devDependency, and nothing of it runs here.
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { authMigrations } from './postgres/migrations/index.ts';
import { type ResourceName, resourceUrl } from './provider/resource.ts';

export { freePort } from './free-port.ts';
export { RedisServer } from './redis-test-server.ts';

/** A private test database with the domain's and the authorization server's tables. */
export function openAuthTestDatabase(kind: TestDatabaseKind): Promise<TestDatabase> {
  return openTestDatabase(kind, { ...domainMigrations, ...authMigrations });
}

// What follows plays the people and programs of an OAuth flow over real HTTP, for tests of this package and of
// the packages that need real access tokens (/mcp): a browser with cookies, the sign-in and consent forms, the
// registration and token endpoints.

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
  /** The consent page's HTML, as the person saw it; undefined when none was shown. */
  readonly consentPage: string | undefined;
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
  let consentPage: string | undefined;
  let step = await browser.follow(await browser.get(url), url);
  for (let pages = 0; pages < 4; pages += 1) {
    const { response } = step;
    if (response.status >= 300 && response.status < 400) {
      return { redirect: new URL(response.headers.get('location') ?? ''), offered, consentPage };
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
    consentPage = html;
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

/** What {@link obtainAccessToken} needs: where the server is, who signs in, and what to ask for. */
export interface AccessTokenRequest {
  /** The deployment's BASE_URL: authorization requests go there and tokens are bound to `${baseUrl}/mcp`. */
  readonly baseUrl: string;
  /** Where registration and token requests go when that is not `baseUrl` (one instance of several). */
  readonly origin?: string;
  readonly email: string;
  readonly password: string;
  /** Scopes to ask for and leave ticked on the consent page; default: every scope the page offers. */
  readonly scopes?: readonly string[];
  /** Reuse a registered client instead of registering a new one. */
  readonly client?: RegisteredClient;
  /**
   * The resource to ask for, in both requests: default `mcp`; null asks with no resource indicator, as
   * older clients do, for a token valid on every resource.
   */
  readonly resource?: ResourceName | null;
}

/** Tokens as the token endpoint issued them. */
export interface ObtainedTokens {
  readonly client: RegisteredClient;
  readonly accessToken: string;
  readonly refreshToken: string;
  /** The granted scopes, space-separated, as the token response said. */
  readonly scope: string;
  readonly expiresIn: number;
}

/**
 * Gets a real access token the way an MCP client does, over HTTP: registers a public loopback client,
 * sends the person to the authorization endpoint with PKCE S256 and `resource=${baseUrl}/mcp` (see
 * `request.resource`), signs in on
 * the login form, approves the consent form with `scopes` ticked, and exchanges the code (with the same
 * `resource`) at the token endpoint. Throws, with what the server answered, when any step fails.
 */
export async function obtainAccessToken(request: AccessTokenRequest): Promise<ObtainedTokens> {
  const baseUrl = request.baseUrl.replace(/\/+$/, '');
  const origin = request.origin ?? baseUrl;
  const resource = request.resource === null ? undefined : resourceUrl(baseUrl, request.resource ?? 'mcp');
  const client =
    request.client ??
    (await registerClient(origin, {
      client_name: 'Test MCP client',
      redirect_uris: ['http://127.0.0.1:48123/callback'],
      token_endpoint_auth_method: 'none',
    }));
  const redirectUri = client.redirect_uris[0] ?? '';
  const { verifier, challenge } = pkcePair();
  const extra: Record<string, string> = resource === undefined ? {} : { resource };
  if (request.scopes !== undefined) extra.scope = request.scopes.join(' ');
  const outcome = await authorizeInBrowser(
    new Browser(),
    authorizeUrl(baseUrl, { client_id: client.client_id, redirect_uri: redirectUri }, challenge, extra),
    request,
    { decision: 'allow', ...(request.scopes === undefined ? {} : { scopes: request.scopes }) },
  );
  const code = outcome.redirect.searchParams.get('code');
  if (code === null) throw new Error(`the authorization gave no code: ${outcome.redirect.href}`);
  const token = await tokenRequest(origin, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirectUri,
    code_verifier: verifier,
    client_id: client.client_id,
    ...(resource === undefined ? {} : { resource }),
  });
  if (token.status !== 200) {
    throw new Error(`the token exchange failed: ${token.status} ${JSON.stringify(token.body)}`);
  }
  return {
    client,
    accessToken: String(token.body.access_token),
    refreshToken: String(token.body.refresh_token),
    scope: String(token.body.scope),
    expiresIn: Number(token.body.expires_in),
  };
}

/** How an {@link SdkOauthClient} presents itself, and how the person's browser goes about it. */
export interface SdkOauthClientOptions {
  /** The person who signs in when asked and allows everything the consent page offers. */
  readonly person: { readonly email: string; readonly password: string };
  /** The `client_name` it registers with. */
  readonly clientName: string;
  /** Where the authorization server sends the browser back. */
  readonly redirectUrl: string;
  /**
   * The https URL of its Client ID Metadata Document: where the server supports those, the SDK uses it as
   * the client_id instead of registering.
   */
  readonly clientMetadataUrl?: string;
  /** The `state` of every authorization request; without one the SDK sends none. */
  readonly state?: string;
  /**
   * Whether it implements `invalidateCredentials`, with which the SDK drops what the server refused
   * (everything after `invalid_client`, the tokens after `invalid_grant`) and starts over. Default: no.
   */
  readonly invalidatesCredentials?: boolean;
  /**
   * The person's browser for every authorization, so a second one finds them signed in; default: a new
   * browser for each, as if signed out.
   */
  readonly browser?: Browser;
  /**
   * Whether the browser goes on to the redirect URL, as a real one does, for a test that listens there;
   * default: it stops at the redirect, of which {@link SdkOauthClient.callback} reads the code.
   */
  readonly followsRedirect?: boolean;
}

/** One trip through the browser: the authorization URL the SDK handed over, and what came of it. */
export interface SdkAuthorization {
  readonly url: URL;
  readonly outcome: AuthorizationOutcome;
}

/**
 * The MCP SDK client's OAuth side, kept in memory, whose "browser" is a person signing in and answering the
 * consent page over real HTTP. Typed against the v1 SDK (`@modelcontextprotocol/sdk`); the v2 client's
 * provider interface accepts it too. It records every authorization, for tests to check what was asked for
 * and what the consent page showed.
 */
export class SdkOauthClient implements OAuthClientProvider {
  information: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  readonly authorizations: SdkAuthorization[] = [];
  readonly clientMetadataUrl: string | undefined;
  // Set only when the options ask for them: the SDK changes course on whether a provider has them at all.
  readonly state?: () => string;
  readonly invalidateCredentials?: (scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery') => void;
  readonly #options: SdkOauthClientOptions;

  constructor(options: SdkOauthClientOptions) {
    this.#options = options;
    this.clientMetadataUrl = options.clientMetadataUrl;
    const { state } = options;
    if (state !== undefined) this.state = () => state;
    if (options.invalidatesCredentials === true) {
      this.invalidateCredentials = (scope) => {
        if (scope === 'all' || scope === 'tokens') this.saved = undefined;
        if (scope === 'all' || scope === 'client') this.information = undefined;
        if (scope === 'all' || scope === 'verifier') this.verifier = '';
      };
    }
  }

  get redirectUrl(): string {
    return this.#options.redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.#options.clientName,
      redirect_uris: [this.#options.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  /** The redirect back to the client of the latest authorization: its code, state and iss. */
  get callback(): URLSearchParams {
    const latest = this.authorizations.at(-1);
    if (latest === undefined) throw new Error('no authorization happened');
    return latest.outcome.redirect.searchParams;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.information;
  }

  saveClientInformation(information: OAuthClientInformationMixed): void {
    this.information = information;
  }

  tokens(): OAuthTokens | undefined {
    return this.saved;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    return this.verifier;
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const browser = this.#options.browser ?? new Browser();
    const outcome = await authorizeInBrowser(browser, authorizationUrl.href, this.#options.person);
    this.authorizations.push({ url: authorizationUrl, outcome });
    if (this.#options.followsRedirect === true) await browser.get(outcome.redirect.href);
  }
}
