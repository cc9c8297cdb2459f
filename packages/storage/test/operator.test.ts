import type { CreateOwnerAccountInput, IdentityUseCases, OperatorUseCases } from '@innkeep/domain';
import { hashSecretToken, systemClock, verifyPassword } from '@innkeep/domain';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/connection.ts';
import type { Database } from '../src/database.ts';
import { createIdentityUseCases } from '../src/identity/identity.store.ts';
import { createOperatorUseCases } from '../src/identity/operator.store.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';

describe.each(testDatabaseKinds)('operator commands on %s', (kind) => {
  let handle: DatabaseHandle;
  let db: Kysely<Database>;
  let operator: OperatorUseCases;
  let identity: IdentityUseCases;

  const owner = (overrides: Partial<CreateOwnerAccountInput> = {}): CreateOwnerAccountInput => ({
    accountName: 'Seaside Stays',
    email: 'olivia@seaside.test',
    password: 'correct horse battery',
    firstName: 'Olivia',
    lastName: 'Owner',
    timeZone: 'Europe/Lisbon',
    currency: 'EUR',
    ...overrides,
  });

  async function rowCounts() {
    const count = async (table: 'accounts' | 'users' | 'subscriptions' | 'audit_log') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return {
      accounts: await count('accounts'),
      users: await count('users'),
      subscriptions: await count('subscriptions'),
      audit: await count('audit_log'),
    };
  }

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    db = handle.db;
    operator = createOperatorUseCases({ db, clock: systemClock });
    identity = createIdentityUseCases({ db, clock: systemClock });
  }, 180_000);

  afterAll(async () => {
    await handle?.close();
  });

  it('creates an account with a trialing standard subscription and a hashed owner password, audited via cli', async () => {
    const { accountId, userId } = await operator.createOwnerAccount(owner());
    expect(accountId).toMatch(/^acc_/);
    expect(userId).toMatch(/^usr_/);

    const account = await db
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', accountId)
      .executeTakeFirst();
    expect(account).toMatchObject({ name: 'Seaside Stays', time_zone: 'Europe/Lisbon', currency: 'EUR' });
    const subscription = await db
      .selectFrom('subscriptions')
      .selectAll()
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    expect(subscription).toMatchObject({ plan: 'standard', status: 'trialing', current_period_end: null });
    const user = await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
    expect(user).toMatchObject({ account_id: accountId, role: 'owner', email: 'olivia@seaside.test' });
    expect(user.password_hash).not.toContain('correct horse');
    expect(await verifyPassword('correct horse battery', user.password_hash ?? '')).toBe(true);

    const audit = await db.selectFrom('audit_log').selectAll().where('account_id', '=', accountId).execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: 'account.create',
      target_type: 'account',
      target_id: accountId,
      via: 'cli',
      user_id: null,
      client_id: null,
    });
  });

  it('refuses a taken email in any letter case, writing nothing', async () => {
    const before = await rowCounts();
    const attempt = operator.createOwnerAccount(owner({ email: 'OLIVIA@Seaside.TEST', accountName: 'Copy' }));
    await expect(attempt).rejects.toMatchObject({ code: 'conflict' });
    await expect(attempt).rejects.toThrow(/OLIVIA@Seaside\.TEST is already taken/);
    expect(await rowCounts()).toEqual(before);
  });

  it('lets only one of two simultaneous sign-ups with one email through', async () => {
    const before = await rowCounts();
    const results = await Promise.allSettled([
      operator.createOwnerAccount(owner({ email: 'race@seaside.test' })),
      operator.createOwnerAccount(owner({ email: 'Race@seaside.test' })),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((r) => r.status === 'rejected');
    expect(rejected?.status === 'rejected' && rejected.reason).toMatchObject({ code: 'conflict' });
    // One account, its subscription, its owner and one audit entry; nothing of the loser.
    expect(await rowCounts()).toEqual({
      accounts: before.accounts + 1,
      users: before.users + 1,
      subscriptions: before.subscriptions + 1,
      audit: before.audit + 1,
    });
  });

  it('rejects bad input in one invalid_argument error naming every field, writing nothing', async () => {
    const before = await rowCounts();
    const attempt = operator.createOwnerAccount(
      owner({
        email: 'not-an-email',
        password: 'short',
        timeZone: 'Mars/Olympus',
        currency: 'XYZ' as 'EUR',
        subscriptionStatus: 'paused' as 'active',
      }),
    );
    await expect(attempt).rejects.toMatchObject({ code: 'invalid_argument' });
    const message = await attempt.catch((error: Error) => error.message);
    for (const field of ['email', 'password', 'timeZone', 'currency', 'subscriptionStatus']) {
      expect(message).toContain(`${field}:`);
    }
    expect(await rowCounts()).toEqual(before);
  });

  it('adds managers and viewers, but no second owner, and only to existing accounts', async () => {
    const { accountId } = await operator.createOwnerAccount(owner({ email: 'team-owner@seaside.test' }));
    const { userId } = await operator.addSubUser({
      accountId,
      email: 'mia@seaside.test',
      firstName: 'Mia',
      lastName: 'Manager',
      role: 'manager',
    });
    const user = await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
    expect(user).toMatchObject({ account_id: accountId, role: 'manager', password_hash: null });
    const audit = await db.selectFrom('audit_log').selectAll().where('target_id', '=', userId).execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      account_id: accountId,
      action: 'user.create',
      via: 'cli',
      user_id: null,
    });

    const subUser = { accountId, firstName: 'Vic', lastName: 'Viewer', email: 'vic@seaside.test' };
    await expect(operator.addSubUser({ ...subUser, role: 'owner' as 'viewer' })).rejects.toMatchObject({
      code: 'invalid_argument',
    });
    await expect(
      operator.addSubUser({ ...subUser, role: 'viewer', accountId: 'acc_missing' }),
    ).rejects.toMatchObject({ code: 'not_found' });
    await expect(
      operator.addSubUser({ ...subUser, role: 'viewer', email: 'MIA@seaside.test' }),
    ).rejects.toMatchObject({ code: 'conflict' });
    expect(await operator.findUserByEmail('vic@seaside.test')).toBeNull();
  });

  it('sets subscription status and period end, reporting good standing, audited', async () => {
    const { accountId } = await operator.createOwnerAccount(owner({ email: 'billing@seaside.test' }));
    expect(
      await operator.setSubscriptionStatus({
        accountId,
        status: 'past_due',
        currentPeriodEnd: '2026-12-01T00:00:00+01:00',
      }),
    ).toEqual({ accountId, status: 'past_due', inGoodStanding: false });
    const lapsed = await db
      .selectFrom('subscriptions')
      .selectAll()
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    expect(lapsed.status).toBe('past_due');
    expect(lapsed.current_period_end?.toISOString()).toBe('2026-11-30T23:00:00.000Z');

    // Omitting the period end keeps it.
    expect(await operator.setSubscriptionStatus({ accountId, status: 'active' })).toEqual({
      accountId,
      status: 'active',
      inGoodStanding: true,
    });
    const active = await db
      .selectFrom('subscriptions')
      .selectAll()
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    expect(active.current_period_end?.toISOString()).toBe('2026-11-30T23:00:00.000Z');

    const audit = await db
      .selectFrom('audit_log')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('action', '=', 'subscription.update')
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.details)).toEqual([
      { from: 'trialing', to: 'past_due', currentPeriodEnd: '2026-11-30T23:00:00.000Z' },
      { from: 'past_due', to: 'active', currentPeriodEnd: '2026-11-30T23:00:00.000Z' },
    ]);
    await expect(
      operator.setSubscriptionStatus({ accountId: 'acc_missing', status: 'active' }),
    ).rejects.toMatchObject({ code: 'not_found' });
    await expect(
      operator.setSubscriptionStatus({ accountId, status: 'frozen' as 'active' }),
    ).rejects.toMatchObject({ code: 'invalid_argument' });
  });

  it('issues partner apiKeys stored only as a hash, and revokes them', async () => {
    const { id, apiKey } = await operator.issuePartnerApiKey({
      partnerName: 'Channel Sync Co',
      contactEmail: 'dev@sync.test',
    });
    expect(id).toMatch(/^key_/);
    expect(apiKey).toMatch(/^ik_pk_/);
    const row = await db
      .selectFrom('partner_api_keys')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.key_hash).toBe(hashSecretToken(apiKey));
    expect(row.key_hash).not.toContain(apiKey);
    expect(await identity.resolvePartnerApiKey(apiKey)).toEqual({ id, partnerName: 'Channel Sync Co' });

    await operator.revokePartnerApiKey({ id });
    expect(await identity.resolvePartnerApiKey(apiKey)).toBeNull();
    const revokedAt = (
      await db
        .selectFrom('partner_api_keys')
        .select('revoked_at')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).revoked_at;
    expect(revokedAt).toBeInstanceOf(Date);
    // Revoking twice keeps the first time.
    await operator.revokePartnerApiKey({ id });
    const again = await db
      .selectFrom('partner_api_keys')
      .select('revoked_at')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(again.revoked_at?.getTime()).toBe(revokedAt?.getTime());

    await expect(operator.revokePartnerApiKey({ id: 'key_missing' })).rejects.toMatchObject({
      code: 'not_found',
    });
    expect(await identity.resolvePartnerApiKey('ik_pk_made-up')).toBeNull();
  });

  it('issues an authToken by email, revoking the previous one, audited via cli', async () => {
    const { accountId, userId } = await operator.createOwnerAccount(owner({ email: 'token@seaside.test' }));
    const first = await operator.issueAuthToken({ email: 'Token@Seaside.test' });
    expect(first.userId).toBe(userId);
    expect(first.authToken).toMatch(/^ik_at_/);
    expect(await identity.authenticateAuthToken(first.authToken)).toMatchObject({
      userId,
      accountId,
      role: 'owner',
    });

    const second = await operator.issueAuthToken({ email: 'token@seaside.test' });
    expect(second.authToken).not.toBe(first.authToken);
    expect(await identity.authenticateAuthToken(first.authToken)).toBeNull();
    expect(await identity.authenticateAuthToken(second.authToken)).toMatchObject({ userId });

    const audit = await db
      .selectFrom('audit_log')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('action', '=', 'user.auth_token.issue')
      .execute();
    expect(audit).toHaveLength(2);
    expect(audit[0]).toMatchObject({ target_id: userId, via: 'cli', user_id: null });
    await expect(operator.issueAuthToken({ email: 'nobody@seaside.test' })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('finds users by email case-insensitively', async () => {
    const { accountId, userId } = await operator.createOwnerAccount(owner({ email: 'Find.Me@Seaside.test' }));
    expect(await operator.findUserByEmail('find.me@seaside.TEST')).toEqual({
      userId,
      accountId,
      role: 'owner',
    });
    expect(await operator.findUserByEmail(' find.me@seaside.test ')).toEqual({
      userId,
      accountId,
      role: 'owner',
    });
    expect(await operator.findUserByEmail('lost@seaside.test')).toBeNull();
  });
});
