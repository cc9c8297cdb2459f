import { testDatabaseKinds } from '@innkeep/storage/testing';
import type { AdapterFactory, AdapterPayload } from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsentStore } from '../src/postgres/consents.ts';
import { createOidcAdapter } from '../src/postgres/oidc-adapter.ts';
import { tokenDigest } from '../src/postgres/token-hash.ts';
import {
  createOwner,
  type OauthWorld,
  oauthSecretKeys,
  openOauthWorld,
  type TestUser,
} from './support/oauth-harness.ts';

const graceSeconds = 60;

describe.each(testDatabaseKinds)('oidc-provider adapter on %s', (kind) => {
  let world: OauthWorld;
  let adapterFor: AdapterFactory;
  let owner: TestUser;

  beforeAll(async () => {
    world = await openOauthWorld(kind);
    adapterFor = createOidcAdapter({
      db: world.db,
      clock: world.clock,
      refreshTokenGraceSeconds: graceSeconds,
      secretKeys: oauthSecretKeys,
    });
    owner = await createOwner(world);
  }, 180_000);

  afterAll(async () => {
    await world?.close();
  });

  function row(model: string, id: string) {
    return world.db
      .selectFrom('oidc_model')
      .selectAll()
      .where('model', '=', model)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  it('keys token models by SHA-256, keeps the value out of the payload, and copies the ids out', async () => {
    const adapter = adapterFor('AccessToken');
    const value = 'at-value-0123456789abcdefghijklmnopqrstuvwx';
    await adapter.upsert(
      value,
      {
        jti: value,
        accountId: owner.userId,
        clientId: 'client-1',
        grantId: 'grant-1',
        scope: 'listings:read',
        aud: 'x',
      },
      3600,
    );
    const stored = await row('AccessToken', tokenDigest(value));
    expect(stored).toMatchObject({ account_id: owner.userId, client_id: 'client-1', grant_id: 'grant-1' });
    expect(stored?.payload).toEqual({
      accountId: owner.userId,
      clientId: 'client-1',
      grantId: 'grant-1',
      scope: 'listings:read',
      aud: 'x',
    });
    expect(await row('AccessToken', value)).toBeUndefined();
    const expiresIn = (stored?.expires_at?.getTime() ?? 0) - world.clock.now().getTime();
    expect(expiresIn).toBeGreaterThan(3590 * 1000);
    expect(expiresIn).toBeLessThanOrEqual(3600 * 1000);

    expect(await adapter.find(value)).toEqual({
      jti: value,
      accountId: owner.userId,
      clientId: 'client-1',
      grantId: 'grant-1',
      scope: 'listings:read',
      aud: 'x',
    });
    expect(await adapter.find('another-value')).toBeUndefined();
  });

  it('stores clients, sessions and grants under their own ids, with the client id column filled', async () => {
    await adapterFor('Client').upsert('client-abc', { client_id: 'client-abc', client_name: 'Abc' });
    expect(await row('Client', 'client-abc')).toMatchObject({ client_id: 'client-abc', expires_at: null });

    const sessions = adapterFor('Session');
    await sessions.upsert('session-jti', { jti: 'session-jti', uid: 'uid-1', accountId: owner.userId }, 600);
    expect(await sessions.findByUid('uid-1')).toMatchObject({ jti: 'session-jti', accountId: owner.userId });
    // A login changes the session's account; the copied column follows.
    await sessions.upsert('session-jti', { jti: 'session-jti', uid: 'uid-1', accountId: 'usr_other' }, 600);
    expect((await row('Session', 'session-jti'))?.account_id).toBe('usr_other');
  });

  it('lets a consumed refresh token be found unconsumed inside the grace window only', async () => {
    const adapter = adapterFor('RefreshToken');
    await adapter.upsert('rt-1', { jti: 'rt-1', grantId: 'grant-rt', clientId: 'c' }, 86_400);
    await adapter.consume('rt-1');
    expect((await adapter.find('rt-1'))?.consumed).toBeUndefined();
    world.clock.advance((graceSeconds - 1) * 1000);
    // A second use inside the window must not move the window.
    await adapter.consume('rt-1');
    world.clock.advance(2 * 1000);
    expect((await adapter.find('rt-1'))?.consumed).toBe(true);
  });

  it('reports a consumed authorization code as consumed at once', async () => {
    const adapter = adapterFor('AuthorizationCode');
    await adapter.upsert('code-1', { jti: 'code-1', grantId: 'grant-code' }, 60);
    await adapter.consume('code-1');
    expect((await adapter.find('code-1'))?.consumed).toBe(true);
  });

  it('hides rows past their expiry', async () => {
    const adapter = adapterFor('Interaction');
    await adapter.upsert('interaction-1', { jti: 'interaction-1', uid: 'interaction-1' }, 10);
    expect(await adapter.find('interaction-1')).toBeDefined();
    world.clock.advance(11 * 1000);
    expect(await adapter.find('interaction-1')).toBeUndefined();
  });

  it('revokes by grant id within one model only', async () => {
    await adapterFor('AccessToken').upsert('at-g', { jti: 'at-g', grantId: 'grant-x' }, 3600);
    await adapterFor('RefreshToken').upsert('rt-g', { jti: 'rt-g', grantId: 'grant-x' }, 3600);
    await adapterFor('AccessToken').upsert('at-other', { jti: 'at-other', grantId: 'grant-y' }, 3600);
    await adapterFor('AccessToken').revokeByGrantId('grant-x');
    expect(await adapterFor('AccessToken').find('at-g')).toBeUndefined();
    expect(await adapterFor('RefreshToken').find('rt-g')).toBeDefined();
    expect(await adapterFor('AccessToken').find('at-other')).toBeDefined();
  });

  it('forgets a remembered consent when its grant is destroyed', async () => {
    const consents = createConsentStore(world.db, world.clock);
    await adapterFor('Grant').upsert(
      'grant-remembered',
      { jti: 'grant-remembered', accountId: owner.userId, clientId: 'c9' },
      3600,
    );
    await consents.remember(owner.userId, 'c9', 'grant-remembered');
    expect(await consents.rememberedGrantId(owner.userId, 'c9')).toBe('grant-remembered');
    await adapterFor('Grant').destroy('grant-remembered');
    expect(await row('Grant', 'grant-remembered')).toBeUndefined();
    expect(await consents.rememberedGrantId(owner.userId, 'c9')).toBeUndefined();
  });

  describe('confidential clients’ secrets', () => {
    const secret = 'client-secret-0123456789abcdefghijklmnopqrstuvwxyz';
    const clientPayload = (clientId: string): AdapterPayload => ({
      client_id: clientId,
      client_secret: secret,
      token_endpoint_auth_method: 'client_secret_post',
      redirect_uris: ['https://app.example.com/cb'],
    });
    const adapterWithKeys = (secretKeys: string[]) =>
      createOidcAdapter({
        db: world.db,
        clock: world.clock,
        refreshTokenGraceSeconds: graceSeconds,
        secretKeys,
      })('Client');

    it('stores no usable secret, and still finds the client with it', async () => {
      await adapterFor('Client').upsert('sealed-client', clientPayload('sealed-client'));
      expect(JSON.stringify(await row('Client', 'sealed-client'))).not.toContain(secret);
      expect(await adapterFor('Client').find('sealed-client')).toEqual(clientPayload('sealed-client'));
    });

    it('seals a secret stored in plain text before, the first time the client is read', async () => {
      await world.db
        .insertInto('oidc_model')
        .values({
          model: 'Client',
          id: 'plain-client',
          payload: JSON.stringify(clientPayload('plain-client')),
          client_id: 'plain-client',
        })
        .execute();
      expect(await adapterFor('Client').find('plain-client')).toEqual(clientPayload('plain-client'));
      expect(JSON.stringify(await row('Client', 'plain-client'))).not.toContain(secret);
      expect(await adapterFor('Client').find('plain-client')).toEqual(clientPayload('plain-client'));
    });

    it('opens secrets sealed with an older key, and seals them again with the first', async () => {
      const oldKey = 'old-secret-key-0123456789abcdefghijklmnop';
      await adapterWithKeys([oldKey]).upsert('rotated-client', clientPayload('rotated-client'));
      const rotated = adapterWithKeys([...oauthSecretKeys, oldKey]);
      expect(await rotated.find('rotated-client')).toEqual(clientPayload('rotated-client'));
      // Once resealed, the old key is no longer needed.
      expect(await adapterFor('Client').find('rotated-client')).toEqual(clientPayload('rotated-client'));
    });

    it('does not open a sealed secret copied onto another client', async () => {
      await adapterFor('Client').upsert('victim-client', clientPayload('victim-client'));
      const victim = await row('Client', 'victim-client');
      await world.db
        .insertInto('oidc_model')
        .values({
          model: 'Client',
          id: 'copycat-client',
          payload: JSON.stringify({ ...victim?.payload, client_id: 'copycat-client' }),
          client_id: 'copycat-client',
        })
        .execute();
      await expect(adapterFor('Client').find('copycat-client')).rejects.toThrow(/another client/);
    });
  });

  it('replaces an earlier remembered decision for the same user and client', async () => {
    const consents = createConsentStore(world.db, world.clock);
    await consents.remember(owner.userId, 'c10', 'grant-a');
    await consents.remember(owner.userId, 'c10', 'grant-b');
    expect(await consents.rememberedGrantId(owner.userId, 'c10')).toBe('grant-b');
  });
});
