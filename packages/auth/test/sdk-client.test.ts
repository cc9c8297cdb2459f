import { createServer, type Server } from 'node:http';
import { allScopes } from '@innkeep/domain';
import { testDatabaseKinds } from '@innkeep/storage/testing';
import { auth, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AccessTokenVerifier,
  createAccessTokenVerifier,
} from '../src/resource-server/access-token-verifier.ts';
import {
  authorizeInBrowser,
  Browser,
  createOwner,
  freePort,
  type OauthWorld,
  openOauthWorld,
  type RunningServer,
  refresh,
  startServer,
  type TestUser,
} from './support/oauth-harness.ts';

/** A desktop MCP client's loopback listener: receives the browser's redirect after consent. */
async function startCallbackListener(): Promise<{
  server: Server;
  redirectUrl: string;
  next(): Promise<URL>;
}> {
  const port = await freePort();
  const waiting: ((url: URL) => void)[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', `http://127.0.0.1:${port}`);
    response.writeHead(200, { 'content-type': 'text/plain' }).end('You can close this window.');
    waiting.shift()?.(url);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    server,
    redirectUrl: `http://127.0.0.1:${port}/callback`,
    next: () => new Promise<URL>((resolve) => waiting.push(resolve)),
  };
}

/**
 * The MCP SDK's client side, kept in memory, whose "browser" is a person signing in and approving
 * the consent page over HTTP, then landing on the client's loopback listener.
 */
class TestOauthClient implements OAuthClientProvider {
  information: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;
  callback: URL | undefined;
  readonly #redirectUrl: string;
  readonly #user: TestUser;
  readonly #listener: { next(): Promise<URL> };

  constructor(redirectUrl: string, user: TestUser, listener: { next(): Promise<URL> }) {
    this.#redirectUrl = redirectUrl;
    this.#user = user;
    this.#listener = listener;
  }

  get redirectUrl(): string {
    return this.#redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'SDK end-to-end',
      redirect_uris: [this.#redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  state(): string {
    return 'sdk-state-1';
  }

  clientInformation() {
    return this.information;
  }

  saveClientInformation(information: OAuthClientInformationMixed): void {
    this.information = information;
  }

  tokens() {
    return this.saved;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'tokens') this.saved = undefined;
    if (scope === 'all' || scope === 'client') this.information = undefined;
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    return this.verifier;
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    this.authorizationUrl = authorizationUrl;
    const browser = new Browser();
    const outcome = await authorizeInBrowser(browser, authorizationUrl.href, this.#user);
    const arrived = this.#listener.next();
    await browser.get(outcome.redirect.href);
    this.callback = await arrived;
  }
}

describe.each(testDatabaseKinds)('the MCP SDK client against the authorization server on %s', (kind) => {
  let world: OauthWorld;
  let server: RunningServer;
  let owner: TestUser;
  let verifier: AccessTokenVerifier;
  let listener: Awaited<ReturnType<typeof startCallbackListener>>;

  beforeAll(async () => {
    world = await openOauthWorld(kind);
    server = await startServer(world, { resourceServers: ['mcp'] });
    owner = await createOwner(world);
    verifier = createAccessTokenVerifier({
      db: world.db,
      resource: `${server.baseUrl}/mcp`,
      clock: world.clock,
    });
    listener = await startCallbackListener();
  }, 180_000);

  afterAll(async () => {
    listener?.server.close();
    await server?.app.close();
    await world?.close();
  });

  it('discovers, registers, authorizes, exchanges, refreshes with rotation, and revokes', async () => {
    const client = new TestOauthClient(listener.redirectUrl, owner, listener);
    const serverUrl = `${server.baseUrl}/mcp`;

    // Discovery → dynamic registration → authorization in the browser → back on the loopback listener.
    expect(await auth(client, { serverUrl })).toBe('REDIRECT');
    expect(client.information?.client_id).toEqual(expect.any(String));
    expect(client.information).not.toHaveProperty('client_secret');
    const request = client.authorizationUrl?.searchParams;
    expect(request?.get('code_challenge_method')).toBe('S256');
    expect(request?.get('resource')).toBe(serverUrl);
    expect(request?.get('scope')).toBe(allScopes.join(' '));
    expect(client.callback?.searchParams.get('state')).toBe('sdk-state-1');
    expect(client.callback?.searchParams.get('iss')).toBe(server.baseUrl);
    const code = client.callback?.searchParams.get('code') ?? '';
    expect(code).not.toBe('');

    // Code → tokens.
    expect(await auth(client, { serverUrl, authorizationCode: code })).toBe('AUTHORIZED');
    const first = client.saved;
    expect(first).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect((await verifier.verify(first?.access_token ?? ''))?.userId).toBe(owner.userId);

    // With a refresh token stored, auth() refreshes; the refresh token rotates.
    expect(await auth(client, { serverUrl })).toBe('AUTHORIZED');
    const second = client.saved;
    expect(second?.refresh_token).toBeDefined();
    expect(second?.refresh_token).not.toBe(first?.refresh_token);
    expect(second?.access_token).not.toBe(first?.access_token);
    expect(await verifier.verify(second?.access_token ?? '')).not.toBeNull();

    // The old refresh token still works inside the grace window (a retried or parallel refresh)…
    const clientId = client.information?.client_id ?? '';
    const retried = await refresh(server.origin, clientId, first?.refresh_token ?? '');
    expect(retried.status).toBe(200);

    // …and is refused after it, which revokes the grant: every token of it stops working.
    world.clock.advance(61 * 1000);
    const late = await refresh(server.origin, clientId, first?.refresh_token ?? '');
    expect(late.status).toBe(400);
    expect(late.body.error).toBe('invalid_grant');
    expect(await verifier.verify(second?.access_token ?? '')).toBeNull();
    expect(await verifier.verify(String(retried.body.access_token))).toBeNull();

    // The SDK notices its refresh token is dead and starts over, keeping its registration.
    expect(await auth(client, { serverUrl })).toBe('REDIRECT');
    expect(client.information?.client_id).toBe(clientId);
    const again = client.callback?.searchParams.get('code') ?? '';
    expect(await auth(client, { serverUrl, authorizationCode: again })).toBe('AUTHORIZED');
    const third = client.saved;
    expect(await verifier.verify(third?.access_token ?? '')).not.toBeNull();

    // Revocation (RFC 7009): the verifier refuses the token at once.
    const revoked = await fetch(`${server.origin}/oauth/token/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: third?.access_token ?? '', client_id: clientId }).toString(),
    });
    expect(revoked.status).toBe(200);
    expect(await verifier.verify(third?.access_token ?? '')).toBeNull();
  });
});
