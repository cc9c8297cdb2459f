import type { Channel } from '@innkeep/domain';
import { newId } from '@innkeep/domain';
import type { Kysely } from 'kysely';
import { rebuildGuestWaits } from '../../src/analytics/guest-waits.ts';
import { rebuildStayNightFacts } from '../../src/analytics/stay-night-facts.ts';
import type { Database } from '../../src/database.ts';
import { type AnalyticsFixture, buildAnalyticsFixture, insertStay } from './analytics-fixture.ts';

// Guest-side rows on top of the analytics fixture, written directly with hand-chosen timestamps so tests can
// state response times, review figures and listed prices by hand. Fixture "now" is 2026-03-16T12:00Z.

/** The analytics fixture plus the ids the guest and pricing tests refer to. */
export interface GuestFixture extends AnalyticsFixture {
  /** s20: Berlin, airbnb, accepted 2026-03-13→03-15, rent 9500 × 2, never reviewed. */
  readonly extraStay: string;
  readonly reviews: Readonly<Record<'r1' | 'r2' | 'r3' | 'r4' | 'r5' | 'r6', string>>;
  readonly groups: Readonly<Record<'cities' | 'lisbon' | 'empty', string>>;
  readonly rules: Readonly<Record<'weekend' | 'orphan' | 'berlinEvent' | 'lastMinute', string>>;
}

type Sender = 'guest' | 'host' | 'automation' | 'system';

/**
 * The analytics fixture with messages, reviews, per-date prices, pricing rules and listing groups. Every
 * figure below is what the tests expect; times are UTC unless marked local.
 *
 * Extra stay s20: Berlin, airbnb, accepted, 2026-03-13→03-15, rent 9500 × 2, created 2026-03-02 08:00.
 *
 * Messages (threads are reservations) — the waits, by the local date of their first guest message:
 * - s1 (Berlin, airbnb): guest 02-20 09:00, host 09:30 → a February wait of 1800 s.
 * - s2 (Berlin, direct, confirmed 03-01 09:00): guest 03-01 10:00 and 10:20 (one wait), system 10:10 (ignored),
 *   host 10:45 → W1 2700 s, booked, Sunday 11:00 local. Guest 03-02 22:30 (Monday 23:30 local), automation
 *   23:00, host 03-03 07:30 → W2 32400 s, automated after 1800 s.
 * - s7 (Boston, direct, confirmed 03-06 23:30): guest 03-08 06:30 (Sunday 01:30 EST), host 07:15 (03:15 EDT,
 *   after the clocks went forward) → W3 2700 s, not the 6300 s the wall clock suggests. Guest 03-09 13:00
 *   (Monday 09:00 EDT), host 15:00 → W4 7200 s.
 * - s9 (Boston, direct inquiry, never confirmed): guest 03-10 12:00 (Tuesday 08:00), host 12:10 → W5 600 s,
 *   inquiry. Guest 03-16 10:00 (Monday 06:00), no answer → W6, unanswered, two hours old at "now".
 * - s11 (Boston, airbnb, pending): guest 03-14 12:05 (Saturday 08:05), automation 12:06, host 03-15 12:05 →
 *   W7 86400 s (exactly a day), inquiry, automated after 60 s.
 * - s4 (Lisbon, vrbo): guest 03-16 11:30 (Monday 11:30 local) → W8, unanswered, half an hour old.
 *
 * Reviews:
 * - r1 Berlin s1 airbnb, 03-05 10:00, 5★, every category 5, answered 16:00 (6 h).
 * - r2 Berlin s2 direct, 03-14 22:30 (23:30 local), 4★: cleanliness 3, accuracy 4, check-in 5,
 *   communication 5, location 4, value none; unanswered.
 * - r3 Boston s7 direct, 04-01 02:00 (03-31 22:00 local: March by local date), 2★, cleanliness 1; unanswered.
 * - r4 Berlin s12 airbnb, 2025-03-20 10:00, 3★; unanswered (last year).
 * - r5 Cabin, no stay, booking, 03-10 08:00, 3★, no categories; answered 03-12 08:00 (48 h).
 * - r6 Berlin, no stay, vrbo, 02-28 23:30 (03-01 00:30 local: March), 5★, location 5; unanswered.
 *
 * Per-date prices (Berlin): 03-03 120.00 (open), 03-11 95.00 (sold, s2), 03-21 110.00 (open).
 *
 * Pricing rules, in order: weekend +10 % (Fri, Sat nights); orphan gaps of ≤ 2 nights −20 %; Berlin only,
 * 03-20 to 03-22, +15.00; last-minute, today and the next 2 days, −5 %.
 *
 * Listing groups: "Cities" (Berlin, Boston), "Lisbon" (Lisbon), "Empty" (none).
 */
