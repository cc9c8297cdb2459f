import type { Clock } from '@innkeep/domain';
import { newId } from '@innkeep/domain';
import type { ResponseMeasures } from '@innkeep/domain/analytics';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildGuestWaits, refreshGuestWaits } from '../src/analytics/guest-waits.ts';
import type { DatabaseHandle } from '../src/connection.ts';
import { createPostgresDomain } from '../src/create-domain.ts';
import type { Executor } from '../src/database.ts';
import { createMessageRuleRunner } from '../src/messages/message-rule-runner.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';
import { buildGuestFixture, type GuestFixture } from './support/analytics-guest-fixture.ts';
import { useGuestWorld } from './support/analytics-guest-world.ts';

const march = { startDate: '2026-03-01', endDate: '2026-03-31' };

/** Every wait of an account, in a stable order. */
async function snapshotWaits(db: Executor, accountId: string) {
  const { rows } = await sql<Record<string, unknown>>`
    select guest_message_id, reservation_id, listing_id, channel, stage, guest_message_at, local_date, local_hour,
      local_weekday, response_seconds, automated_seconds
    from guest_waits where account_id = ${accountId} order by guest_message_at, guest_message_id`.execute(db);
  return rows;
}

/** Measures of waits with no answer at all (every time null because nothing was answered). */
const unansweredOnly = (waits: number, hourDecided: boolean): ResponseMeasures => ({
  waits,
  answered: 0,
  unanswered: waits,
  medianMinutes: null,
  meanMinutes: null,
  p90Minutes: null,
  withinHourShare: hourDecided ? 0 : null,
  withinDayShare: null,
  nullReasons: {
    medianMinutes: 'no_responses',
    meanMinutes: 'no_responses',
    p90Minutes: 'no_responses',
    ...(hourDecided ? {} : { withinHourShare: 'no_guest_messages' as const }),
    withinDayShare: 'no_guest_messages',
  },
});

