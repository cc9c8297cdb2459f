import type { Clock, IdempotencyUseCases, IdempotentResponse } from '@innkeep/domain';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle } from '../src/connection.ts';
import type { Database } from '../src/database.ts';
import { createIdempotencyUseCases } from '../src/idempotency/idempotency.store.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';
import { createTestAccount, type TestAccount } from './support/fixtures.ts';

const minute = 60_000;
const hour = 60 * minute;

/** A produce() that stays running until the test lets it finish. */
function gated(response: IdempotentResponse) {
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const produce = vi.fn(async () => {
    await gate;
    return response;
  });
  return { produce, open: () => open() };
}

describe.each(testDatabaseKinds)('idempotency keys on %s', (kind) => {
  let handle: DatabaseHandle;
  let db: Kysely<Database>;
  let now: Date;
  const clock: Clock = { now: () => now };
  let keys: IdempotencyUseCases;
  let account: TestAccount;
  let other: TestAccount;
  let keyNumber = 0;
  // A fresh key per test, so tests do not see each other's keys.
  let key: string;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    db = handle.db;
    keys = createIdempotencyUseCases({ db, clock });
    account = await createTestAccount(db);
    other = await createTestAccount(db);
  }, 180_000);

  beforeEach(() => {
    now = new Date('2026-11-21T12:00:00.000Z');
    keyNumber += 1;
    key = `key-${keyNumber}`;
  });

  afterAll(async () => {
    await handle?.close();
  });

  const storedRows = (accountId: string, k: string) =>
    db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('key', '=', k)
      .execute();

  it('runs the first request and replays its stored answer to repeats without running again', async () => {
    const body = { _id: 'res_1', total: 12.5, guests: ['Ann'] };
    const produce = vi.fn(async () => ({ status: 201, body }));
    const request = { key, fingerprint: 'POST /api/createReservation #1' };
    expect(await keys.run(account.owner, request, produce)).toEqual({ status: 201, body, replayed: false });
    expect(produce).toHaveBeenCalledTimes(1);

    now = new Date(now.getTime() + 23 * hour);
    expect(await keys.run(account.owner, request, produce)).toEqual({
      status: 201,
      body: { _id: 'res_1', total: 12.5, guests: ['Ann'] },
      replayed: true,
    });
    expect(produce).toHaveBeenCalledTimes(1);
    expect(await storedRows(account.accountId, key)).toMatchObject([
      { request_fingerprint: 'POST /api/createReservation #1', response_status: 201 },
    ]);
  });

  it('refuses the same key with a different request', async () => {
    await keys.run(account.owner, { key, fingerprint: 'A' }, async () => ({
      status: 200,
      body: { ok: true },
    }));
    const produce = vi.fn(async () => ({ status: 200, body: { ok: 'B' } }));
    const attempt = keys.run(account.owner, { key, fingerprint: 'B' }, produce);
    await expect(attempt).rejects.toMatchObject({ code: 'conflict' });
    await expect(attempt).rejects.toThrow(/different request/);
    expect(produce).not.toHaveBeenCalled();
  });

  it('answers conflict to a repeat while the first request is still running, then replays', async () => {
    const first = gated({ status: 200, body: { n: 1 } });
    const running = keys.run(account.owner, { key, fingerprint: 'F' }, first.produce);
    await vi.waitFor(() => expect(first.produce).toHaveBeenCalled());

    const second = vi.fn(async () => ({ status: 200, body: { n: 2 } }));
    const attempt = keys.run(account.owner, { key, fingerprint: 'F' }, second);
    await expect(attempt).rejects.toMatchObject({ code: 'conflict' });
    await expect(attempt).rejects.toThrow(/a request with this key is still in progress/i);
    expect(second).not.toHaveBeenCalled();

    first.open();
    expect(await running).toEqual({ status: 200, body: { n: 1 }, replayed: false });
    expect(await keys.run(account.owner, { key, fingerprint: 'F' }, second)).toEqual({
      status: 200,
      body: { n: 1 },
      replayed: true,
    });
    expect(second).not.toHaveBeenCalled();
  });

  it('runs only one of many simultaneous first uses of a key', async () => {
    let runs = 0;
    const produce = async () => {
      runs += 1;
      await new Promise((resolve) => setTimeout(resolve, 50));
      return { status: 201, body: { run: runs } };
    };
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, () => keys.run(account.owner, { key, fingerprint: 'same' }, produce)),
    );
    // The work runs once. Every other caller either arrived while it ran (conflict: still in progress) or
    // after it finished (the stored answer, replayed) — which of the two depends on timing, so both count.
    expect(runs).toBe(1);
    const fulfilled = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    expect(fulfilled.filter((value) => !value.replayed)).toEqual([
      { status: 201, body: { run: 1 }, replayed: false },
    ]);
    for (const value of fulfilled.filter((v) => v.replayed)) expect(value.body).toEqual({ run: 1 });
    for (const result of results.filter((r) => r.status === 'rejected')) {
      expect(result.reason).toMatchObject({ code: 'conflict' });
    }
  });

  it('releases the key when the request throws, so a retry runs', async () => {
    const failure = new Error('channel unreachable');
    await expect(
      keys.run(account.owner, { key, fingerprint: 'F' }, async () => {
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await storedRows(account.accountId, key)).toEqual([]);
    expect(
      await keys.run(account.owner, { key, fingerprint: 'F' }, async () => ({ status: 200, body: 'ok' })),
    ).toEqual({ status: 200, body: 'ok', replayed: false });
  });

  it('stores only 2xx answers: a refused request may be fixed and retried with the same key', async () => {
    const refused = { status: 409, body: { code: 'conflict', message: 'Dates taken' } };
    expect(await keys.run(account.owner, { key, fingerprint: 'v1' }, async () => refused)).toEqual({
      ...refused,
      replayed: false,
    });
    expect(await storedRows(account.accountId, key)).toEqual([]);
    expect(
      await keys.run(account.owner, { key, fingerprint: 'v2' }, async () => ({ status: 204, body: null })),
    ).toEqual({ status: 204, body: null, replayed: false });
    expect(await keys.run(account.owner, { key, fingerprint: 'v2' }, async () => refused)).toEqual({
      status: 204,
      body: null,
      replayed: true,
    });
  });

  it('forgets keys after 24 hours', async () => {
    await keys.run(account.owner, { key, fingerprint: 'old' }, async () => ({ status: 200, body: 1 }));
    now = new Date(now.getTime() + 24 * hour - 1);
    expect(
      await keys.run(account.owner, { key, fingerprint: 'old' }, async () => ({ status: 200, body: 2 })),
    ).toEqual({ status: 200, body: 1, replayed: true });
    now = new Date(now.getTime() + 2);
    // Past its lifetime the key is unused again, even for a different request.
    expect(
      await keys.run(account.owner, { key, fingerprint: 'new' }, async () => ({ status: 200, body: 3 })),
    ).toEqual({ status: 200, body: 3, replayed: false });
    expect(await storedRows(account.accountId, key)).toMatchObject([{ request_fingerprint: 'new' }]);
  });

  it('lets a key held by an abandoned request be used after 10 minutes, and the late finisher changes nothing', async () => {
    const stuck = gated({ status: 200, body: 'late' });
    const abandoned = keys.run(account.owner, { key, fingerprint: 'F' }, stuck.produce);
    await vi.waitFor(() => expect(stuck.produce).toHaveBeenCalled());

    now = new Date(now.getTime() + 9 * minute);
    await expect(
      keys.run(account.owner, { key, fingerprint: 'F' }, async () => ({ status: 200, body: 'early' })),
    ).rejects.toMatchObject({ code: 'conflict' });

    now = new Date(now.getTime() + 2 * minute);
    expect(
      await keys.run(account.owner, { key, fingerprint: 'F' }, async () => ({
        status: 200,
        body: 'taken over',
      })),
    ).toEqual({ status: 200, body: 'taken over', replayed: false });
    stuck.open();
    expect(await abandoned).toEqual({ status: 200, body: 'late', replayed: false });
    expect(
      await keys.run(account.owner, { key, fingerprint: 'F' }, async () => ({ status: 200, body: 'again' })),
    ).toEqual({ status: 200, body: 'taken over', replayed: true });
  });

  it('keeps keys per account', async () => {
    await keys.run(account.owner, { key, fingerprint: 'F' }, async () => ({ status: 201, body: 'mine' }));
    const produce = vi.fn(async () => ({ status: 201, body: 'theirs' }));
    expect(await keys.run(other.owner, { key, fingerprint: 'F' }, produce)).toEqual({
      status: 201,
      body: 'theirs',
      replayed: false,
    });
    expect(produce).toHaveBeenCalledTimes(1);
  });

  it('rejects keys that are empty or longer than 255 characters without running', async () => {
    const produce = vi.fn(async () => ({ status: 200, body: null }));
    for (const bad of ['', 'k'.repeat(256)]) {
      await expect(keys.run(account.owner, { key: bad, fingerprint: 'F' }, produce)).rejects.toMatchObject({
        code: 'invalid_argument',
      });
    }
    expect(produce).not.toHaveBeenCalled();
    expect(await keys.run(account.owner, { key: 'k'.repeat(255), fingerprint: 'F' }, produce)).toMatchObject({
      replayed: false,
    });
  });

  it('purges keys past their lifetime and keeps the rest', async () => {
    await db.deleteFrom('idempotency_keys').execute();
    await keys.run(account.owner, { key: `${key}-old`, fingerprint: 'F' }, async () => ({
      status: 200,
      body: 1,
    }));
    now = new Date(now.getTime() + 20 * hour);
    await keys.run(other.owner, { key: `${key}-new`, fingerprint: 'F' }, async () => ({
      status: 200,
      body: 2,
    }));
    now = new Date(now.getTime() + 5 * hour);
    expect(await keys.purgeExpired()).toBe(1);
    const left = await db.selectFrom('idempotency_keys').select('key').execute();
    expect(left.map((row) => row.key)).toEqual([`${key}-new`]);
  });
});
