import type { Actor, AuditUseCases } from '@innkeep/domain';
import { systemClock } from '@innkeep/domain';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuditUseCases } from '../src/audit/audit.store.ts';
import type { DatabaseHandle } from '../src/connection.ts';
import type { Database } from '../src/database.ts';
import { createIdentityUseCases } from '../src/identity/identity.store.ts';
import { createOperatorUseCases } from '../src/identity/operator.store.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';

describe.each(testDatabaseKinds)('audit log on %s', (kind) => {
  let handle: DatabaseHandle;
  let db: Kysely<Database>;
  let audit: AuditUseCases;
  let accountId: string;
  let owner: Actor;
  let manager: Actor;
  let managerId: string;
  let otherOwner: Actor;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    db = handle.db;
    const deps = { db, clock: systemClock };
    const operator = createOperatorUseCases(deps);
    const identity = createIdentityUseCases(deps);
    audit = createAuditUseCases(deps);
    const account = {
      password: 'long enough password',
      firstName: 'Ann',
      lastName: 'Audit',
      timeZone: 'UTC',
      currency: 'GBP' as const,
    };
    // In order: account.create, user.create, subscription.update (all cli), then the owner's
    // user.update_profile and user.auth_token.rotate (rest, through an OAuth client).
    const created = await operator.createOwnerAccount({
      ...account,
      accountName: 'Ledger Lets',
      email: 'ann@ledger.test',
    });
    accountId = created.accountId;
    owner = { accountId, userId: created.userId, role: 'owner', via: 'rest', clientId: 'client_1' };
    managerId = (
      await operator.addSubUser({
        accountId,
        email: 'ben@ledger.test',
        firstName: 'Ben',
        lastName: 'B',
        role: 'manager',
      })
    ).userId;
    manager = { ...owner, userId: managerId, role: 'manager' };
    await operator.setSubscriptionStatus({ accountId, status: 'active' });
    await identity.updateProfile(owner, { lastName: 'Auditor' });
    await identity.rotateAuthToken(owner);

    const other = await operator.createOwnerAccount({
      ...account,
      accountName: 'Other',
      email: 'cat@other.test',
    });
    otherOwner = {
      accountId: other.accountId,
      userId: other.userId,
      role: 'owner',
      via: 'rest',
      clientId: null,
    };
    await identity.updateProfile(otherOwner, { firstName: 'Cathy' });
  }, 180_000);

  afterAll(async () => {
    await handle?.close();
  });

  it('lists the account’s entries newest first, with who did it and through which route', async () => {
    const page = await audit.list(owner);
    expect(page.items.map((e) => e.action)).toEqual([
      'user.auth_token.rotate',
      'user.update_profile',
      'subscription.update',
      'user.create',
      'account.create',
    ]);
    expect(page).toMatchObject({ hasMore: false, nextCursor: null });
    const [rotate, profile, subscription, userCreate, accountCreate] = page.items;
    expect(rotate).toMatchObject({
      userId: owner.userId,
      via: 'rest',
      clientId: 'client_1',
      targetType: 'user',
      targetId: owner.userId,
      details: {},
    });
    expect(profile).toMatchObject({ details: { changed: { lastName: 'Auditor' } } });
    expect(subscription).toMatchObject({
      userId: null,
      via: 'cli',
      targetType: 'account',
      targetId: accountId,
      details: { from: 'trialing', to: 'active', currentPeriodEnd: null },
    });
    expect(userCreate).toMatchObject({
      userId: null,
      via: 'cli',
      targetId: managerId,
      details: { email: 'ben@ledger.test', role: 'manager' },
    });
    expect(accountCreate).toMatchObject({ via: 'cli', targetType: 'account', targetId: accountId });
    expect(Date.parse(accountCreate?.createdAt ?? '')).not.toBeNaN();
    // Entry numbers fall strictly, newest first.
    const ids = page.items.map((e) => e.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
  });

  it('pages without gaps or repeats', async () => {
    const first = await audit.list(owner, { limit: 2 });
    expect(first.items.map((e) => e.action)).toEqual(['user.auth_token.rotate', 'user.update_profile']);
    const second = await audit.list(owner, { limit: 2, cursor: first.nextCursor ?? '' });
    expect(second.items.map((e) => e.action)).toEqual(['subscription.update', 'user.create']);
    const third = await audit.list(owner, { limit: 2, cursor: second.nextCursor ?? '' });
    expect(third.items.map((e) => e.action)).toEqual(['account.create']);
    expect(third).toMatchObject({ hasMore: false, nextCursor: null });
  });

  it('filters by action, target, client and time', async () => {
    expect((await audit.list(owner, { action: 'user.create' })).items.map((e) => e.targetId)).toEqual([
      managerId,
    ]);
    expect((await audit.list(owner, { targetType: 'account' })).items.map((e) => e.action)).toEqual([
      'subscription.update',
      'account.create',
    ]);
    expect((await audit.list(owner, { targetId: owner.userId ?? '' })).items.map((e) => e.action)).toEqual([
      'user.auth_token.rotate',
      'user.update_profile',
    ]);

    // Two entries with known times, to check `since` at its boundary (inclusive).
    for (const [action, at] of [
      ['test.before', '2030-01-01T09:59:59.999Z'],
      ['test.at', '2030-01-01T10:00:00.000Z'],
    ] as const) {
      await db
        .insertInto('audit_log')
        .values({
          account_id: accountId,
          user_id: null,
          via: 'system',
          client_id: null,
          action,
          target_type: 'test',
          target_id: null,
          details: '{}',
          created_at: at,
        })
        .execute();
    }
    // Through which client: the owner's two writes came through client_1; the operator's through none.
    expect((await audit.list(owner, { clientId: 'client_1' })).items.map((e) => e.action)).toEqual([
      'user.auth_token.rotate',
      'user.update_profile',
    ]);
    expect((await audit.list(owner, { clientId: 'client_2' })).items).toEqual([]);
    await expect(audit.list(owner, { clientId: '' })).rejects.toMatchObject({ code: 'invalid_argument' });

    const since = await audit.list(owner, { since: '2030-01-01T11:00:00+01:00' });
    expect(since.items.map((e) => [e.action, e.createdAt])).toEqual([
      ['test.at', '2030-01-01T10:00:00.000Z'],
    ]);
    await expect(audit.list(owner, { since: 'yesterday' })).rejects.toMatchObject({
      code: 'invalid_argument',
    });
  });

  it('is for the owner only and never shows another account’s entries', async () => {
    await expect(audit.list(manager)).rejects.toMatchObject({ code: 'permission_denied' });
    await expect(audit.list({ ...owner, role: 'viewer' })).rejects.toMatchObject({
      code: 'permission_denied',
    });
    const others = await audit.list(otherOwner);
    expect(others.items.map((e) => [e.action, e.targetId])).toEqual([
      ['user.update_profile', otherOwner.userId],
      ['account.create', otherOwner.accountId],
    ]);
    expect((await audit.list(otherOwner, { targetId: owner.userId ?? '' })).items).toEqual([]);
  });
});