describe.each(testDatabaseKinds)('response times on %s', (kind) => {
  const world = useGuestWorld(kind);

  it('keeps one row per wait, in absolute time across daylight-saving changes, with its local hour', async () => {
    const waits = await snapshotWaits(world.handle.db, world.fixture.account.accountId);
    // s1's February wait, then W1–W8 (see the fixture).
    expect(
      waits.map((wait) => [
        wait.stage,
        wait.local_date,
        wait.local_hour,
        wait.local_weekday,
        wait.response_seconds,
        wait.automated_seconds,
      ]),
    ).toEqual([
      ['booked', '2026-02-20', 10, 5, 1800, null],
      ['booked', '2026-03-01', 11, 0, 2700, null],
      ['booked', '2026-03-02', 23, 1, 32400, 1800],
      // Boston 01:30 EST → 03:15 EDT: 45 minutes, though the wall clock moved 1 h 45.
      ['booked', '2026-03-08', 1, 0, 2700, null],
      ['booked', '2026-03-09', 9, 1, 7200, null],
      ['inquiry', '2026-03-10', 8, 2, 600, null],
      ['inquiry', '2026-03-14', 8, 6, 86400, 60],
      ['inquiry', '2026-03-16', 6, 1, null, null],
      ['booked', '2026-03-16', 11, 1, null, null],
    ]);
  });

  it('measures March’s waits from the host’s replies, automated messages flagged, unanswered ones as misses', async () => {
    const stats = await world.domain.analytics.getResponseTimeStats(world.fixture.account.owner, march);
    // Answered W5 600, W1 2700, W3 2700, W4 7200, W2 32400, W7 86400 (seconds); W6 and W8 unanswered.
    // Median (2700 + 7200) / 2 = 4950 s = 82.5 min; mean 132000 / 6 = 22000 s = 366.7 min;
    // p90 at 0.9 × 5 = 4.5: 32400 + 0.5 × (86400 − 32400) = 59400 s = 990 min.
    // Within 1 h: W5, W1, W3 = 3 of 7 (W8 is half an hour old: it may still be answered in time; W6 is 2 h old).
    // Within 24 h: all 6 answered (W7 at exactly 24 h) of 6 (neither open wait is a day old).
    expect(stats).toEqual({
      meta: expect.objectContaining({
        basis: 'message_time',
        listings: 4,
        definitions: expect.arrayContaining(['response_time']),
      }),
      waits: 8,
      answered: 6,
      unanswered: 2,
      medianMinutes: 82.5,
      meanMinutes: 366.7,
      p90Minutes: 990,
      withinHourShare: 0.4286,
      withinDayShare: 1,
      automatedFirst: 2,
      nullReasons: {},
    });
    expect(stats.meta.notes.join(' ')).toMatch(/2 of the waits got an automated message/);
  });

  it('counts automated messages as answers only when asked', async () => {
    const stats = await world.domain.analytics.getResponseTimeStats(world.fixture.account.owner, {
      ...march,
      countAutomatedReplies: true,
    });
    // W2 is answered after 1800 s and W7 after 60 s: 60, 600, 1800, 2700, 2700, 7200.
    // Median (1800 + 2700) / 2 = 2250 s = 37.5 min; mean 15060 / 6 = 2510 s = 41.8 min;
    // p90 2700 + 0.5 × 4500 = 4950 s = 82.5 min; within 1 h 5 of 7.
    expect(stats).toMatchObject({
      answered: 6,
      medianMinutes: 37.5,
      meanMinutes: 41.8,
      p90Minutes: 82.5,
      withinHourShare: 0.7143,
      withinDayShare: 1,
    });
  });

  it('breaks the measures down by channel, stage, local hour, weekday and listing', async () => {
    const breakdown = await world.domain.analytics.getResponseTimeBreakdown(world.fixture.account.owner, {
      ...march,
      listingLimit: 2,
    });
    expect(breakdown.overall).toMatchObject({ waits: 8, medianMinutes: 82.5 });
    // Direct: W1–W6, answered 600, 2700, 2700, 7200, 32400 (median 2700 s = 45 min); airbnb: W7; vrbo: W8.
    expect(
      breakdown.byChannel.map(({ channel, waits, answered, medianMinutes }) => [
        channel,
        waits,
        answered,
        medianMinutes,
      ]),
    ).toEqual([
      ['airbnb', 1, 1, 1440],
      ['direct', 6, 5, 45],
      ['vrbo', 1, 0, null],
    ]);
    // Inquiry: W5, W6, W7 (answered 600, 86400: median 43500 s = 725 min); booked: W1–W4, W8.
    expect(breakdown.byStage.map(({ stage, waits, medianMinutes }) => [stage, waits, medianMinutes])).toEqual(
      [
        ['inquiry', 3, 725],
        ['booked', 5, 82.5],
      ],
    );
    expect(breakdown.byHour).toHaveLength(24);
    expect(breakdown.byHour.filter((hour) => hour.waits > 0).map(({ hour, waits }) => [hour, waits])).toEqual(
      [
        [1, 1],
        [6, 1],
        [8, 2],
        [9, 1],
        [11, 2],
        [23, 1],
      ],
    );
    expect(breakdown.byWeekday.map(({ weekday, waits }) => [weekday, waits])).toEqual([
      ['Monday', 4],
      ['Tuesday', 1],
      ['Wednesday', 0],
      ['Thursday', 0],
      ['Friday', 0],
      ['Saturday', 1],
      ['Sunday', 2],
    ]);
    expect(breakdown.byWeekday[2]).toMatchObject({
      waits: 0,
      medianMinutes: null,
      withinHourShare: null,
      nullReasons: expect.objectContaining({
        medianMinutes: 'no_guest_messages',
        withinHourShare: 'no_guest_messages',
      }),
    });
    // Slowest first: Lisbon has no answer at all; Berlin's median (2700 + 32400) / 2 = 17550 s = 292.5 min;
    // Boston's (2700 + 7200) / 2 = 82.5 min is cut by listingLimit 2.
    expect(breakdown.byListing).toEqual([
      { listingId: world.fixture.listings.lisbon, listingName: 'Lisbon Flat', ...unansweredOnly(1, false) },
      expect.objectContaining({
        listingId: world.fixture.listings.berlin,
        listingName: 'Berlin Loft',
        waits: 2,
        medianMinutes: 292.5,
      }),
    ]);
    expect(breakdown.listingsTruncated).toBe(true);
    expect(breakdown.meta.notes.join(' ')).toMatch(/2 slowest of 3 listings/);
  });

  it('filters waits by listing group and channel', async () => {
    const stats = await world.domain.analytics.getResponseTimeStats(world.fixture.account.owner, {
      ...march,
      listingGroupId: world.fixture.groups.lisbon,
    });
    expect(stats).toMatchObject({ ...unansweredOnly(1, false), automatedFirst: 0 });
    const airbnb = await world.domain.analytics.getResponseTimeStats(world.fixture.account.owner, {
      ...march,
      channel: 'airbnb',
    });
    expect(airbnb).toMatchObject({ waits: 1, medianMinutes: 1440, withinHourShare: 0, withinDayShare: 1 });
  });
});

