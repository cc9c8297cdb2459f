import { newId } from '@innkeep/domain';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { rebuildGuestWaitBuckets } from '../src/analytics/guest-wait-buckets.ts';
import { refreshGuestWaits } from '../src/analytics/guest-waits.ts';
import { domainMigrations } from '../src/migrations/index.ts';
import { testDatabaseKinds } from '../src/testing.ts';
import { insertStay } from './support/analytics-fixture.ts';
import { useGuestWorld } from './support/analytics-guest-world.ts';

// February of the guest fixture has one wait, s1's, answered by the host after 1800 s. This file adds a
// thread whose automated messages failed:
// - guest 02-10 10:00, automation 10:05 failed, host 18:00 → wait A: the host after 28800 s; the failed
//   message answers nothing, so counting automated replies leaves it at 28800 s (not 300 s).
// - guest 02-11 10:00, automation 10:01 failed, automation 10:10 sent, no host → wait B: unanswered by the
//   host; counting automated replies, answered after 600 s by the delivered message (not 60 s).
const february = { startDate: '2026-02-01', endDate: '2026-02-28' };

describe.each(testDatabaseKinds)('failed automated messages on %s', (kind) => {
  const world = useGuestWorld(kind);
  let reservationId = '';

  beforeAll(async () => {
    const { db } = world.handle;
    const { account, listings } = world.fixture;
    reservationId = await insertStay(db, account, {
      listingId: listings.cabin,
      startDate: '2026-04-20',
      endDate: '2026-04-22',
      nightly: [10_000, 10_000],
      createdAt: '2026-02-09T08:00:00.000Z',
    });
    const message = (sender: 'guest' | 'host' | 'automation', sentAt: string, deliveryStatus: string) => ({
      id: newId('message'),
      account_id: account.accountId,
      reservation_id: reservationId,
      sender,
      body: `${sender} message`,
      sent_at: sentAt,
      message_rule_id: null,
      author_user_id: null,
      delivery_status: deliveryStatus,
    });
    await db
      .insertInto('messages')
      .values([
        message('guest', '2026-02-10T10:00:00Z', 'received'),
        message('automation', '2026-02-10T10:05:00Z', 'failed'),
        message('host', '2026-02-10T18:00:00Z', 'sent'),
        message('guest', '2026-02-11T10:00:00Z', 'received'),
        message('automation', '2026-02-11T10:01:00Z', 'failed'),
        message('automation', '2026-02-11T10:10:00Z', 'sent'),
      ])
      .execute();
    await refreshGuestWaits(db, [reservationId]);
  });

  /** February's stats counting automated replies, and the breakdown's overall figures (read from the buckets). */
  async function februaryCountingAutomated() {
    const { owner } = world.fixture.account;
    const question = { ...february, countAutomatedReplies: true };
    const stats = await world.domain.analytics.getResponseTimeStats(owner, question);
    const breakdown = await world.domain.analytics.getResponseTimeBreakdown(owner, question);
    return { stats, overall: breakdown.overall };
  }

  // Answered 600 (B), 1800 (s1), 28800 (A): median 1800 s = 30 min, mean 31200 / 3 = 10400 s = 173.3 min,
  // within the hour 2 of 3. Only B got a delivered automated message before any host reply.
  const expected = { waits: 3, answered: 3, medianMinutes: 30, meanMinutes: 173.3, withinHourShare: 0.6667 };

  it('does not count a failed automated message as an answer', async () => {
    const { stats, overall } = await februaryCountingAutomated();
    expect(stats).toMatchObject({ ...expected, automatedFirst: 1 });
    expect(overall).toMatchObject(expected);
  });

  it('rewrites waits recorded under the old rule when migrating', async () => {
    const { db } = world.handle;
    const { accountId } = world.fixture.account;
    // What the previous rule recorded: A answered by its failed message after 300 s, B by its after 60 s.
    await sql`
      update guest_waits
      set automated_seconds = case when guest_message_at = '2026-02-10T10:00:00Z' then 300 else 60 end
      where reservation_id = ${reservationId}`.execute(db);
    await rebuildGuestWaitBuckets(db, accountId);
    const stale = await februaryCountingAutomated();
    expect(stale.overall).toMatchObject({ answered: 3, medianMinutes: 5 });

    const migration = domainMigrations['2026_11_27_0023_failed_automated_replies'];
    await migration?.up(db);
    const { stats, overall } = await februaryCountingAutomated();
    expect(stats).toMatchObject({ ...expected, automatedFirst: 1 });
    expect(overall).toMatchObject(expected);
  });
});