export async function buildGuestFixture(db: Kysely<Database>): Promise<GuestFixture> {
  const base = await buildAnalyticsFixture(db);
  const { account, listings, stays } = base;
  const { accountId } = account;

  const extraStay = await insertStay(db, account, {
    listingId: listings.berlin,
    channel: 'airbnb',
    startDate: '2026-03-13',
    endDate: '2026-03-15',
    nightly: [9_500, 9_500],
    createdAt: '2026-03-02T08:00:00.000Z',
  });
  await rebuildStayNightFacts(db, accountId);

  const message = (reservationId: string | undefined, sender: Sender, sentAt: string) => ({
    id: newId('message'),
    account_id: accountId,
    reservation_id: reservationId ?? '',
    sender,
    body: `${sender} message`,
    sent_at: sentAt,
    message_rule_id: null,
    author_user_id: null,
    delivery_status: sender === 'guest' ? 'received' : 'sent',
  });
  await db
    .insertInto('messages')
    .values([
      message(stays.s1, 'guest', '2026-02-20T09:00:00Z'),
      message(stays.s1, 'host', '2026-02-20T09:30:00Z'),
      message(stays.s2, 'guest', '2026-03-01T10:00:00Z'),
      message(stays.s2, 'system', '2026-03-01T10:10:00Z'),
      message(stays.s2, 'guest', '2026-03-01T10:20:00Z'),
      message(stays.s2, 'host', '2026-03-01T10:45:00Z'),
      message(stays.s2, 'guest', '2026-03-02T22:30:00Z'),
      message(stays.s2, 'automation', '2026-03-02T23:00:00Z'),
      message(stays.s2, 'host', '2026-03-03T07:30:00Z'),
      message(stays.s7, 'guest', '2026-03-08T06:30:00Z'),
      message(stays.s7, 'host', '2026-03-08T07:15:00Z'),
      message(stays.s7, 'guest', '2026-03-09T13:00:00Z'),
      message(stays.s7, 'host', '2026-03-09T15:00:00Z'),
      message(stays.s9, 'guest', '2026-03-10T12:00:00Z'),
      message(stays.s9, 'host', '2026-03-10T12:10:00Z'),
      message(stays.s9, 'guest', '2026-03-16T10:00:00Z'),
      message(stays.s11, 'guest', '2026-03-14T12:05:00Z'),
      message(stays.s11, 'automation', '2026-03-14T12:06:00Z'),
      message(stays.s11, 'host', '2026-03-15T12:05:00Z'),
      message(stays.s4, 'guest', '2026-03-16T11:30:00Z'),
    ])
    .execute();
  await rebuildGuestWaits(db, accountId);

  const review = (
    listingId: string,
    reservationId: string | null,
    channel: Channel,
    submittedAt: string,
    overall: number,
    extra: Partial<{
      cleanliness_rating: number;
      accuracy_rating: number;
      check_in_rating: number;
      communication_rating: number;
      location_rating: number;
      value_rating: number;
      host_response: string;
      responded_at: Date;
    }> = {},
  ) => ({
    id: newId('review'),
    account_id: accountId,
    listing_id: listingId,
    reservation_id: reservationId,
    channel,
    overall_rating: overall,
    public_text: 'A stay.',
    submitted_at: submittedAt,
    ...extra,
  });
  const allFives = {
    cleanliness_rating: 5,
    accuracy_rating: 5,
    check_in_rating: 5,
    communication_rating: 5,
    location_rating: 5,
    value_rating: 5,
  };
  const reviewRows = {
    r1: review(listings.berlin, stays.s1 ?? null, 'airbnb', '2026-03-05T10:00:00Z', 5, {
      ...allFives,
      host_response: 'Thank you!',
      responded_at: new Date('2026-03-05T16:00:00Z'),
    }),
    r2: review(listings.berlin, stays.s2 ?? null, 'direct', '2026-03-14T22:30:00Z', 4, {
      cleanliness_rating: 3,
      accuracy_rating: 4,
      check_in_rating: 5,
      communication_rating: 5,
      location_rating: 4,
    }),
    r3: review(listings.boston, stays.s7 ?? null, 'direct', '2026-04-01T02:00:00Z', 2, {
      cleanliness_rating: 1,
    }),
    r4: review(listings.berlin, stays.s12 ?? null, 'airbnb', '2025-03-20T10:00:00Z', 3),
    r5: review(listings.cabin, null, 'booking', '2026-03-10T08:00:00Z', 3, {
      host_response: 'Sorry to hear that.',
      responded_at: new Date('2026-03-12T08:00:00Z'),
    }),
    r6: review(listings.berlin, null, 'vrbo', '2026-02-28T23:30:00Z', 5, { location_rating: 5 }),
  };
  await db.insertInto('reviews').values(Object.values(reviewRows)).execute();

  await db
    .insertInto('calendar_days')
    .values([
      { listing_id: listings.berlin, date: '2026-03-03', price_minor: 12_000, min_nights: null, note: null },
      { listing_id: listings.berlin, date: '2026-03-11', price_minor: 9_500, min_nights: null, note: null },
      { listing_id: listings.berlin, date: '2026-03-21', price_minor: 11_000, min_nights: null, note: null },
    ])
    .execute();

  const rule = (
    position: number,
    fields: Partial<{
      listing_ids: string[];
      adjustment_kind: 'percent' | 'fixed';
      days_of_week: number[];
      start_date: string;
      end_date: string;
      last_minute_days: number;
      orphan_gap_max_nights: number;
    }> & { adjustment_amount: number },
  ) => ({
    id: newId('pricingRule'),
    account_id: accountId,
    name: `Rule ${position}`,
    position,
    listing_ids: null,
    adjustment_kind: 'percent',
    days_of_week: null,
    start_date: null,
    end_date: null,
    last_minute_days: null,
    orphan_gap_max_nights: null,
    ...fields,
  });
  const ruleRows = {
    weekend: rule(1, { days_of_week: [5, 6], adjustment_amount: 10 }),
    orphan: rule(2, { orphan_gap_max_nights: 2, adjustment_amount: -20 }),
    berlinEvent: rule(3, {
      listing_ids: [listings.berlin],
      adjustment_kind: 'fixed',
      adjustment_amount: 15,
      start_date: '2026-03-20',
      end_date: '2026-03-22',
    }),
    lastMinute: rule(4, { last_minute_days: 2, adjustment_amount: -5 }),
  };
  await db.insertInto('pricing_rules').values(Object.values(ruleRows)).execute();

  const group = async (name: string, members: string[]) => {
    const id = newId('listingGroup');
    await db
      .insertInto('listing_groups')
      .values({ id, account_id: accountId, name, owner_name: name === 'Lisbon' ? 'Ana Costa' : null })
      .execute();
    if (members.length > 0) {
      await db
        .insertInto('listing_group_members')
        .values(members.map((listingId) => ({ group_id: id, listing_id: listingId })))
        .execute();
    }
    return id;
  };
  const groups = {
    cities: await group('Cities', [listings.berlin, listings.boston]),
    lisbon: await group('Lisbon', [listings.lisbon]),
    empty: await group('Empty', []),
  };

  const idsOf = <Key extends string>(rows: Record<Key, { id: string }>) =>
    Object.fromEntries(Object.entries<{ id: string }>(rows).map(([key, row]) => [key, row.id])) as Record<
      Key,
      string
    >;
  return { ...base, extraStay, reviews: idsOf(reviewRows), groups, rules: idsOf(ruleRows) };
}