describe.each(testDatabaseKinds)('guest waits kept by message writes on %s', (kind) => {
  let handle: DatabaseHandle;
  let fixture: GuestFixture;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    fixture = await buildGuestFixture(handle.db);
  }, 180_000);
  afterAll(async () => handle?.close());

  it('stays equal to a rebuild through host replies, automated messages and new guest messages', async () => {
    const clock: Clock = { now: () => fixture.now };
    // A server that emails: the direct guest below (who has an address) gets the replies; the Vrbo guest of s4
    // cannot, so the host's reply there is not_delivered.
    const domain = createPostgresDomain({ db: handle.db, clock, emailDelivery: true });
    const { owner } = fixture.account;
    const created = await domain.reservations.create(owner, {
      listingId: fixture.listings.berlin,
      startDate: '2026-04-06',
      endDate: '2026-04-08',
      guest: { firstName: 'Mara', lastName: 'Lind', email: 'mara@example.test' },
      adults: 2,
      status: 'accepted',
      guestPrice: 200,
    });
    // A guest writes a minute before "now", as a channel sync would record it.
    await handle.db
      .insertInto('messages')
      .values({
        id: newId('message'),
        account_id: owner.accountId,
        reservation_id: created.id,
        sender: 'guest',
        body: 'When can we check in?',
        sent_at: '2026-03-16T11:59:00Z',
        message_rule_id: null,
        author_user_id: null,
        delivery_status: 'received',
      })
      .execute();
    await refreshGuestWaits(handle.db, [created.id]);
    await domain.messageRules.create(owner, {
      name: 'Welcome',
      trigger: 'booking_confirmed',
      body: 'Welcome!',
    });
    expect(await createMessageRuleRunner({ db: handle.db, clock, emailDelivery: true }).runDue()).toEqual({
      sent: 1,
      skipped: 0,
    });
    const automated = await handle.db
      .selectFrom('guest_waits')
      .select(['response_seconds', 'automated_seconds'])
      .where('reservation_id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(automated).toEqual({ response_seconds: null, automated_seconds: 60 });
    await domain.messages.send(owner, { reservationId: created.id, body: 'From 3 pm.' });
    await domain.messages.send(owner, { reservationId: fixture.stays.s4 ?? '', body: 'Happy to help.' });

    const afterWrites = await snapshotWaits(handle.db, owner.accountId);
    // The new wait answered after 60 s (the automated message went out with the reply, so not before it);
    // W8 in Lisbon stays unanswered: the reply never reached the Vrbo guest.
    expect(afterWrites.find((wait) => wait.reservation_id === created.id)).toMatchObject({
      response_seconds: 60,
      automated_seconds: null,
    });
    expect(afterWrites.find((wait) => wait.reservation_id === fixture.stays.s4)).toMatchObject({
      response_seconds: null,
    });
    await rebuildGuestWaits(handle.db, owner.accountId);
    expect(await snapshotWaits(handle.db, owner.accountId)).toEqual(afterWrites);
  });
});
