import { allScopes } from '@innkeep/domain';
import { testDatabaseKinds } from '@innkeep/storage/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccessTokenVerifier } from '../src/resource-server/access-token-verifier.ts';
import {
  authorizeInBrowser,
  authorizeUrl,
  Browser,
  createOwner,
  type OauthWorld,
  openOauthWorld,
  pkcePair,
  type RunningServer,
  registerClient,
  startServer,
  type TestUser,
  tokenRequest,
} from './support/oauth-harness.ts';

describe.each(testDatabaseKinds)('authorization code flow on %s', (kind) => {
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

  it('issues a 1-hour opaque token for /mcp with every scope and a refresh token', async () => {
    const redirectUri = 'http://127.0.0.1:48123/callback';
    const client = await registerClient(server.origin, {
      client_name: 'Flow test',
      redirect_uris: [redirectUri],
    });
    const { verifier, challenge } = pkcePair();
    const browser = new Browser();
    const outcome = await authorizeInBrowser(
      browser,
      authorizeUrl(server.baseUrl, { client_id: client.client_id, redirect_uri: redirectUri }, challenge),
      owner,
    );
    expect([...(outcome.offered ?? [])].sort()).toEqual([...allScopes].sort());
    expect(`${outcome.redirect.origin}${outcome.redirect.pathname}`).toBe(redirectUri);
    expect(outcome.redirect.searchParams.get('state')).toBe('st-123');
    expect(outcome.redirect.searchParams.get('iss')).toBe(server.baseUrl);
    const code = outcome.redirect.searchParams.get('code');
    expect(code).toBeTruthy();

    const token = await tokenRequest(server.origin, {
      grant_type: 'authorization_code',
      code: code ?? '',
      redirect_uri: redirectUri,
      code_verifier: verifier,
      client_id: client.client_id,
      resource: `${server.baseUrl}/mcp`,
    });
    expect(token.status).toBe(200);
    expect(token.headers.get('cache-control')).toBe('no-store');
    expect(token.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(String(token.body.scope).split(' ').sort()).toEqual([...allScopes].sort());
    expect(typeof token.body.refresh_token).toBe('string');
    expect(typeof token.body.access_token).toBe('string');

    const verified = await createAccessTokenVerifier({
      db: world.db,
      resource: `${server.baseUrl}/mcp`,
      clock: world.clock,
    }).verify(String(token.body.access_token));
    expect(verified).toMatchObject({
      accountId: owner.accountId,
      userId: owner.userId,
      role: 'owner',
      subscriptionStatus: 'active',
      inGoodStanding: true,
      clientId: client.client_id,
    });
    expect([...(verified?.scopes ?? [])].sort()).toEqual([...allScopes].sort());
  });
});
