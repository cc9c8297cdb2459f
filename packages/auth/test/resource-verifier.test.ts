import { testDatabaseKinds } from '@innkeep/storage/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenDigest } from '../src/postgres/token-hash.ts';
import {
  type AccessTokenVerifier,
  createAccessTokenVerifier,
} from '../src/resource-server/access-token-verifier.ts';
import {
  createOwner,
  createSubUser,
  issueTokens,
  type OauthWorld,
  openOauthWorld,
  type RunningServer,
  startServer,
  type TestUser,
} from './support/oauth-harness.ts';

const hourMs = 3600 * 1000;

describe.each(testDatabaseKinds)('access token verifier on %s', (kind) => {
  let world: OauthWorld;
  let server: RunningServer;
  let owner: TestUser;
  let verifier: AccessTokenVerifier;
  let resource: string;

  beforeAll(async () => {
    world = await openOauthWorld(kind);
    server = await startServer(world);
    owner = await createOwner(world);
    resource = `${server.baseUrl}/mcp`;
    verifier = createAccessTokenVerifier({ db: world.db, resource, clock: world.clock });
  }, 180_000);

  afterAll(async () => {
    await server?.app.close();
    await world?.close();
  });

  async function grantRow(grantId: string) {
    return world.db
      .selectFrom('oidc_model')
      .select(['last_used_at', 'account_id', 'client_id'])
      .where('model', '=', 'Grant')
      .where('id', '=', grantId)
      .executeTakeFirst();
  }

  it('returns the account, user, role, subscription, scopes, client, grant and expiry', async () => {
    const before = world.clock.now().getTime();
    const tokens = await issueTokens(server, owner, {
      consent: { decision: 'allow', scopes: ['listings:read', 'user:read'] },
    });
    const verified = await verifier.verify(tokens.accessToken);
    expect(verified).toMatchObject({
      accountId: owner.accountId,
      userId: owner.userId,
      role: 'owner',
      subscriptionStatus: 'active',
      inGoodStanding: true,
      scopes: ['listings:read', 'user:read'],
      clientId: tokens.client.client_id,
    });
    const expiresAt = verified?.expiresAt.getTime() ?? 0;
    expect(expiresAt).toBeGreaterThanOrEqual(before + hourMs - 1000);
    expect(expiresAt).toBeLessThanOrEqual(world.clock.now().getTime() + hourMs + 1000);
    expect(await grantRow(verified?.grantId ?? '')).toMatchObject({
      account_id: owner.userId,
      client_id: tokens.client.client_id,
    });
  });

  it('stores only a digest of the token, never the token', async () => {
    const tokens = await issueTokens(server, owner);
    const rows = await world.db
      .selectFrom('oidc_model')
      .select(['id', 'payload'])
      .where('model', 'in', ['AccessToken', 'RefreshToken'])
      .where('client_id', '=', tokens.client.client_id)
      .execute();
    expect(rows.map((row) => row.id).sort()).toEqual(
      [tokenDigest(tokens.accessToken), tokenDigest(tokens.refreshToken)].sort(),
    );
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(tokens.accessToken);
    expect(stored).not.toContain(tokens.refreshToken);
  });

  it('refuses unknown, empty and oversized tokens without failing', async () => {
    expect(await verifier.verify('not-a-token')).toBeNull();
    expect(await verifier.verify('')).toBeNull();
    expect(await verifier.verify('x'.repeat(10_000))).toBeNull();
  });

  it('refuses a token once it has expired', async () => {
    const tokens = await issueTokens(server, owner);
    const anHourLater = createAccessTokenVerifier({
      db: world.db,
      resource,
      clock: { now: () => new Date(world.clock.now().getTime() + hourMs + 1000) },
    });
    expect(await anHourLater.verify(tokens.accessToken)).toBeNull();
    expect(await verifier.verify(tokens.accessToken)).not.toBeNull();
  });

  it('refuses a token for another audience', async () => {
    const tokens = await issueTokens(server, owner);
    const other = createAccessTokenVerifier({
      db: world.db,
      resource: 'https://other.example/mcp',
      clock: world.clock,
    });
    expect(await other.verify(tokens.accessToken)).toBeNull();
  });

  it('refuses a refresh token presented as an access token', async () => {
    const tokens = await issueTokens(server, owner);
    expect(await verifier.verify(tokens.refreshToken)).toBeNull();
  });

  it('reports a lapsed subscription, and the current role, as of now', async () => {
    const lapsing = await createOwner(world);
    const tokens = await issueTokens(server, lapsing);
    await world.operator.setSubscriptionStatus({ accountId: lapsing.accountId, status: 'past_due' });
    expect(await verifier.verify(tokens.accessToken)).toMatchObject({
      subscriptionStatus: 'past_due',
      inGoodStanding: false,
      role: 'owner',
    });
    // A demotion shows at once: the token now speaks for someone who is not the owner.
    const member = await createSubUser(world, lapsing);
    await world.db.updateTable('users').set({ role: 'manager' }).where('id', '=', lapsing.userId).execute();
    await world.db.updateTable('users').set({ role: 'owner' }).where('id', '=', member.userId).execute();
    expect((await verifier.verify(tokens.accessToken))?.role).toBe('manager');
  });

  it('refuses the tokens of a deleted user and of a disconnected grant', async () => {
    const leaving = await createOwner(world);
    const tokens = await issueTokens(server, leaving);
    await world.db.deleteFrom('users').where('id', '=', leaving.userId).execute();
    expect(await verifier.verify(tokens.accessToken)).toBeNull();

    const staying = await issueTokens(server, owner);
    const grantId = (await verifier.verify(staying.accessToken))?.grantId ?? '';
    // Only the Grant row goes: a token row left behind must not outlive it.
    await world.db.deleteFrom('oidc_model').where('model', '=', 'Grant').where('id', '=', grantId).execute();
    expect(await verifier.verify(staying.accessToken)).toBeNull();
  });

  it('records when the grant was last used, at most once a minute', async () => {
    const tokens = await issueTokens(server, owner);
    const first = await verifier.verify(tokens.accessToken);
    const grantId = first?.grantId ?? '';
    const usedAt = (await grantRow(grantId))?.last_used_at;
    expect(usedAt?.getTime()).toBeCloseTo(world.clock.now().getTime(), -3);

    world.clock.advance(30 * 1000);
    await verifier.verify(tokens.accessToken);
    expect((await grantRow(grantId))?.last_used_at?.getTime()).toBe(usedAt?.getTime());

    world.clock.advance(31 * 1000);
    await verifier.verify(tokens.accessToken);
    const later = (await grantRow(grantId))?.last_used_at?.getTime() ?? 0;
    expect(later - (usedAt?.getTime() ?? 0)).toBeGreaterThanOrEqual(61 * 1000);
  });
});
