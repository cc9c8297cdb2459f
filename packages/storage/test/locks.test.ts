import type { Clock } from '@innkeep/domain';
import { accessCodeStatusAt, newId } from '@innkeep/domain';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/connection.ts';
import type { Database } from '../src/database.ts';
import { createLockUseCases } from '../src/locks/locks.store.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';
import { createTestAccount, createTestListing, type TestAccount } from './support/fixtures.ts';

describe('accessCodeStatusAt', () => {
  const from = new Date('2026-03-01T21:00:00Z');
  const to = new Date('2026-03-04T16:00:00Z');
  it('follows the validity window, start inclusive and end exclusive', () => {
    expect(accessCodeStatusAt('scheduled', from, to, new Date('2026-03-01T20:59:59Z'))).toBe('scheduled');
    expect(accessCodeStatusAt('scheduled', from, to, from)).toBe('active');
    expect(accessCodeStatusAt('active', from, to, new Date('2026-03-04T15:59:59Z'))).toBe('active');
    expect(accessCodeStatusAt('active', from, to, to)).toBe('expired');
  });
  it('keeps a failed code failed', () => {
    expect(accessCodeStatusAt('failed', from, to, new Date('2026-03-02T00:00:00Z'))).toBe('failed');
  });
});

describe.each(testDatabaseKinds)('locks on %s', (kind) => {
  let handle: DatabaseHandle;
  let db: Kysely<Database>;
  let account: TestAccount;
  let other: TestAccount;
  let cabin: string;
  let loft: string;
  let frontDoor: string;
  let gate: string;
  let foreignLock: string;
  let stay: string;
  let emptyStay: string;
  let foreignStay: string;

  // 2 March 2026, 12:00 UTC: during the stay of 1–4 March.
  const clock: Clock = { now: () => new Date('2026-03-02T12:00:00Z') };
  const locks = () => createLockUseCases({ db, clock });

  async function insertLock(accountId: string, name: string, listingIds: string[], extra = {}) {
    const id = newId('lock');
    await db
      .insertInto('locks')
      .values({ id, account_id: accountId, provider: 'TTLock', name, battery_pct: 80, ...extra })
      .execute();
    for (const listingId of listingIds) {
      await db.insertInto('lock_listings').values({ lock_id: id, listing_id: listingId }).execute();
    }
    return id;
  }

  async function insertReservation(accountId: string, listingId: string) {
    const id = newId('reservation');
    await db
      .insertInto('reservations')
      .values({
        id,
        account_id: accountId,
        listing_id: listingId,
        channel: 'direct',
        confirmation_code: id.toUpperCase(),
        status: 'accepted',
        guest_first_name: 'Alan',
        guest_last_name: 'Turing',
        start_date: '2026-03-01',
        end_date: '2026-03-04',
        currency: 'USD',
        accommodation_minor: 30_000,
        guest_price_minor: 30_000,
        host_payout_minor: 30_000,
      })
      .execute();
    return id;
  }

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    db = handle.db;
    account = await createTestAccount(db);
    other = await createTestAccount(db);
    cabin = await createTestListing(db, account.accountId, { name: 'Cabin' });
    loft = await createTestListing(db, account.accountId, { name: 'Loft' });
    const foreignListing = await createTestListing(db, other.accountId);
    frontDoor = await insertLock(account.accountId, 'Front door', [cabin]);
    gate = await insertLock(account.accountId, 'Gate', [cabin, loft], {
      provider: 'Nuki',
      online: false,
      battery_pct: null,
      code_length: 6,
    });
    await insertLock(account.accountId, 'Shed', []);
    foreignLock = await insertLock(other.accountId, 'Elsewhere', [foreignListing]);
    stay = await insertReservation(account.accountId, cabin);
    emptyStay = await insertReservation(account.accountId, loft);
    foreignStay = await insertReservation(other.accountId, foreignListing);
    const window = { valid_from: '2026-03-01T21:00:00Z', valid_to: '2026-03-04T16:00:00Z' };
    await db
      .insertInto('access_codes')
      .values([
        {
          id: newId('accessCode'),
          account_id: account.accountId,
          reservation_id: stay,
          lock_id: gate,
          code: '482913',
          source: 'random',
          status: 'scheduled',
          ...window,
        },
        {
          id: newId('accessCode'),
          account_id: account.accountId,
          reservation_id: stay,
          lock_id: frontDoor,
          code: '5309',
          source: 'guest_phone',
          status: 'failed',
          ...window,
        },
        {
          id: newId('accessCode'),
          account_id: other.accountId,
          reservation_id: foreignStay,
          lock_id: foreignLock,
          code: '1111',
          source: 'custom',
          status: 'active',
          ...window,
        },
      ])
      .execute();
  }, 180_000);

  afterAll(async () => {
    await handle?.close();
  });

  it('lists the account’s locks by name with their listings, state and code length', async () => {
    const first = await locks().list(account.owner, { limit: 2 });
    expect(first.items.map((l) => l.name)).toEqual(['Front door', 'Gate']);
    expect(first.items[1]).toEqual({
      id: gate,
      name: 'Gate',
      provider: 'Nuki',
      listingIds: [cabin, loft].sort(),
      online: false,
      batteryPct: null,
      codeLength: 6,
      createdAt: expect.any(String),
    });
    const second = await locks().list(account.owner, { limit: 2, cursor: first.nextCursor ?? '' });
    expect(second.items.map((l) => l.name)).toEqual(['Shed']);
    expect(second.hasMore).toBe(false);
    expect(await locks().get(account.owner, frontDoor)).toMatchObject({
      listingIds: [cabin],
      online: true,
      batteryPct: 80,
      codeLength: 4,
    });
  });

  it('returns a stay’s codes with their window and the status at the current time', async () => {
    expect(await locks().listAccessCodes(account.owner, { reservationId: stay })).toEqual([
      {
        id: expect.stringMatching(/^acd_/),
        reservationId: stay,
        lockId: frontDoor,
        lockName: 'Front door',
        code: '5309',
        source: 'guest_phone',
        validFrom: '2026-03-01T21:00:00.000Z',
        validTo: '2026-03-04T16:00:00.000Z',
        status: 'failed',
      },
      {
        id: expect.stringMatching(/^acd_/),
        reservationId: stay,
        lockId: gate,
        lockName: 'Gate',
        code: '482913',
        source: 'random',
        validFrom: '2026-03-01T21:00:00.000Z',
        validTo: '2026-03-04T16:00:00.000Z',
        // Stored as scheduled, but at 2 March noon the window is open.
        status: 'active',
      },
    ]);
    expect(await locks().listAccessCodes(account.owner, { reservationId: emptyStay })).toEqual([]);
  });

  it('hides other accounts’ locks and stays, and refuses bad input', async () => {
    await expect(locks().get(account.owner, foreignLock)).rejects.toMatchObject({ code: 'not_found' });
    await expect(
      locks().listAccessCodes(account.owner, { reservationId: foreignStay }),
    ).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(locks().listAccessCodes(account.owner, { reservationId: '' })).rejects.toMatchObject({
      code: 'invalid_argument',
    });
    expect((await locks().list(other.owner, {})).items.map((l) => l.id)).toEqual([foreignLock]);
  });
});
