import { type DatabaseHandle, openDatabase } from '@innkeep/storage';
import { type Kysely, type KyselyPlugin, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPostgresAuthNotifications } from '../src/postgres/auth-notifications.ts';
import { disconnectApp } from '../src/postgres/connected-apps.ts';
import type { AuthDatabase } from '../src/postgres/database.ts';
import {
  type AccessTokenCacheOptions,
  type ClosableAccessTokenVerifier,
  createAccessTokenVerifier,
} from '../src/resource-server/access-token-verifier.ts';
import {
  createOwner,
  issueTokens,
  type OauthWorld,
  openOauthWorld,
  type RunningServer,
  startServer,
  type TestUser,
} from './support/oauth-harness.ts';

// The per-instance cache of positive token checks, on PostgreSQL (the only place it runs). Each verifier
// here has a clock that stands still unless the test moves it, so an entry can never lapse on its own: a
// check that changes its answer was evicted by a notification.

/** Where a change becomes visible within this long, it came by notification, not by the 30 s lifetime. */
const notificationWaitMs = 2000;

interface CountedVerifier {
  readonly verifier: ClosableAccessTokenVerifier;
  /** Statements the verifier has sent to the database so far. */
  queries(): number;
  /** Moves the verifier's clock on. */
  advance(ms: number): void;
  /** Sets the verifier's clock. */
  setNow(ms: number): void;
  /** Errors the listener reported. */
  readonly errors: unknown[];
}

