import { allScopes } from '@innkeep/domain';
import { testDatabaseKinds } from '@innkeep/storage/testing';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AccessTokenVerifier,
  createAccessTokenVerifier,
} from '../src/resource-server/access-token-verifier.ts';
import {
  authorizedCode,
  authorizeInBrowser,
  authorizeUrl,
  Browser,
  createOwner,
  issueTokens,
  type OauthWorld,
  openOauthWorld,
  pkcePair,
  type RunningServer,
  refresh,
  registerClient,
  startServer,
  type TestUser,
  testSigningKey,
  tokenRequest,
} from './support/oauth-harness.ts';

const graceSeconds = 60;

describe.each(testDatabaseKinds)('token endpoint refusals on %s', (kind) => {
  let world: OauthWorld;
  let server: RunningServer;
  let owner: TestUser;
  let verifier: AccessTokenVerifier;

  beforeAll(async () => {
    world = await openOauthWorld(kind);
    server = await startServer(world);
    owner = await createOwner(world);
    verifier = createAccessTokenVerifier({
      db: world.db,
      resource: `${server.baseUrl}/mcp`,
      clock: world.clock,
    });
  }, 180_000);

  afterAll(async () => {
    await server?.app.close();
    await world?.close();
  });

  function exchange(
    authorized: Awaited<ReturnType<typeof authorizedCode>>,
    overrides: Record<string, string> = {},
  ) {
    return tokenRequest(server.origin, {
      grant_type: 'authorization_code',
      code: authorized.code,
      redirect_uri: authorized.redirectUri,
      code_verifier: authorized.verifier,
      client_id: authorized.client.client_id,
      ...overrides,
    });
  }

  /** Opens an authorization URL and returns where the browser is sent, without signing in. */
  async function firstRedirect(
    url: string,
  ): Promise<{ status: number; location: URL | null; body: string; headers: Headers }> {
    const response = await new Browser().get(url);
    const location = response.headers.get('location');
    return {
      status: response.status,
      location: location === null ? null : new URL(location, url),
      body: await response.text(),
      headers: response.headers,
    };
  }

  it('refuses a wrong code_verifier with invalid_grant', async () => {
    const authorized = await authorizedCode(server, owner);
    const response = await exchange(authorized, { code_verifier: pkcePair().verifier });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('invalid_grant');
  });

  it('refuses a token request without code_verifier with invalid_grant', async () => {
    const authorized = await authorizedCode(server, owner);
    const { code_verifier: _omitted, ...rest } = {
      grant_type: 'authorization_code',
      code: authorized.code,
      redirect_uri: authorized.redirectUri,
      code_verifier: authorized.verifier,
      client_id: authorized.client.client_id,
    };
    const response = await tokenRequest(server.origin, rest);
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('invalid_grant');
  });

  it('sends invalid_request to the client for the plain PKCE method and for a missing challenge', async () => {
    const client = await registerClient(server.origin, {
      redirect_uris: ['http://127.0.0.1:48123/callback'],
    });
    const target = { client_id: client.client_id, redirect_uri: 'http://127.0.0.1:48123/callback' };
    const plain = await firstRedirect(
      authorizeUrl(server.baseUrl, target, 'a'.repeat(43), { code_challenge_method: 'plain' }),
    );
    expect(plain.status).toBe(303);
    expect(plain.location?.origin).toBe('http://127.0.0.1:48123');
    expect(plain.location?.searchParams.get('error')).toBe('invalid_request');
    expect(plain.location?.searchParams.get('error_description')).toContain('code_challenge_method');

    const url = new URL(authorizeUrl(server.baseUrl, target, 'unused'));
    url.searchParams.delete('code_challenge');
    url.searchParams.delete('code_challenge_method');
    const missing = await firstRedirect(url.href);
    expect(missing.location?.searchParams.get('error')).toBe('invalid_request');
    expect(missing.location?.searchParams.get('error_description')).toContain('PKCE');
  });

  it('refuses a reused code with invalid_grant and revokes what the first use issued', async () => {
    const authorized = await authorizedCode(server, owner);
    const first = await exchange(authorized);
    expect(first.status).toBe(200);
    expect(await verifier.verify(String(first.body.access_token))).not.toBeNull();

    const second = await exchange(authorized);
    expect(second.status).toBe(400);
    expect(second.body.error).toBe('invalid_grant');
    expect(await verifier.verify(String(first.body.access_token))).toBeNull();
    const refreshed = await refresh(
      server.origin,
      authorized.client.client_id,
      String(first.body.refresh_token),
    );
    expect(refreshed.body.error).toBe('invalid_grant');
  });

  it('shows an error page, not a redirect, for an unregistered redirect_uri', async () => {
    const client = await registerClient(server.origin, {
      redirect_uris: ['http://127.0.0.1:48123/callback'],
    });
    const { challenge } = pkcePair();
    const response = await firstRedirect(
      authorizeUrl(
        server.baseUrl,
        { client_id: client.client_id, redirect_uri: 'https://attacker.example/cb' },
        challenge,
      ),
    );
    expect(response.status).toBe(400);
    expect(response.location).toBeNull();
    expect(response.body).toContain('invalid_redirect_uri');
    expect(response.body).toContain('This connection cannot continue');
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(response.headers.get('x-frame-options')).toBe('DENY');
  });

  it('refuses a code redeemed with another of the client’s redirect URIs with invalid_grant', async () => {
    const client = await registerClient(server.origin, {
      redirect_uris: ['http://127.0.0.1:48123/callback', 'http://127.0.0.1:48123/other'],
    });
    const authorized = await authorizedCode(server, owner, { client });
    const response = await exchange(authorized, { redirect_uri: 'http://127.0.0.1:48123/other' });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('invalid_grant');
  });

  it('drops unknown scopes next to known ones, and answers invalid_scope when none is known', async () => {
    const tokens = await issueTokens(server, owner, { extra: { scope: 'listings:read bogus:scope' } });
    expect(tokens.scope).toBe('listings:read');
    expect((await verifier.verify(tokens.accessToken))?.scopes).toEqual(['listings:read']);

    const client = await registerClient(server.origin, {
      redirect_uris: ['http://127.0.0.1:48123/callback'],
    });
    const { challenge } = pkcePair();
    const onlyUnknown = await firstRedirect(
      authorizeUrl(
        server.baseUrl,
        { client_id: client.client_id, redirect_uri: client.redirect_uris[0] ?? '' },
        challenge,
        {
          scope: 'bogus:scope',
        },
      ),
    );
    expect(onlyUnknown.status).toBe(303);
    expect(onlyUnknown.location?.searchParams.get('error')).toBe('invalid_scope');
    expect(onlyUnknown.location?.searchParams.get('error_description')).toContain('listings:read');
  });

  it('asks for every scope when only openid and offline_access are requested, with an ID token', async () => {
    const authorized = await authorizedCode(server, owner, { extra: { scope: 'openid offline_access' } });
    const response = await exchange(authorized);
    expect(response.status).toBe(200);
    expect(String(response.body.scope).split(' ').sort()).toEqual([...allScopes].sort());
    // The ID token is signed with the configured key and names the user as subject.
    const jwks = createRemoteJWKSet(new URL(`${server.origin}/oauth/jwks`));
    const { payload, protectedHeader } = await jwtVerify(String(response.body.id_token), jwks, {
      issuer: server.baseUrl,
      audience: authorized.client.client_id,
    });
    expect(protectedHeader).toMatchObject({ alg: 'RS256', kid: testSigningKey().kid });
    expect(payload.sub).toBe(owner.userId);
  });

  it('sends invalid_target for a foreign resource, at the authorization and the token endpoint', async () => {
    const client = await registerClient(server.origin, {
      redirect_uris: ['http://127.0.0.1:48123/callback'],
    });
    const { challenge } = pkcePair();
    const atAuthorize = await firstRedirect(
      authorizeUrl(
        server.baseUrl,
        { client_id: client.client_id, redirect_uri: client.redirect_uris[0] ?? '' },
        challenge,
        {
          resource: 'https://evil.example/mcp',
        },
      ),
    );
    expect(atAuthorize.location?.searchParams.get('error')).toBe('invalid_target');

    const authorized = await authorizedCode(server, owner);
    const atToken = await exchange(authorized, { resource: 'https://evil.example/mcp' });
    expect(atToken.status).toBe(400);
    expect(atToken.body.error).toBe('invalid_target');
  });

  it('leaves the code usable, and the grant’s tokens alive, after an exchange with a wrong resource', async () => {
    const client = await registerClient(server.origin, {
      redirect_uris: ['https://assistant.example.com/callback'],
    });
    // A remembered consent: every authorization of this client continues the one grant.
    const earlier = await issueTokens(server, owner, {
      client,
      consent: { decision: 'allow', remember: true },
    });
    const authorized = await authorizedCode(server, owner, { client });

    const wrong = await exchange(authorized, { resource: 'https://evil.example/mcp' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('invalid_target');
    const retry = await exchange(authorized, { resource: `${server.baseUrl}/mcp` });
    expect(retry.status).toBe(200);
    expect(await verifier.verify(String(retry.body.access_token))).not.toBeNull();
    expect(await verifier.verify(earlier.accessToken)).not.toBeNull();
    expect((await refresh(server.origin, client.client_id, earlier.refreshToken)).status).toBe(200);
  });

  it('treats …/mcp/ and …/mcp as one resource, whichever side carries the slash', async () => {
    const slashFirst = await authorizedCode(server, owner, { extra: { resource: `${server.baseUrl}/mcp/` } });
    const plainAtToken = await exchange(slashFirst, { resource: `${server.baseUrl}/mcp` });
    expect(plainAtToken.status).toBe(200);

    const plainFirst = await authorizedCode(server, owner, { extra: { resource: `${server.baseUrl}/mcp` } });
    const slashAtToken = await exchange(plainFirst, { resource: `${server.baseUrl}/mcp/` });
    expect(slashAtToken.status).toBe(200);
    expect(await verifier.verify(String(slashAtToken.body.access_token))).not.toBeNull();
  });

  it('binds tokens to /mcp when the client names no resource anywhere', async () => {
    const authorized = await authorizedCode(server, owner);
    const response = await exchange(authorized);
    expect(response.status).toBe(200);
    expect(await verifier.verify(String(response.body.access_token))).not.toBeNull();
    const elsewhere = createAccessTokenVerifier({ db: world.db, resource: 'https://other.example/mcp' });
    expect(await elsewhere.verify(String(response.body.access_token))).toBeNull();
  });

  it('rotates refresh tokens, honours the old one for the grace window, then revokes the grant on reuse', async () => {
    const tokens = await issueTokens(server, owner);
    const rotated = await refresh(server.origin, tokens.client.client_id, tokens.refreshToken);
    expect(rotated.status).toBe(200);
    expect(rotated.headers.get('cache-control')).toBe('no-store');
    const newRefreshToken = String(rotated.body.refresh_token);
    expect(newRefreshToken).not.toBe(tokens.refreshToken);

    // A client that lost the response retries with the old token: still fine inside the window.
    world.clock.advance((graceSeconds - 5) * 1000);
    const retried = await refresh(server.origin, tokens.client.client_id, tokens.refreshToken);
    expect(retried.status).toBe(200);

    world.clock.advance(10 * 1000);
    const reused = await refresh(server.origin, tokens.client.client_id, tokens.refreshToken);
    expect(reused.status).toBe(400);
    expect(reused.body.error).toBe('invalid_grant');
    // Reuse after the window looks like theft: every token of the grant is gone.
    const afterTheft = await refresh(server.origin, tokens.client.client_id, newRefreshToken);
    expect(afterTheft.body.error).toBe('invalid_grant');
    expect(await verifier.verify(String(rotated.body.access_token))).toBeNull();
    expect(await verifier.verify(String(retried.body.access_token))).toBeNull();
  });

  it('refuses a refresh token presented by another client with invalid_grant', async () => {
    const tokens = await issueTokens(server, owner);
    const other = await registerClient(server.origin, { redirect_uris: ['http://127.0.0.1:48124/callback'] });
    const response = await refresh(server.origin, other.client_id, tokens.refreshToken);
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('invalid_grant');
  });

  it('revokes an access token (RFC 7009) with the other tokens of its grant, keeping the grant', async () => {
    const tokens = await issueTokens(server, owner);
    const response = await fetch(`${server.origin}/oauth/token/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: tokens.accessToken, client_id: tokens.client.client_id }).toString(),
    });
    expect(response.status).toBe(200);
    expect(await verifier.verify(tokens.accessToken)).toBeNull();
    // oidc-provider revokes every token of the grant, so a client "signing out" leaves nothing usable…
    const refreshed = await refresh(server.origin, tokens.client.client_id, tokens.refreshToken);
    expect(refreshed.body.error).toBe('invalid_grant');
    // …but the grant (the connected app and its consent) stays, as revoking an access token is no disconnect.
    const grants = await world.db
      .selectFrom('oidc_model')
      .select('id')
      .where('model', '=', 'Grant')
      .where('client_id', '=', tokens.client.client_id)
      .execute();
    expect(grants).toHaveLength(1);
  });

  it('revokes the whole grant when the refresh token is revoked', async () => {
    const tokens = await issueTokens(server, owner);
    const response = await fetch(`${server.origin}/oauth/token/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        token: tokens.refreshToken,
        token_type_hint: 'refresh_token',
        client_id: tokens.client.client_id,
      }).toString(),
    });
    expect(response.status).toBe(200);
    expect(await verifier.verify(tokens.accessToken)).toBeNull();
    expect((await refresh(server.origin, tokens.client.client_id, tokens.refreshToken)).body.error).toBe(
      'invalid_grant',
    );
  });

  it('answers a browser client’s token preflight with CORS, and refuses a foreign origin for a confidential client', async () => {
    const preflight = await fetch(`${server.origin}/oauth/token`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:6274',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:6274');

    const confidential = await registerClient(server.origin, {
      redirect_uris: ['https://app.example.com/callback'],
      token_endpoint_auth_method: 'client_secret_post',
    });
    const response = await tokenRequest(
      server.origin,
      {
        grant_type: 'refresh_token',
        refresh_token: 'whatever',
        client_id: confidential.client_id,
        client_secret: String(confidential.client_secret),
      },
      { origin: 'https://evil.example' },
    );
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('invalid_request');
    expect(String(response.body.error_description)).toContain('not allowed');
  });

  it('lets a confidential client redeem its code with client_secret_post', async () => {
    const client = await registerClient(server.origin, {
      client_name: 'Hosted assistant',
      redirect_uris: ['https://assistant.example.com/oauth/callback'],
      token_endpoint_auth_method: 'client_secret_post',
    });
    const redirectUri = 'https://assistant.example.com/oauth/callback';
    const { verifier: codeVerifier, challenge } = pkcePair();
    const outcome = await authorizeInBrowser(
      new Browser(),
      authorizeUrl(server.baseUrl, { client_id: client.client_id, redirect_uri: redirectUri }, challenge),
      owner,
    );
    const code = outcome.redirect.searchParams.get('code') ?? '';
    const withoutSecret = await tokenRequest(server.origin, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      code_verifier: codeVerifier,
      client_id: client.client_id,
    });
    expect(withoutSecret.body.error).toBe('invalid_client');
    const response = await tokenRequest(server.origin, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      code_verifier: codeVerifier,
      client_id: client.client_id,
      client_secret: String(client.client_secret),
    });
    expect(response.status).toBe(200);
  });
});
