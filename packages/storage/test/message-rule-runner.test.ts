import type {
  Channel,
  Clock,
  CreateMessageRuleInput,
  MessageRuleRunner,
  MessageRuleUseCases,
} from '@innkeep/domain';
import { newId, renderTemplate, type TemplateFacts } from '@innkeep/domain';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/connection.ts';
import type { Database } from '../src/database.ts';
import { createMessageRuleRunner } from '../src/messages/message-rule-runner.ts';
import { createMessageRuleUseCases } from '../src/messages/message-rules.store.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';
import { createTestAccount, createTestListing, type TestAccount } from './support/fixtures.ts';

const facts: TemplateFacts = {
  guestFirstName: 'Aiko',
  guestLastName: 'Tanaka',
  adults: 2,
  children: 1,
  listingName: 'Harbor Loft',
  listingAddress: '12 Water St',
  listingCity: 'Portland',
  countryCode: 'US',
  startDate: '2026-07-03',
  endDate: '2026-07-07',
  checkInHour: 16,
  checkOutHour: 11,
  confirmationCode: 'HMABC123',
  accessCode: null,
  channel: 'booking',
  guestPriceMinor: 123_450,
  currency: 'USD',
  hostFirstName: 'Olivia',
};

describe('renderTemplate', () => {
  it('fills every variable with US formats for a US listing', () => {
    const text =
      '{{guest_first_name}}|{{guest_last_name}}|{{ guest_full_name }}|{{guests}}|{{listing_name}}|' +
      '{{listing_address}}|{{listing_city}}|{{check_in_date}}|{{check_out_date}}|{{check_in_time}}|' +
      '{{check_out_time}}|{{nights}}|{{confirmation_code}}|{{channel}}|{{total_price}}|{{host_first_name}}';
    // 2026-07-03 is a Friday (2026-01-01 was a Thursday; 183 days later).
    expect(renderTemplate(text, facts)).toBe(
      'Aiko|Tanaka|Aiko Tanaka|3|Harbor Loft|12 Water St|Portland|Friday, July 3, 2026|' +
        'Tuesday, July 7, 2026|4 PM|11 AM|4|HMABC123|Booking.com|USD 1,234.50|Olivia',
    );
  });

  it('uses day-first dates and 24-hour times elsewhere, and whole units for yen', () => {
    const text = '{{check_in_date}} {{check_in_time}} {{check_out_time}} {{total_price}}';
    expect(
      renderTemplate(text, {
        ...facts,
        countryCode: 'JP',
        checkInHour: 0,
        currency: 'JPY',
        guestPriceMinor: 45_000,
      }),
    ).toBe('Friday, 3 July 2026 00:00 11:00 JPY 45,000');
    expect(renderTemplate('{{check_in_time}}', { ...facts, checkInHour: 12 })).toBe('12 PM');
    expect(renderTemplate('{{check_in_time}}', { ...facts, checkInHour: 0 })).toBe('12 AM');
  });

  it('writes a clear text instead of a gap for missing facts', () => {
    expect(renderTemplate('Code: {{access_code}}', facts)).toBe('Code: (your access code will follow)');
    expect(renderTemplate('Code: {{access_code}}', { ...facts, accessCode: '4711' })).toBe('Code: 4711');
    expect(
      renderTemplate('Hi {{guest_first_name}} / {{guest_full_name}}, {{host_first_name}}', {
        ...facts,
        guestFirstName: ' ',
        guestLastName: '',
        hostFirstName: '',
      }),
    ).toBe('Hi Guest / Guest, Your host');
    expect(renderTemplate('{{guest_full_name}}', { ...facts, guestFirstName: '' })).toBe('Tanaka');
  });

  it('leaves text without known placeholders alone', () => {
    expect(renderTemplate('Hi {{ nobody }} {single}', facts)).toBe('Hi {{ nobody }} {single}');
  });
});