describe('access token cache on PostgreSQL', () => {
  let world: OauthWorld;
  let server: RunningServer;
  let resource: string;
  let listening: DatabaseHandle;
  const verifiers: ClosableAccessTokenVerifier[] = [];

  beforeAll(async () => {
    world = await openOauthWorld('postgres');
    server = await startServer(world);
    resource = `${server.baseUrl}/mcp`;
    listening = await openDatabase({ kind: 'postgres', url: world.url ?? '' });
  }, 180_000);

  afterAll(async () => {
    for (const verifier of verifiers) await verifier.close();
    await server?.app.close();
    await listening?.close();
    await world?.close();
  });

  /**
   * A caching verifier with its own listener (one "instance"), a standing clock and a count of its
   * statements; resolves once its listener listens.
   */
  async function cachingVerifier(
    options: Partial<Omit<AccessTokenCacheOptions, 'notifications'>> & {
      retry?: { initialMs: number; maxMs: number };
      db?: Kysely<AuthDatabase>;
    } = {},
  ): Promise<CountedVerifier> {
    const listen = listening.listen;
    if (listen === undefined) throw new Error('a PostgreSQL handle must offer listen');
    let count = 0;
    const counting: KyselyPlugin = {
      transformQuery: (args) => {
        count += 1;
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    let nowMs = Date.now();
    const errors: unknown[] = [];
    let listeningNow: () => void = () => {};
    const ready = new Promise<void>((resolve) => {
      listeningNow = resolve;
    });
    const notifications = createPostgresAuthNotifications({
      listen,
      onError: (error) => errors.push(error),
      retry: options.retry ?? { initialMs: 20, maxMs: 100 },
    });
    const verifier = createAccessTokenVerifier({
      db: (options.db ?? world.db).withPlugin(counting),
      resource,
      clock: { now: () => new Date(nowMs) },
      cache: {
        ...options,
        notifications: {
          // Tells the test when the listener first listens.
          subscribe: (onMessage, onLost, onListening) =>
            notifications.subscribe(onMessage, onLost, () => {
              onListening();
              listeningNow();
            }),
        },
      },
    });
    verifiers.push(verifier);
    await ready;
    return {
      verifier,
      queries: () => count,
      advance: (ms) => {
        nowMs += ms;
      },
      setNow: (ms) => {
        nowMs = ms;
      },
      errors,
    };
  }

  async function ownerWithToken(): Promise<{ owner: TestUser; accessToken: string; clientId: string }> {
    const owner = await createOwner(world);
    const tokens = await issueTokens(server, owner);
    return { owner, accessToken: tokens.accessToken, clientId: tokens.client.client_id };
  }

  it('answers a repeated check from the cache, and never caches a refusal', async () => {
    const { verifier, queries } = await cachingVerifier();
    const { owner, accessToken } = await ownerWithToken();
    const first = await verifier.verify(accessToken);
    expect(first).toMatchObject({ userId: owner.userId, role: 'owner', inGoodStanding: true });
    const afterFirst = queries();
    expect(await verifier.verify(accessToken)).toEqual(first);
    expect(queries()).toBe(afterFirst);

    await verifier.verify('no-such-token');
    await verifier.verify('no-such-token');
    expect(queries()).toBe(afterFirst + 2);
  });

  it('refuses a cached token as soon as it is revoked', async () => {
    const { verifier } = await cachingVerifier();
    const { accessToken, clientId } = await ownerWithToken();
    expect(await verifier.verify(accessToken)).not.toBeNull();
    const revoked = await fetch(`${server.origin}/oauth/token/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: accessToken, client_id: clientId }).toString(),
    });
    expect(revoked.status).toBe(200);
    await vi.waitFor(async () => expect(await verifier.verify(accessToken)).toBeNull(), {
      timeout: notificationWaitMs,
    });
  });

  it('refuses a cached token as soon as its app is disconnected', async () => {
    const { verifier } = await cachingVerifier();
    const { owner, accessToken } = await ownerWithToken();
    const verified = await verifier.verify(accessToken);
    await disconnectApp(world.db, owner.userId, verified?.grantId ?? '');
    await vi.waitFor(async () => expect(await verifier.verify(accessToken)).toBeNull(), {
      timeout: notificationWaitMs,
    });
  });

  it("reports the new role as soon as the user's role changes, and refuses once the user is gone", async () => {
    const { verifier } = await cachingVerifier();
    const { owner, accessToken } = await ownerWithToken();
    expect((await verifier.verify(accessToken))?.role).toBe('owner');
    await world.db.updateTable('users').set({ role: 'manager' }).where('id', '=', owner.userId).execute();
    await vi.waitFor(async () => expect((await verifier.verify(accessToken))?.role).toBe('manager'), {
      timeout: notificationWaitMs,
    });
    await world.db.deleteFrom('users').where('id', '=', owner.userId).execute();
    await vi.waitFor(async () => expect(await verifier.verify(accessToken)).toBeNull(), {
      timeout: notificationWaitMs,
    });
  });

  it('reports a lapsed subscription as soon as it lapses, and its renewal as soon as it is renewed', async () => {
    const { verifier } = await cachingVerifier();
    const { owner, accessToken } = await ownerWithToken();
    expect(await verifier.verify(accessToken)).toMatchObject({ inGoodStanding: true });
    await world.operator.setSubscriptionStatus({ accountId: owner.accountId, status: 'unpaid' });
    await vi.waitFor(
      async () =>
        expect(await verifier.verify(accessToken)).toMatchObject({
          subscriptionStatus: 'unpaid',
          inGoodStanding: false,
        }),
      { timeout: notificationWaitMs },
    );
    await world.operator.setSubscriptionStatus({ accountId: owner.accountId, status: 'active' });
    await vi.waitFor(
      async () => expect(await verifier.verify(accessToken)).toMatchObject({ inGoodStanding: true }),
      { timeout: notificationWaitMs },
    );
  });

  it('evicts on every instance: two verifiers on one database both refuse a revoked grant', async () => {
    const a = await cachingVerifier();
    const b = await cachingVerifier();
    const { owner, accessToken } = await ownerWithToken();
    const verified = await a.verifier.verify(accessToken);
    expect(await b.verifier.verify(accessToken)).toEqual(verified);
    const cachedOnBoth = [a.queries(), b.queries()];
    expect(await a.verifier.verify(accessToken)).toEqual(verified);
    expect(await b.verifier.verify(accessToken)).toEqual(verified);
    expect([a.queries(), b.queries()]).toEqual(cachedOnBoth);

    await disconnectApp(world.db, owner.userId, verified?.grantId ?? '');
    await vi.waitFor(
      async () => {
        expect(await a.verifier.verify(accessToken)).toBeNull();
        expect(await b.verifier.verify(accessToken)).toBeNull();
      },
      { timeout: notificationWaitMs },
    );
  });

  it('stops caching and forgets everything while its listener is lost, and caches again once it listens', async () => {
    const { verifier, queries, errors } = await cachingVerifier({ retry: { initialMs: 1500, maxMs: 1500 } });
    const { owner, accessToken } = await ownerWithToken();
    await verifier.verify(accessToken);
    const cached = queries();
    expect((await verifier.verify(accessToken))?.role).toBe('owner');
    expect(queries()).toBe(cached);

    // The database drops the listening connection (a restart, a failover).
    await sql`select pg_terminate_backend(pid) from pg_stat_activity
      where application_name = 'innkeep listen innkeep_auth' and datname = current_database()`.execute(
      world.db,
    );
    await vi.waitFor(() => expect(errors.length).toBeGreaterThan(0), { timeout: notificationWaitMs });
    // Changed while nobody listens: no notification will ever say so. The cache was cleared, so it shows.
    await world.db.updateTable('users').set({ role: 'manager' }).where('id', '=', owner.userId).execute();
    expect((await verifier.verify(accessToken))?.role).toBe('manager');
    const uncached = queries();
    await verifier.verify(accessToken);
    expect(queries()).toBeGreaterThan(uncached);

    // Listening again (after the retry wait), it caches again.
    await vi.waitFor(
      async () => {
        await verifier.verify(accessToken);
        const before = queries();
        await verifier.verify(accessToken);
        expect(queries()).toBe(before);
      },
      { timeout: 5000, interval: 100 },
    );
  });

  it('reads the database again after 30 s, and never uses an entry past the token expiry', async () => {
    const { verifier, queries, advance } = await cachingVerifier();
    const { accessToken } = await ownerWithToken();
    const verified = await verifier.verify(accessToken);
    advance(29_000);
    const cached = queries();
    await verifier.verify(accessToken);
    expect(queries()).toBe(cached);
    advance(1000);
    await verifier.verify(accessToken);
    expect(queries()).toBeGreaterThan(cached);

    // Ten seconds before the token expires, the entry lasts ten seconds.
    const nearExpiry = await cachingVerifier();
    nearExpiry.setNow((verified?.expiresAt.getTime() ?? 0) - 10_000);
    expect(await nearExpiry.verifier.verify(accessToken)).not.toBeNull();
    nearExpiry.advance(10_000);
    expect(await nearExpiry.verifier.verify(accessToken)).toBeNull();
  });

  it("records the grant's last use once a minute on cache hits too, in the background", async () => {
    const { verifier, advance } = await cachingVerifier({ maxAgeMs: 10 * 60_000 });
    const { accessToken } = await ownerWithToken();
    const verified = await verifier.verify(accessToken);
    const lastUsed = async () =>
      (
        await world.db
          .selectFrom('oidc_model')
          .select('last_used_at')
          .where('model', '=', 'Grant')
          .where('id', '=', verified?.grantId ?? '')
          .executeTakeFirst()
      )?.last_used_at?.getTime();
    const first = (await lastUsed()) ?? 0;
    advance(59_000);
    await verifier.verify(accessToken);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await lastUsed()).toBe(first);
    advance(2000);
    await verifier.verify(accessToken);
    await vi.waitFor(async () => expect(await lastUsed()).toBe(first + 61_000));
  });

  it('serves a cache hit when recording the last use fails, and reports the failure', async () => {
    let failUpdates = false;
    const failing: KyselyPlugin = {
      transformQuery: (args) => {
        if (failUpdates && args.node.kind === 'UpdateQueryNode')
          throw new Error('the database refused the update');
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    const reported: unknown[] = [];
    const { verifier, advance } = await cachingVerifier({
      maxAgeMs: 10 * 60_000,
      db: world.db.withPlugin(failing),
      onBackgroundError: (error) => reported.push(error),
    });
    const { owner, accessToken } = await ownerWithToken();
    await verifier.verify(accessToken);
    failUpdates = true;
    advance(61_000);
    expect(await verifier.verify(accessToken)).toMatchObject({ userId: owner.userId });
    await vi.waitFor(() => expect(reported).toHaveLength(1));
  });
});
