import type { Actor, Clock, OperatorUseCases } from '@innkeep/domain';
import {
  actorFromPrincipal,
  type IdentityUseCases,
  isGoodStanding,
  subscriptionStatuses,
  verifyPassword,
} from '@innkeep/domain';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle } from '../src/connection.ts';
import type { Database } from '../src/database.ts';
import { createIdentityUseCases } from '../src/identity/identity.store.ts';
import { createOperatorUseCases } from '../src/identity/operator.store.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';

// Counts password checks, to show that unknown emails get one too.
vi.mock('@innkeep/domain', async (importOriginal) => {
  const original = await importOriginal<typeof import('@innkeep/domain')>();
  return { ...original, verifyPassword: vi.fn(original.verifyPassword) };
});

describe('isGoodStanding', () => {
  it('is true for trialing and active only', () => {
    expect(subscriptionStatuses.filter(isGoodStanding)).toEqual(['trialing', 'active']);
    expect(isGoodStanding('past_due')).toBe(false);
    expect(isGoodStanding('canceled')).toBe(false);
    expect(isGoodStanding('unpaid')).toBe(false);
    expect(isGoodStanding('Active')).toBe(false);
    expect(isGoodStanding('')).toBe(false);
  });
});

describe.each(testDatabaseKinds)('identity on %s', (kind) => {
  const fixedNow = new Date('2026-11-21T10:00:00.000Z');
  const clock: Clock = { now: () => fixedNow };
  let handle: DatabaseHandle;
  let db: Kysely<Database>;
  let operator: OperatorUseCases;
  let identity: IdentityUseCases;
  let accountId: string;
  let otherAccountId: string;
  let owner: Actor;
  let manager: Actor;
  let viewer: Actor;
  let otherOwner: Actor;
  const as = (userId: string, role: Actor['role'], account: string): Actor => ({
    accountId: account,
    userId,
    role,
    via: 'rest',
    clientId: null,
  });

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    db = handle.db;
    operator = createOperatorUseCases({ db, clock });
    identity = createIdentityUseCases({ db, clock });
    const created = await operator.createOwnerAccount({
      accountName: 'Harbor Homes',
      email: 'Hana@Harbor.test',
      password: 'first password 1',
      firstName: 'Hana',
      lastName: 'Harbor',
      timeZone: 'America/Chicago',
      currency: 'USD',
      subscriptionStatus: 'active',
      plan: 'pro',
    });
    accountId = created.accountId;
    owner = as(created.userId, 'owner', accountId);
    const base = { accountId, lastName: 'Team' };
    const m = await operator.addSubUser({
      ...base,
      email: 'max@harbor.test',
      firstName: 'Max',
      role: 'manager',
    });
    manager = as(m.userId, 'manager', accountId);
    const v = await operator.addSubUser({
      ...base,
      email: 'amy@harbor.test',
      firstName: 'Amy',
      role: 'viewer',
      password: 'viewer password',
    });
    viewer = as(v.userId, 'viewer', accountId);
    const other = await operator.createOwnerAccount({
      accountName: 'Elsewhere',
      email: 'zed@elsewhere.test',
      password: 'other password 1',
      firstName: 'Zed',
      lastName: 'Else',
      timeZone: 'Asia/Tokyo',
      currency: 'JPY',
    });
    otherAccountId = other.accountId;
    otherOwner = as(other.userId, 'owner', otherAccountId);
  }, 180_000);

  afterAll(async () => {
    await handle?.close();
  });

  it('authenticates an authToken to its principal, and rotation revokes the old token at once', async () => {
    const first = await identity.rotateAuthToken(owner);
    expect(first.createdAt).toBe('2026-11-21T10:00:00.000Z');
    expect(await identity.authenticateAuthToken(first.authToken)).toEqual({
      accountId,
      userId: owner.userId,
      role: 'owner',
      email: 'Hana@Harbor.test',
      subscriptionStatus: 'active',
      inGoodStanding: true,
    });

    const second = await identity.rotateAuthToken(owner);
    expect(second.authToken).not.toBe(first.authToken);
    expect(await identity.authenticateAuthToken(first.authToken)).toBeNull();
    expect(await identity.authenticateAuthToken(second.authToken)).toMatchObject({ userId: owner.userId });
    const stored = await db
      .selectFrom('users')
      .select('auth_token_hash')
      .where('id', '=', owner.userId ?? '')
      .executeTakeFirstOrThrow();
    expect(stored.auth_token_hash).not.toContain(second.authToken);

    const audit = await db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'user.auth_token.rotate')
      .where('account_id', '=', accountId)
      .execute();
    expect(audit).toHaveLength(2);
    expect(audit[0]).toMatchObject({
      user_id: owner.userId,
      via: 'rest',
      target_type: 'user',
      target_id: owner.userId,
    });
    expect(JSON.stringify(audit)).not.toContain(second.authToken);

    expect(await identity.authenticateAuthToken('')).toBeNull();
    expect(await identity.authenticateAuthToken('ik_at_not-a-real-token')).toBeNull();
    expect(await identity.authenticateAuthToken('x'.repeat(10_000))).toBeNull();
  });

  it('gives sub-users principals with their own role, on their own account', async () => {
    const managerToken = await identity.rotateAuthToken(manager);
    const viewerToken = await identity.rotateAuthToken(viewer);
    expect(await identity.authenticateAuthToken(managerToken.authToken)).toMatchObject({
      accountId,
      userId: manager.userId,
      role: 'manager',
      email: 'max@harbor.test',
    });
    const principal = await identity.authenticateAuthToken(viewerToken.authToken);
    expect(principal).toMatchObject({ accountId, userId: viewer.userId, role: 'viewer' });
    expect(principal && actorFromPrincipal(principal, 'rest', 'key_1')).toEqual({
      accountId,
      userId: viewer.userId,
      role: 'viewer',
      via: 'rest',
      clientId: 'key_1',
    });
  });

  it('reports a lapsed subscription as not in good standing on every lookup', async () => {
    const { accountId: lapsedId, userId } = await operator.createOwnerAccount({
      accountName: 'Lapsed Lofts',
      email: 'lapsed@lofts.test',
      password: 'lapsed password',
      firstName: 'Lee',
      lastName: 'Lapsed',
      timeZone: 'Europe/Berlin',
      currency: 'EUR',
    });
    const { authToken } = await operator.issueAuthToken({ email: 'lapsed@lofts.test' });
    expect(await identity.authenticateAuthToken(authToken)).toMatchObject({
      subscriptionStatus: 'trialing',
      inGoodStanding: true,
    });
    await operator.setSubscriptionStatus({ accountId: lapsedId, status: 'unpaid' });
    const lapsed = { accountId: lapsedId, userId, subscriptionStatus: 'unpaid', inGoodStanding: false };
    expect(await identity.authenticateAuthToken(authToken)).toMatchObject(lapsed);
    expect(await identity.findPrincipal(userId)).toMatchObject(lapsed);
    expect(
      await identity.verifyLogin({ email: 'lapsed@lofts.test', password: 'lapsed password' }),
    ).toMatchObject(lapsed);
    const lapsedOwner = as(userId, 'owner', lapsedId);
    expect((await identity.getUser(lapsedOwner)).subscription).toEqual({
      plan: 'standard',
      status: 'unpaid',
      inGoodStanding: false,
      currentPeriodEnd: null,
    });
  });

  it('verifies logins case-insensitively by email, and spends the password work on unknown emails too', async () => {
    const checks = vi.mocked(verifyPassword);
    expect(
      await identity.verifyLogin({ email: 'hana@harbor.TEST', password: 'first password 1' }),
    ).toMatchObject({
      userId: owner.userId,
      role: 'owner',
    });
    expect(
      await identity.verifyLogin({ email: 'hana@harbor.test', password: 'first password 2' }),
    ).toBeNull();

    checks.mockClear();
    expect(
      await identity.verifyLogin({ email: 'ghost@harbor.test', password: 'first password 1' }),
    ).toBeNull();
    expect(checks).toHaveBeenCalledTimes(1);
    expect(checks.mock.calls[0]?.[1]).toMatch(/^scrypt\$/);

    // Max was added without a password: no password opens his account.
    checks.mockClear();
    expect(await identity.verifyLogin({ email: 'max@harbor.test', password: 'anything at all' })).toBeNull();
    expect(checks).toHaveBeenCalledTimes(1);
    expect(await identity.verifyLogin({ email: '', password: '' })).toBeNull();
  });

  it('finds principals by user id', async () => {
    expect(await identity.findPrincipal(viewer.userId ?? '')).toEqual({
      accountId,
      userId: viewer.userId,
      role: 'viewer',
      email: 'amy@harbor.test',
      subscriptionStatus: 'active',
      inGoodStanding: true,
    });
    expect(await identity.findPrincipal('usr_missing')).toBeNull();
  });

  it('returns the profile with account, subscription and token date, never the token', async () => {
    await operator.setSubscriptionStatus({
      accountId,
      status: 'active',
      currentPeriodEnd: '2027-01-01T00:00:00Z',
    });
    const rotated = await identity.rotateAuthToken(owner);
    const profile = await identity.getUser(owner);
    expect(profile).toEqual({
      id: owner.userId,
      email: 'Hana@Harbor.test',
      firstName: 'Hana',
      lastName: 'Harbor',
      role: 'owner',
      account: { id: accountId, name: 'Harbor Homes', timeZone: 'America/Chicago', currency: 'USD' },
      subscription: {
        plan: 'pro',
        status: 'active',
        inGoodStanding: true,
        currentPeriodEnd: '2027-01-01T00:00:00.000Z',
      },
      authToken: { createdAt: '2026-11-21T10:00:00.000Z' },
      createdAt: expect.any(String),
    });
    expect(JSON.stringify(profile)).not.toContain(rotated.authToken);
    expect((await identity.getUser(manager)).role).toBe('manager');
  });

  it('lists the team by email in pages, for the owner only and only their own account', async () => {
    const first = await identity.listUsers(owner, { limit: 2 });
    // Ordered by email, ignoring case: amy, Hana, max.
    expect(first.items.map((u) => [u.email, u.role])).toEqual([
      ['amy@harbor.test', 'viewer'],
      ['Hana@Harbor.test', 'owner'],
    ]);
    expect(first.hasMore).toBe(true);
    const second = await identity.listUsers(owner, { limit: 2, cursor: first.nextCursor ?? '' });
    expect(second.items.map((u) => u.email)).toEqual(['max@harbor.test']);
    expect(second).toMatchObject({ hasMore: false, nextCursor: null });
    expect(second.items[0]).toMatchObject({
      firstName: 'Max',
      lastName: 'Team',
      authToken: { createdAt: expect.any(String) },
    });

    const others = await identity.listUsers(otherOwner);
    expect(others.items.map((u) => u.email)).toEqual(['zed@elsewhere.test']);
    await expect(identity.listUsers(manager)).rejects.toMatchObject({ code: 'permission_denied' });
    await expect(identity.listUsers(viewer)).rejects.toMatchObject({ code: 'permission_denied' });
    await expect(identity.listUsers(owner, { cursor: 'garbage' })).rejects.toMatchObject({
      code: 'invalid_argument',
    });
  });

  it('lets every user change their own name, audited, and refuses empty changes', async () => {
    const updated = await identity.updateProfile(viewer, { firstName: '  Amelia ' });
    expect(updated).toMatchObject({ firstName: 'Amelia', lastName: 'Team', role: 'viewer' });
    const audit = await db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'user.update_profile')
      .where('target_id', '=', viewer.userId)
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      user_id: viewer.userId,
      account_id: accountId,
      details: { changed: { firstName: 'Amelia' } },
    });
    await expect(identity.updateProfile(viewer, {})).rejects.toMatchObject({ code: 'invalid_argument' });
    await expect(identity.updateProfile(viewer, { lastName: '' })).rejects.toMatchObject({
      code: 'invalid_argument',
    });
    expect((await identity.getUser(viewer)).lastName).toBe('Team');
  });

  it('changes passwords only with the current one, audited without either password', async () => {
    await expect(
      identity.changePassword(viewer, {
        currentPassword: 'wrong password',
        newPassword: 'brand new password',
      }),
    ).rejects.toMatchObject({ code: 'permission_denied' });
    await expect(
      identity.changePassword(viewer, { currentPassword: 'viewer password', newPassword: 'too short' }),
    ).rejects.toMatchObject({ code: 'invalid_argument' });
    expect(
      await identity.verifyLogin({ email: 'amy@harbor.test', password: 'viewer password' }),
    ).not.toBeNull();

    await identity.changePassword(viewer, {
      currentPassword: 'viewer password',
      newPassword: 'brand new password',
    });
    expect(await identity.verifyLogin({ email: 'amy@harbor.test', password: 'viewer password' })).toBeNull();
    expect(
      await identity.verifyLogin({ email: 'amy@harbor.test', password: 'brand new password' }),
    ).toMatchObject({
      userId: viewer.userId,
    });
    const audit = await db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'user.change_password')
      .where('target_id', '=', viewer.userId)
      .execute();
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit)).not.toContain('brand new');
    expect(JSON.stringify(audit)).not.toContain('viewer password');

    await expect(
      identity.changePassword(manager, {
        currentPassword: 'whatever it is',
        newPassword: 'brand new password',
      }),
    ).rejects.toMatchObject({ code: 'failed_precondition' });
  });

  it('keeps users of other accounts out of reach and needs a user for personal operations', async () => {
    // The other account's owner naming a user of this account: indistinguishable from a missing user.
    const intruder: Actor = { ...otherOwner, userId: owner.userId };
    const before = await db
      .selectFrom('users')
      .select('auth_token_hash')
      .where('id', '=', owner.userId ?? '')
      .executeTakeFirstOrThrow();
    await expect(identity.getUser(intruder)).rejects.toMatchObject({ code: 'not_found' });
    await expect(identity.rotateAuthToken(intruder)).rejects.toMatchObject({ code: 'not_found' });
    await expect(identity.updateProfile(intruder, { firstName: 'Mallory' })).rejects.toMatchObject({
      code: 'not_found',
    });
    const after = await db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', owner.userId ?? '')
      .executeTakeFirstOrThrow();
    expect(after).toMatchObject({ auth_token_hash: before.auth_token_hash, first_name: 'Hana' });
    const intruderAudit = await db
      .selectFrom('audit_log')
      .selectAll()
      .where('account_id', '=', otherAccountId)
      .where('target_id', '=', owner.userId)
      .execute();
    expect(intruderAudit).toEqual([]);

    const job: Actor = { accountId, userId: null, role: 'owner', via: 'system', clientId: null };
    await expect(identity.getUser(job)).rejects.toMatchObject({ code: 'failed_precondition' });
    await expect(identity.rotateAuthToken(job)).rejects.toMatchObject({ code: 'failed_precondition' });
  });
});