/** A stay's facts for the runner tests; Tokyo has no daylight saving, so JST is always UTC+9. */
interface StayOptions {
  readonly status?: 'inquiry' | 'accepted' | 'cancelled';
  readonly startDate: string;
  readonly endDate: string;
  readonly channel?: Channel;
  readonly inquiryAt?: string;
  readonly confirmedAt?: string;
  readonly cancelledAt?: string;
  readonly listingId?: string;
}

describe.each(testDatabaseKinds)('message rule runner on %s', (kind) => {
  let handle: DatabaseHandle;
  let db: Kysely<Database>;
  let account: TestAccount;
  let rules: MessageRuleUseCases;
  let runner: MessageRuleRunner;
  let tokyo: string;
  let osaka: string;

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    db = handle.db;
    const clock: Clock = { now: () => new Date('2020-01-01T00:00:00Z') };
    rules = createMessageRuleUseCases({ db, clock });
    // With email delivery on, the direct guests below (who have an address) get their messages queued.
    runner = createMessageRuleRunner({ db, clock, emailDelivery: true });
    account = await createTestAccount(db, { timeZone: 'Asia/Tokyo', currency: 'JPY' });
  }, 180_000);

  // Fresh listings per case, with every rule scoped to them, so one case's rules never reach another's stays.
  beforeEach(async () => {
    const listing = {
      city: 'Tokyo',
      country_code: 'JP',
      time_zone: 'Asia/Tokyo',
      currency: 'JPY',
      check_in_time: 15,
      check_out_time: 10,
    };
    tokyo = await createTestListing(db, account.accountId, { ...listing, name: 'Shibuya Flat' });
    osaka = await createTestListing(db, account.accountId, { ...listing, name: 'Namba House' });
  });

  afterAll(async () => {
    await handle?.close();
  });

  async function addStay(options: StayOptions): Promise<string> {
    const id = newId('reservation');
    const status = options.status ?? 'accepted';
    await db
      .insertInto('reservations')
      .values({
        id,
        account_id: account.accountId,
        listing_id: options.listingId ?? tokyo,
        channel: options.channel ?? 'direct',
        confirmation_code: `DIR-${id.slice(-8)}`,
        status,
        cancelled_by: status === 'cancelled' ? 'guest' : null,
        guest_first_name: 'Aiko',
        guest_last_name: 'Tanaka',
        guest_email: 'aiko@example.test',
        start_date: options.startDate,
        end_date: options.endDate,
        currency: 'JPY',
        accommodation_minor: 40_000,
        guest_price_minor: 45_000,
        host_payout_minor: 40_000,
        inquiry_at: options.inquiryAt === undefined ? null : new Date(options.inquiryAt),
        confirmed_at: options.confirmedAt === undefined ? null : new Date(options.confirmedAt),
        cancelled_at: options.cancelledAt === undefined ? null : new Date(options.cancelledAt),
        created_at: new Date('2026-01-01T00:00:00Z'),
      })
      .execute();
    return id;
  }

  async function addRule(input: CreateMessageRuleInput): Promise<string> {
    return (await rules.create(account.owner, input)).id;
  }

  async function sentTo(reservationId: string) {
    return db
      .selectFrom('messages')
      .select(['body', 'sender', 'message_rule_id', 'delivery_status', 'sent_at'])
      .where('reservation_id', '=', reservationId)
      .orderBy('sent_at')
      .execute();
  }

  const minute = 60_000;
  const at = (iso: string, deltaMs = 0) => new Date(Date.parse(iso) + deltaMs);

  /** Runs just before `due` (nothing), just after (one message), and again (still one). */
  async function expectSentOnceAt(reservationId: string, ruleId: string, due: string, body: string) {
    await runner.runDue({ now: at(due, -minute) });
    expect(await sentTo(reservationId)).toEqual([]);
    await runner.runDue({ now: at(due, minute) });
    await runner.runDue({ now: at(due, 2 * minute) });
    expect(await sentTo(reservationId)).toEqual([
      {
        body,
        sender: 'automation',
        message_rule_id: ruleId,
        delivery_status: 'queued',
        sent_at: at(due, minute),
      },
    ]);
  }

  // Each case lives in its own weeks, more than a lookback apart, so one case's runs never send another's.

  it('check_in: the day before at the listing check-in hour, rendered', async () => {
    const stay = await addStay({
      startDate: '2027-01-04',
      endDate: '2027-01-07',
      confirmedAt: '2026-12-01T00:00:00Z',
    });
    const rule = await addRule({
      name: 'Arrival',
      trigger: 'check_in',
      offsetDays: -1,
      body: 'Hi {{guest_first_name}}, see you at {{listing_name}} on {{check_in_date}} from {{check_in_time}}. Code: {{access_code}}',
      listingIds: [tokyo],
    });
    // 2027-01-03 15:00 JST = 06:00 UTC; 2027-01-04 is a Monday (2027-01-01 is a Friday).
    await expectSentOnceAt(
      stay,
      rule,
      '2027-01-03T06:00:00Z',
      'Hi Aiko, see you at Shibuya Flat on Monday, 4 January 2027 from 15:00. Code: (your access code will follow)',
    );
  });

  it('check_out: the check-out day at the listing check-out hour', async () => {
    const stay = await addStay({
      startDate: '2027-02-01',
      endDate: '2027-02-04',
      confirmedAt: '2026-12-01T00:00:00Z',
    });
    const rule = await addRule({
      name: 'Departure',
      trigger: 'check_out',
      body: 'Please leave by {{check_out_time}}.',
      listingIds: [tokyo],
    });
    // 2027-02-04 10:00 JST = 01:00 UTC.
    await expectSentOnceAt(stay, rule, '2027-02-04T01:00:00Z', 'Please leave by 10:00.');
  });

  it('during_stay: days after check-in at 10:00, and only within the stay', async () => {
    const stay = await addStay({
      startDate: '2027-03-01',
      endDate: '2027-03-04',
      confirmedAt: '2026-12-01T00:00:00Z',
    });
    const rule = await addRule({
      name: 'Checking in on you',
      trigger: 'during_stay',
      offsetDays: 1,
      body: 'All good at {{listing_name}}?',
      listingIds: [tokyo],
    });
    await addRule({
      name: 'Never',
      trigger: 'during_stay',
      offsetDays: 3,
      body: 'On check-out day: not during the stay.',
      listingIds: [tokyo],
    });
    // 2027-03-02 10:00 JST = 01:00 UTC.
    await expectSentOnceAt(stay, rule, '2027-03-02T01:00:00Z', 'All good at Shibuya Flat?');
    // The third day after check-in is the check-out day itself.
    await runner.runDue({ now: new Date('2027-03-04T01:01:00Z') });
    expect((await sentTo(stay)).map((message) => message.message_rule_id)).toEqual([rule]);
  });

  it('review_request: days after check-out at the rule send time', async () => {
    const stay = await addStay({
      startDate: '2027-04-01',
      endDate: '2027-04-03',
      confirmedAt: '2026-12-01T00:00:00Z',
    });
    const rule = await addRule({
      name: 'Review',
      trigger: 'review_request',
      offsetDays: 1,
      sendTime: '18:30',
      body: 'Thanks {{guest_full_name}}!',
      listingIds: [tokyo],
    });
    // 2027-04-04 18:30 JST = 09:30 UTC.
    await expectSentOnceAt(stay, rule, '2027-04-04T09:30:00Z', 'Thanks Aiko Tanaka!');
  });

  it('booking_confirmed: days after confirmation, at the send time when it has one', async () => {
    const stay = await addStay({
      startDate: '2027-06-01',
      endDate: '2027-06-05',
      confirmedAt: '2027-05-01T00:00:00Z',
    });
    const soon = await addRule({
      name: 'Thanks',
      trigger: 'booking_confirmed',
      body: 'Booked: {{confirmation_code}}, {{total_price}}.',
      listingIds: [tokyo],
    });
    // Confirmed 2027-05-01 09:00 JST; +2 days on the local clock → 2027-05-03 09:00 JST, then 18:00.
    const later = await addRule({
      name: 'Tips',
      trigger: 'booking_confirmed',
      offsetDays: 2,
      sendTime: '18:00',
      body: 'Tips for {{listing_city}}.',
      listingIds: [tokyo],
    });
    const code = `DIR-${stay.slice(-8)}`;
    await expectSentOnceAt(stay, soon, '2027-05-01T00:00:00Z', `Booked: ${code}, JPY 45,000.`);
    await runner.runDue({ now: new Date('2027-05-03T08:59:00Z') });
    expect(await sentTo(stay)).toHaveLength(1);
    await runner.runDue({ now: new Date('2027-05-03T09:01:00Z') });
    expect((await sentTo(stay)).map((message) => [message.message_rule_id, message.body])).toEqual([
      [soon, `Booked: ${code}, JPY 45,000.`],
      [later, 'Tips for Tokyo.'],
    ]);
  });

  it('inquiry and cancelled: after the event, only in the matching status', async () => {
    const asked = await addStay({
      status: 'inquiry',
      startDate: '2027-08-01',
      endDate: '2027-08-03',
      inquiryAt: '2027-07-01T03:00:00Z',
    });
    const gone = await addStay({
      status: 'cancelled',
      startDate: '2027-09-01',
      endDate: '2027-09-03',
      confirmedAt: '2027-06-01T00:00:00Z',
      cancelledAt: '2027-07-10T05:00:00Z',
    });
    const inquiry = await addRule({
      name: 'Inquiry',
      trigger: 'inquiry',
      body: 'Thanks for asking about {{check_in_date}}.',
      listingIds: [tokyo],
    });
    const cancelled = await addRule({
      name: 'Cancelled',
      trigger: 'cancelled',
      offsetDays: 1,
      body: 'Sorry to see you go, {{guest_first_name}}.',
      listingIds: [tokyo],
    });
    await expectSentOnceAt(
      asked,
      inquiry,
      '2027-07-01T03:00:00Z',
      'Thanks for asking about Sunday, 1 August 2027.',
    );
    await expectSentOnceAt(gone, cancelled, '2027-07-11T05:00:00Z', 'Sorry to see you go, Aiko.');
  });

  it('never sends what came due more than 24 hours ago', async () => {
    const old = await addStay({
      startDate: '2027-10-05',
      endDate: '2027-10-08',
      confirmedAt: '2026-12-01T00:00:00Z',
    });
    const recent = await addStay({
      startDate: '2027-10-06',
      endDate: '2027-10-08',
      confirmedAt: '2026-12-01T00:00:00Z',
    });
    await addRule({ name: 'Arrival', trigger: 'check_in', body: 'Welcome.', listingIds: [tokyo] });
    // Due 2027-10-05 06:00 UTC and 2027-10-06 06:00 UTC; now is 25 and 1 hours after them.
    await runner.runDue({ now: new Date('2027-10-06T07:00:00Z') });
    expect(await sentTo(old)).toEqual([]);
    expect((await sentTo(recent)).map((message) => message.body)).toEqual(['Welcome.']);
  });

  it('sends nothing for paused rules, other listings, other channels or other statuses', async () => {
    const direct = await addStay({
      startDate: '2027-11-10',
      endDate: '2027-11-12',
      confirmedAt: '2026-12-01T00:00:00Z',
    });
    const airbnb = await addStay({
      startDate: '2027-11-10',
      endDate: '2027-11-12',
      channel: 'airbnb',
      confirmedAt: '2026-12-01T00:00:00Z',
    });
    const inOsaka = await addStay({
      startDate: '2027-11-10',
      endDate: '2027-11-12',
      listingId: osaka,
      confirmedAt: '2026-12-01T00:00:00Z',
    });
    const stillAsking = await addStay({ status: 'inquiry', startDate: '2027-11-10', endDate: '2027-11-12' });
    const paused = await addRule({ name: 'Paused', trigger: 'check_in', body: 'Paused.' });
    await rules.pause(account.owner, { ruleId: paused });
    const airbnbOnly = await addRule({
      name: 'Airbnb only',
      trigger: 'check_in',
      body: 'Airbnb.',
      channels: ['airbnb'],
      listingIds: [tokyo],
    });
    const osakaOnly = await addRule({
      name: 'Osaka only',
      trigger: 'check_in',
      body: 'Osaka.',
      listingIds: [osaka],
    });
    await runner.runDue({ now: new Date('2027-11-10T06:01:00Z') });
    expect(await sentTo(direct)).toEqual([]);
    expect(await sentTo(stillAsking)).toEqual([]);
    expect((await sentTo(airbnb)).map((message) => message.message_rule_id)).toEqual([airbnbOnly]);
    expect((await sentTo(inOsaka)).map((message) => message.message_rule_id)).toEqual([osakaOnly]);
  });

  it('sends the last-minute text right away when the booking came after the check-in message', async () => {
    // Regular moment: 2028-01-09 15:00 JST = 06:00 UTC; booked later, at 11:00 UTC.
    const late = await addStay({
      startDate: '2028-01-10',
      endDate: '2028-01-12',
      confirmedAt: '2028-01-09T11:00:00Z',
    });
    const early = await addStay({
      startDate: '2028-01-10',
      endDate: '2028-01-12',
      confirmedAt: '2027-12-01T00:00:00Z',
    });
    const rule = await addRule({
      name: 'Arrival',
      trigger: 'check_in',
      offsetDays: -1,
      body: 'Regular {{guest_first_name}}.',
      lastMinuteBody: 'Last minute {{guest_first_name}}!',
      listingIds: [tokyo],
    });
    await runner.runDue({ now: new Date('2028-01-09T06:01:00Z') });
    expect(await sentTo(late)).toEqual([]);
    expect((await sentTo(early)).map((message) => message.body)).toEqual(['Regular Aiko.']);
    await expectSentOnceAt(late, rule, '2028-01-09T11:00:00Z', 'Last minute Aiko!');
  });

  it('sends each message once when runs overlap, and no more than the limit per run', async () => {
    const stays = [];
    for (let index = 0; index < 3; index += 1) {
      stays.push(
        await addStay({
          startDate: '2028-03-01',
          endDate: '2028-03-03',
          confirmedAt: '2027-12-01T00:00:00Z',
        }),
      );
    }
    await addRule({ name: 'Arrival', trigger: 'check_in', body: 'Welcome.', listingIds: [tokyo] });
    const now = new Date('2028-03-01T06:01:00Z');
    const first = await runner.runDue({ now, limit: 2 });
    expect(first).toEqual({ sent: 2, skipped: 0 });
    const overlapping = await Promise.all([runner.runDue({ now }), runner.runDue({ now })]);
    expect(overlapping.reduce((total, result) => total + result.sent, 0)).toBe(1);
    expect(await runner.runDue({ now })).toEqual({ sent: 0, skipped: 0 });
    for (const stay of stays) expect(await sentTo(stay)).toHaveLength(1);
  });

  it('allows one automated message per reservation and rule in the schema itself', async () => {
    const stay = await addStay({
      startDate: '2028-05-01',
      endDate: '2028-05-03',
      confirmedAt: '2027-12-01T00:00:00Z',
    });
    const rule = await addRule({
      name: 'Arrival',
      trigger: 'check_in',
      body: 'Welcome.',
      listingIds: [tokyo],
    });
    // What protects overlapping runners on several instances: the second copy cannot be stored.
    await expect(
      db
        .insertInto('messages')
        .values(
          [1, 2].map(() => ({
            id: newId('message'),
            account_id: account.accountId,
            reservation_id: stay,
            sender: 'automation',
            body: 'Welcome.',
            sent_at: new Date('2028-05-01T06:00:00Z'),
            message_rule_id: rule,
            author_user_id: null,
            delivery_status: 'sent',
          })),
        )
        .execute(),
    ).rejects.toThrow();
    expect(await sentTo(stay)).toEqual([]);
  });
});
