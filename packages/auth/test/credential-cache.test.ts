import { createIdentityUseCases, type DatabaseHandle, openDatabase } from '@innkeep/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresAuthNotifications } from '../src/postgres/auth-notifications.ts';
import {
  type ClosableCredentialLookups,
  type CredentialLookups,
  createCachedCredentialLookups,
} from '../src/resource-server/cached-credential-lookups.ts';
import { createOwner, type OauthWorld, openOauthWorld } from './support/oauth-harness.ts';

// The per-instance cache of REST's authToken and apiKey checks, on PostgreSQL (the only place it runs):
// repeated checks skip the database, and a change that matters reaches the cache by notification at once.

/** Where a change shows within this long, it came by notification, not by the 30 s lifetime. */
const notificationWaitMs = 2000;

async function eventually<T>(read: () => Promise<T>, accept: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + notificationWaitMs;
  for (;;) {
    const value = await read();
    if (accept(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('REST credential cache on PostgreSQL', () => {
  let world: OauthWorld;
  let listening: DatabaseHandle;
  let lookups: ClosableCredentialLookups;
  let databaseLookups = 0;

  beforeAll(async () => {
    world = await openOauthWorld('postgres');
    listening = await openDatabase({ kind: 'postgres', url: world.url ?? '' });
    const listen = listening.listen;
    if (listen === undefined) throw new Error('a PostgreSQL handle must offer listen');
    const identity = createIdentityUseCases({ db: world.db, clock: { now: () => new Date() } });
    const counted: CredentialLookups = {
      authenticateAuthToken: (token) => {
        databaseLookups += 1;
        return identity.authenticateAuthToken(token);
      },
      resolvePartnerApiKey: (key) => {
        databaseLookups += 1;
        return identity.resolvePartnerApiKey(key);
      },
    };
    let listeningNow: () => void = () => {};
    const ready = new Promise<void>((resolve) => {
      listeningNow = resolve;
    });
    const notifications = createPostgresAuthNotifications({ listen, retry: { initialMs: 20, maxMs: 100 } });
    lookups = createCachedCredentialLookups(counted, {
      notifications: {
        subscribe: (onMessage, onLost, onListening) =>
          notifications.subscribe(onMessage, onLost, () => {
            onListening();
            listeningNow();
          }),
      },
    });
    await ready;
  }, 180_000);

  afterAll(async () => {
    await lookups?.close();
    await listening?.close();
    await world?.close();
  });

  it('answers a repeated authToken from the cache, and never caches an unknown one', async () => {
    const owner = await createOwner(world);
    const { authToken } = await world.operator.issueAuthToken({ email: owner.email });
    // The token's own notification (user:<id>, sent when it was issued) may land after the first check and
    // drop it; from then on, two checks in a row cost one query at most.
    const queriesOfTwoChecks = await eventually(
      async () => {
        const before = databaseLookups;
        expect(await lookups.authenticateAuthToken(authToken)).toMatchObject({
          userId: owner.userId,
          role: 'owner',
        });
        expect(await lookups.authenticateAuthToken(authToken)).toMatchObject({ userId: owner.userId });
        return databaseLookups - before;
      },
      (queries) => queries <= 1,
    );
    expect(queriesOfTwoChecks).toBeLessThanOrEqual(1);
    const before = databaseLookups;
    expect(await lookups.authenticateAuthToken(authToken)).not.toBeNull();
    expect(databaseLookups - before).toBe(0);
    expect(await lookups.authenticateAuthToken('unknown-token')).toBeNull();
    expect(await lookups.authenticateAuthToken('unknown-token')).toBeNull();
    expect(databaseLookups - before).toBe(2);
  });

  it('drops an authToken the moment a new one replaces it', async () => {
    const owner = await createOwner(world);
    const { authToken: first } = await world.operator.issueAuthToken({ email: owner.email });
    expect(await lookups.authenticateAuthToken(first)).not.toBeNull();
    const { authToken: second } = await world.operator.issueAuthToken({ email: owner.email });
    expect(
      await eventually(
        () => lookups.authenticateAuthToken(first),
        (principal) => principal === null,
      ),
    ).toBeNull();
    expect(await lookups.authenticateAuthToken(second)).toMatchObject({ userId: owner.userId });
  });

  it('sees a lapsed subscription at once', async () => {
    const owner = await createOwner(world);
    const { authToken } = await world.operator.issueAuthToken({ email: owner.email });
    expect(await lookups.authenticateAuthToken(authToken)).toMatchObject({ inGoodStanding: true });
    await world.operator.setSubscriptionStatus({ accountId: owner.accountId, status: 'past_due' });
    const lapsed = await eventually(
      () => lookups.authenticateAuthToken(authToken),
      (principal) => principal?.inGoodStanding === false,
    );
    expect(lapsed).toMatchObject({ subscriptionStatus: 'past_due', inGoodStanding: false });
  });

  it('forgets an apiKey once it is revoked', async () => {
    const { id, apiKey } = await world.operator.issuePartnerApiKey({ partnerName: 'Cached partner' });
    const before = databaseLookups;
    expect(await lookups.resolvePartnerApiKey(apiKey)).toMatchObject({ id });
    expect(await lookups.resolvePartnerApiKey(apiKey)).toMatchObject({ id });
    expect(databaseLookups - before).toBe(1);
    await world.operator.revokePartnerApiKey({ id });
    expect(
      await eventually(
        () => lookups.resolvePartnerApiKey(apiKey),
        (partner) => partner === null,
      ),
    ).toBeNull();
  });
});
