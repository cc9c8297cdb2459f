import { demoLogin } from '@innkeep/demo';
import {
  addDays,
  builtInHelpArticles,
  type CalendarDay,
  type Clock,
  type Page,
  type Scope,
} from '@innkeep/domain';
import { fetchPageThatFits, maxToolCalendarDays } from '@innkeep/operations';
import { syncHelpArticles } from '@innkeep/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { invokeTool } from '../src/invoke-tool.ts';
import { readOnly, type ToolDefinition } from '../src/tool-definition.ts';
import { maxResultChars, type ToolCallResult } from '../src/tool-result.ts';
import { getAccountTool } from '../src/tools/accounts/get-account.tool.ts';
import { listAccountsTool } from '../src/tools/accounts/list-accounts.tool.ts';
import { getCalendarTool } from '../src/tools/calendar/get-calendar.tool.ts';
import { getQuoteTool } from '../src/tools/calendar/get-quote.tool.ts';
import { collectDateRangeTool } from '../src/tools/dates/collect-date-range.tool.ts';
import { getHelpArticleTool } from '../src/tools/help/get-help-article.tool.ts';
import { listHelpArticlesTool } from '../src/tools/help/list-help-articles.tool.ts';
import { getListingTool } from '../src/tools/listings/get-listing.tool.ts';
import { listListingsTool } from '../src/tools/listings/list-listings.tool.ts';
import { getMessageThreadTool } from '../src/tools/messages/get-message-thread.tool.ts';
import { readTools } from '../src/tools/read-tools.ts';
import { getReservationTool } from '../src/tools/reservations/get-reservation.tool.ts';
import { getReservationsTool } from '../src/tools/reservations/get-reservations.tool.ts';
import { getReviewsTool } from '../src/tools/reviews/get-reviews.tool.ts';
import { getMessageRulesTool } from '../src/tools/rules/get-message-rules.tool.ts';
import { getPricingRulesTool } from '../src/tools/rules/get-pricing-rules.tool.ts';
import { getUserTool } from '../src/tools/user/get-user.tool.ts';
import { toolErrorOf } from './support/tool-error.ts';
import { openToolWorld, type ToolWorld, worldToday } from './support/tool-world.ts';

/** The result's structured content checked against the tool's declared output schema. */
function output<Output extends z.ZodObject>(
  tool: ToolDefinition<z.ZodObject, Output>,
  result: ToolCallResult,
): z.output<Output> {
  expect(result.isError, JSON.stringify(result.structuredContent)).toBeUndefined();
  expect(JSON.parse(result.content[0]?.text ?? '')).toEqual(result.structuredContent);
  return tool.output.parse(result.structuredContent);
}

/** The tool error of a failed call, checked for its code. */
function failure(result: ToolCallResult, code: string) {
  const error = toolErrorOf(result);
  expect(error.code, error.message).toBe(code);
  return error;
}

const cents = (amount: number) => Math.round(amount * 100);
const sum = (amounts: readonly number[]) => amounts.reduce((total, amount) => total + cents(amount), 0);

describe('the read tools catalogue', () => {
  it('lists the sixteen read tools in order, with the scopes PRODUCT.md gives them, all read-only', () => {
    const expected: [string, Scope[]][] = [
      ['list_listings', ['listings:read']],
      ['get_listing', ['listings:read']],
      ['get_calendar', ['calendar:read']],
      ['get_reservations', ['reservations:read']],
      ['get_reservation', ['reservations:read']],
      ['get_quote', ['calendar:read']],
      ['get_message_thread', ['messages:read']],
      ['get_message_rules', ['messageRules:read']],
      ['get_pricing_rules', ['pricing:read']],
      ['get_reviews', ['reviews:read']],
      ['list_accounts', ['accounts:read']],
      ['get_account', ['accounts:read']],
      ['get_user', ['user:read']],
      ['list_help_articles', ['help:read']],
      ['get_help_article', ['help:read']],
      ['collect_date_range', []],
    ];
    expect(readTools.map((tool) => [tool.name, [...tool.scopes]])).toEqual(expected);
    for (const tool of readTools) expect(tool.annotations, tool.name).toEqual(readOnly);
  });

  it('describes every input field and caps list sizes at 100 for models', () => {
    let fields = 0;
    for (const tool of readTools) {
      const schema = z.toJSONSchema(tool.input, { io: 'input' }) as {
        properties?: Record<string, { description?: string; maximum?: number; default?: number }>;
      };
      for (const [field, property] of Object.entries(schema.properties ?? {})) {
        expect(property.description, `${tool.name}.${field}`).toBeTruthy();
        fields += 1;
      }
      const limit = schema.properties?.limit;
      if (limit !== undefined)
        expect([tool.name, limit.maximum, limit.default]).toEqual([tool.name, 100, 20]);
      expect(tool.description.length, tool.name).toBeGreaterThan(150);
    }
    expect(fields).toBeGreaterThan(40);
  });
});

describe('fetchPageThatFits', () => {
  const bigItem = (index: number) => ({ index, text: 'x'.repeat(5_000) });
  const fakeList = (total: number, asked: number[]) => async (limit: number) => {
    asked.push(limit);
    const items = Array.from({ length: Math.min(limit, total) }, (_, index) => bigItem(index));
    return { items, hasMore: total > limit, nextCursor: total > limit ? `after-${limit - 1}` : null };
  };

  it('asks for fewer items until the reply fits, keeping the page honest about what is left', async () => {
    const asked: number[] = [];
    const page = await fetchPageThatFits(100, fakeList(150, asked), (reply: Page<unknown>) => reply);
    expect(JSON.stringify(page).length).toBeLessThanOrEqual(maxResultChars);
    expect(page.items.length).toBeGreaterThan(10); // 5 KB items: well above 10 fit
    expect(page.items.length).toBeLessThan(20);
    expect(page.hasMore).toBe(true);
    expect(page.nextCursor).toBe(`after-${page.items.length - 1}`);
    expect(asked[0]).toBe(100);
    expect(asked).toEqual([...asked].sort((a, b) => b - a));
  });

  it('fetches once when the page already fits', async () => {
    const asked: number[] = [];
    const page = await fetchPageThatFits(10, fakeList(150, asked), (reply: Page<unknown>) => reply);
    expect(asked).toEqual([10]);
    expect(page.items).toHaveLength(10);
  });
});

describe('read tools on the demo account', () => {
  let world: ToolWorld;
  let listingIds: string[];

  beforeAll(async () => {
    world = await openToolWorld();
    await syncHelpArticles(world.database.db);
    const listings = output(listListingsTool, await world.call(listListingsTool, { limit: 100 }));
    listingIds = listings.items.map((listing) => listing.id);
  });

  afterAll(async () => {
    await world?.close();
  });

  const call = (tool: ToolDefinition, args: unknown) => world.call(tool, args);
  const firstListing = () => listingIds[0] ?? '';

  /** Every reservation of the filter, paged through with the tool itself. */
  async function allReservations(filter: Record<string, unknown>) {
    const items: z.output<typeof getReservationsTool.output>['items'] = [];
    let cursor: string | undefined;
    do {
      const page = output(
        getReservationsTool,
        await call(getReservationsTool, { ...filter, limit: 100, cursor }),
      );
      items.push(...page.items);
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    return items;
  }

  async function calendarOf(listingId: string, startDate: string, endDate: string) {
    return output(getCalendarTool, await call(getCalendarTool, { listingId, startDate, endDate }));
  }

  describe('get_calendar', () => {
    const start = worldToday;
    const end = addDays(worldToday, maxToolCalendarDays - 1); // 2026-09-14

    it('returns every date of a 92-day range, consecutive, with booked nights matching the reservations', async () => {
      const listingId = firstListing();
      const calendar = await calendarOf(listingId, start, end);
      const listing = output(getListingTool, await call(getListingTool, { listingId }));
      expect(calendar).toMatchObject({ listingId, currency: listing.currency, timeZone: listing.timeZone });
      expect(calendar.hasMore).toBe(false);
      expect(calendar.nextStartDate).toBeNull();
      expect(calendar.days).toHaveLength(92);
      calendar.days.forEach((day, index) => {
        expect(day.date).toBe(addDays(start, index));
      });

      const stays = await allReservations({
        listingId,
        startDate: start,
        endDate: end,
        statuses: ['accepted', 'pending'],
      });
      expect(stays.length).toBeGreaterThan(0);
      const byDate = new Map(calendar.days.map((day) => [day.date, day]));
      const heldBy = new Map<string, string>();
      for (const stay of stays) {
        for (let night = stay.startDate; night < stay.endDate; night = addDays(night, 1)) {
          if (night >= start && night <= end) heldBy.set(night, stay.id);
        }
      }
      for (const [night, reservationId] of heldBy) {
        expect(byDate.get(night)).toMatchObject({ status: 'booked', reservationId });
      }
      const booked = calendar.days.filter((day) => day.status === 'booked');
      expect(booked.map((day) => day.date).sort()).toEqual([...heldBy.keys()].sort());
    });

    it('stays far below the reply cap for the largest legal range of every listing', async () => {
      for (const listingId of listingIds) {
        const result = await call(getCalendarTool, { listingId, startDate: start, endDate: end });
        const calendar = output(getCalendarTool, result);
        expect(calendar.days).toHaveLength(92);
        expect(result.content[0]?.text.length ?? 0).toBeLessThan(maxResultChars / 2);
      }
    });

    it('refuses ranges over 92 days, backwards ranges and impossible dates', async () => {
      const tooLong = failure(
        await call(getCalendarTool, {
          listingId: firstListing(),
          startDate: start,
          endDate: addDays(start, 92),
        }),
        'invalid_argument',
      );
      expect(tooLong.message).toContain('92');
      expect(tooLong.message).toContain('93');
      const backwards = failure(
        await call(getCalendarTool, {
          listingId: firstListing(),
          startDate: start,
          endDate: addDays(start, -1),
        }),
        'invalid_argument',
      );
      expect(backwards.message).toContain('endDate');
      failure(
        await call(getCalendarTool, {
          listingId: firstListing(),
          startDate: '2026-02-30',
          endDate: '2026-03-02',
        }),
        'invalid_argument',
      );
      failure(
        await call(getCalendarTool, { listingId: 'lst_nope', startDate: start, endDate: start }),
        'not_found',
      );
    });
  });

  describe('get_reservations and get_reservation', () => {
    it('pages in check-in order, 20 by default, without repeating anything', async () => {
      const first = output(getReservationsTool, await call(getReservationsTool, {}));
      expect(first.items).toHaveLength(20);
      expect(first.hasMore).toBe(true);
      const second = output(
        getReservationsTool,
        await call(getReservationsTool, { cursor: first.nextCursor }),
      );
      const both = [...first.items, ...second.items];
      expect(new Set(both.map((item) => item.id)).size).toBe(both.length);
      const keys = both.map((item) => `${item.startDate} ${item.id}`);
      expect(keys).toEqual([...keys].sort());
    });

    it('applies every filter', async () => {
      const listingId = firstListing();
      const window = { startDate: worldToday, endDate: addDays(worldToday, 6) };
      const inWeek = await allReservations({
        ...window,
        listingId,
        statuses: ['accepted'],
        channel: 'airbnb',
      });
      for (const stay of inWeek) {
        expect(stay).toMatchObject({ listingId, status: 'accepted', channel: 'airbnb' });
        expect(stay.endDate > window.startDate && stay.startDate <= window.endDate).toBe(true);
      }
      const cancelled = output(
        getReservationsTool,
        await call(getReservationsTool, { statuses: ['cancelled'], limit: 50 }),
      );
      expect(cancelled.items.length).toBeGreaterThan(0);
      for (const stay of cancelled.items) expect(stay.status).toBe('cancelled');
      const future = output(
        getReservationsTool,
        await call(getReservationsTool, { updatedSince: '2100-01-01T00:00:00Z' }),
      );
      expect(future.items).toEqual([]);
    });

    it('refuses unknown listings, bad windows, bad cursors and oversized pages', async () => {
      failure(await call(getReservationsTool, { listingId: 'lst_nope' }), 'not_found');
      failure(
        await call(getReservationsTool, { startDate: '2026-06-10', endDate: '2026-06-01' }),
        'invalid_argument',
      );
      failure(await call(getReservationsTool, { cursor: 'not-a-cursor' }), 'invalid_argument');
      const tooMany = failure(await call(getReservationsTool, { limit: 101 }), 'invalid_argument');
      expect(tooMany.message).toContain('limit');
    });

    it('get_reservation returns the listed reservation with its money lines', async () => {
      const page = output(
        getReservationsTool,
        await call(getReservationsTool, { statuses: ['accepted'], startDate: worldToday, limit: 5 }),
      );
      const listed = page.items[0];
      if (listed === undefined) throw new Error('the demo has no upcoming accepted stay');
      const detail = output(getReservationTool, await call(getReservationTool, { reservationId: listed.id }));
      expect(detail).toMatchObject(listed);
      expect(detail).toEqual(await world.context.domain.reservations.get(world.owner, listed.id));
      expect(detail.lineItems.length).toBeGreaterThan(0);
      for (const night of detail.nightlyRates) {
        expect(night.date >= detail.startDate && night.date < detail.endDate).toBe(true);
      }
      failure(await call(getReservationTool, { reservationId: 'res_nope' }), 'not_found');
      failure(await call(getReservationTool, {}), 'invalid_argument');
    });
  });

  describe('get_quote', () => {
    /** An open stay found on the calendar: arrival allowed, minimum nights all free, departure allowed. */
    async function findOpenStay() {
      for (const listingId of listingIds) {
        const listing = output(getListingTool, await call(getListingTool, { listingId }));
        if (!listing.enabled) continue;
        const { days } = await calendarOf(listingId, addDays(worldToday, 1), addDays(worldToday, 91));
        for (let index = 0; index < days.length; index += 1) {
          const arrival = days[index];
          if (arrival === undefined || arrival.closedToArrival) continue;
          const nights = Math.max(arrival.minNights, listing.minNights);
          const stay = days.slice(index, index + nights);
          const departure = days[index + nights];
          if (departure === undefined || nights > listing.maxNights) break;
          if (stay.every((day) => day.status === 'available') && !departure.closedToDeparture) {
            return { listing, stay, departure };
          }
        }
      }
      throw new Error('no open stay in the demo calendars');
    }

    it('prices an open stay night by night as the calendar shows it, without booking it', async () => {
      const { listing, stay, departure } = await findOpenStay();
      const first = stay[0] as CalendarDay;
      const args = { listingId: listing.id, startDate: first.date, endDate: departure.date, guests: 1 };
      const quote = output(getQuoteTool, await call(getQuoteTool, args));
      expect(quote).toMatchObject({ ...args, nights: stay.length, currency: listing.currency });
      expect(quote.nightly.map((night) => night.date)).toEqual(stay.map((day) => day.date));
      expect(quote.nightly.map((night) => cents(night.price))).toEqual(
        stay.map((day) => cents(day.channelPrices.direct ?? day.price)),
      );
      expect(cents(quote.accommodation)).toBe(sum(quote.nightly.map((night) => night.price)));
      expect(cents(quote.cleaningFee)).toBe(cents(listing.cleaningFee));
      expect(sum(quote.lineItems.map((line) => line.amount))).toBe(cents(quote.total));
      // Quoting holds nothing: the nights are still open.
      const after = await calendarOf(listing.id, first.date, addDays(departure.date, -1));
      expect(after.days.every((day) => day.status === 'available')).toBe(true);

      const crowd = failure(
        await call(getQuoteTool, { ...args, guests: listing.maxGuests + 1 }),
        'failed_precondition',
      );
      expect(crowd.details).toMatchObject({ maxGuests: listing.maxGuests });
    });

    it('refuses booked dates with conflict and names the reservation in the way', async () => {
      const booked = output(
        getReservationsTool,
        await call(getReservationsTool, {
          statuses: ['accepted'],
          startDate: addDays(worldToday, 1),
          limit: 30,
        }),
      ).items.filter((stay) => stay.startDate > worldToday);
      expect(booked.length).toBeGreaterThan(0);
      let conflicts = 0;
      for (const stay of booked) {
        const result = await call(getQuoteTool, {
          listingId: stay.listingId,
          startDate: stay.startDate,
          endDate: stay.endDate,
          guests: 1,
        });
        // A taken range is never priced: either a stay rule refuses it first, or it is a conflict.
        const error = toolErrorOf(result);
        if (error.code === 'conflict') {
          conflicts += 1;
          expect(error.details).toMatchObject({
            clashes: expect.arrayContaining([
              expect.objectContaining({
                reservationId: stay.id,
                startDate: stay.startDate,
                endDate: stay.endDate,
              }),
            ]),
          });
        } else {
          expect(error.code).toBe('failed_precondition');
        }
      }
      expect(conflicts).toBeGreaterThan(0);
    });

    it('refuses stays below the minimum nights, malformed stays and unknown listings', async () => {
      let checked = false;
      for (const listingId of listingIds) {
        const { days } = await calendarOf(listingId, addDays(worldToday, 1), addDays(worldToday, 60));
        const strict = days.find((day) => day.minNights >= 2);
        if (strict === undefined) continue;
        const short = failure(
          await call(getQuoteTool, {
            listingId,
            startDate: strict.date,
            endDate: addDays(strict.date, 1),
            guests: 1,
          }),
          'failed_precondition',
        );
        expect(short.details).toMatchObject({ minNights: strict.minNights, nights: 1 });
        checked = true;
        break;
      }
      expect(checked).toBe(true);
      const listingId = firstListing();
      failure(
        await call(getQuoteTool, { listingId, startDate: '2026-08-10', endDate: '2026-08-10', guests: 2 }),
        'invalid_argument',
      );
      failure(
        await call(getQuoteTool, { listingId, startDate: '2026-08-10', endDate: '2026-08-12', guests: 0 }),
        'invalid_argument',
      );
      failure(
        await call(getQuoteTool, {
          listingId: 'lst_nope',
          startDate: '2026-08-10',
          endDate: '2026-08-12',
          guests: 2,
        }),
        'not_found',
      );
    });
  });

  describe('get_message_thread', () => {
    async function threadWithMessages(minimum: number) {
      const stays = output(
        getReservationsTool,
        await call(getReservationsTool, { statuses: ['accepted'], limit: 100 }),
      );
      for (const stay of stays.items) {
        const thread = output(
          getMessageThreadTool,
          await call(getMessageThreadTool, { reservationId: stay.id, limit: 100 }),
        );
        if (thread.messages.items.length >= minimum && !thread.messages.hasMore) return { stay, thread };
      }
      throw new Error(`no thread with ${minimum} messages`);
    }

    it('returns the conversation oldest first, with needsReply as the messages imply', async () => {
      const { stay, thread } = await threadWithMessages(3);
      expect(thread.reservation).toMatchObject({
        id: stay.id,
        listingId: stay.listingId,
        startDate: stay.startDate,
        endDate: stay.endDate,
        confirmationCode: stay.confirmationCode,
        guestName: `${stay.guest.firstName} ${stay.guest.lastName}`,
      });
      const times = thread.messages.items.map((message) => Date.parse(message.sentAt));
      expect(times).toEqual([...times].sort((a, b) => a - b));
      const latest = (sender: string) =>
        Math.max(
          -1,
          ...thread.messages.items.filter((m) => m.sender === sender).map((m) => Date.parse(m.sentAt)),
        );
      const guest = latest('guest');
      const host = latest('host');
      expect(thread.needsReply).toBe(guest > -1 && guest > host);
      expect(thread.lastGuestMessageAt === null ? -1 : Date.parse(thread.lastGuestMessageAt)).toBe(guest);
    });

    it('pages long threads with the cursor', async () => {
      const { stay, thread } = await threadWithMessages(3);
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = output(
          getMessageThreadTool,
          await call(getMessageThreadTool, { reservationId: stay.id, limit: 2, cursor }),
        );
        expect(page.messages.items.length).toBeLessThanOrEqual(2);
        seen.push(...page.messages.items.map((message) => message.id));
        cursor = page.messages.nextCursor ?? undefined;
      } while (cursor !== undefined);
      expect(seen).toEqual(thread.messages.items.map((message) => message.id));
    });

    it('refuses unknown reservations and oversized pages', async () => {
      failure(await call(getMessageThreadTool, { reservationId: 'res_nope' }), 'not_found');
      failure(
        await call(getMessageThreadTool, { reservationId: 'res_nope', limit: 101 }),
        'invalid_argument',
      );
    });
  });

  describe('get_message_rules and get_pricing_rules', () => {
    it('get_message_rules lists the rules, and those of one listing', async () => {
      const all = output(getMessageRulesTool, await call(getMessageRulesTool, { limit: 100 }));
      const direct = await world.context.domain.messageRules.list(world.owner, { limit: 500 });
      expect(all.items.map((rule) => rule.id)).toEqual(direct.items.map((rule) => rule.id));
      expect(all.items.length).toBeGreaterThan(0);
      const listingId = firstListing();
      const mine = output(getMessageRulesTool, await call(getMessageRulesTool, { listingId, limit: 100 }));
      const expected = all.items.filter(
        (rule) => rule.listingIds === null || rule.listingIds.includes(listingId),
      );
      expect(mine.items.map((rule) => rule.id)).toEqual(expected.map((rule) => rule.id));
      failure(await call(getMessageRulesTool, { listingId: 'lst_nope' }), 'not_found');
      failure(await call(getMessageRulesTool, { limit: 0 }), 'invalid_argument');
    });

    it('get_pricing_rules pages the rules in the order they apply', async () => {
      const first = output(getPricingRulesTool, await call(getPricingRulesTool, {}));
      expect(first.items).toHaveLength(20);
      expect(first.hasMore).toBe(true);
      const rest = output(
        getPricingRulesTool,
        await call(getPricingRulesTool, { cursor: first.nextCursor, limit: 100 }),
      );
      const rules = [...first.items, ...rest.items];
      const direct = await world.context.domain.pricing.listRules(world.owner, { limit: 500 });
      expect(rules.map((rule) => rule.id)).toEqual(direct.items.map((rule) => rule.id));
      const positions = rules.map((rule) => rule.position);
      expect(positions).toEqual([...positions].sort((a, b) => a - b));
      const listingId = firstListing();
      const mine = output(getPricingRulesTool, await call(getPricingRulesTool, { listingId, limit: 100 }));
      const expected = rules.filter(
        (rule) => rule.listingIds === null || rule.listingIds.includes(listingId),
      );
      expect(mine.items.map((rule) => rule.id)).toEqual(expected.map((rule) => rule.id));
      failure(await call(getPricingRulesTool, { listingId: 'lst_nope' }), 'not_found');
    });
  });

  describe('get_reviews', () => {
    it('lists reviews newest first and applies its filters', async () => {
      const page = output(getReviewsTool, await call(getReviewsTool, {}));
      expect(page.items).toHaveLength(20);
      const times = page.items.map((review) => Date.parse(review.submittedAt));
      expect(times).toEqual([...times].sort((a, b) => b - a));

      const unanswered = output(getReviewsTool, await call(getReviewsTool, { unanswered: true, limit: 100 }));
      for (const review of unanswered.items) expect(review.hostResponse).toBeNull();
      const answered = output(getReviewsTool, await call(getReviewsTool, { unanswered: false, limit: 100 }));
      for (const review of answered.items) expect(review.hostResponse).not.toBeNull();
      const fours = output(
        getReviewsTool,
        await call(getReviewsTool, { minRating: 4, maxRating: 4, limit: 100 }),
      );
      for (const review of fours.items) expect(review.rating).toBe(4);
      const listingId = firstListing();
      const mine = output(getReviewsTool, await call(getReviewsTool, { listingId, limit: 100 }));
      for (const review of mine.items) expect(review.listingId).toBe(listingId);
      const recent = output(getReviewsTool, await call(getReviewsTool, { since: '2026-01-01', limit: 100 }));
      for (const review of recent.items) expect(review.submittedAt >= '2026-01-01').toBe(true);
    });

    it('refuses unknown listings and contradictory ratings', async () => {
      failure(await call(getReviewsTool, { listingId: 'lst_nope' }), 'not_found');
      failure(await call(getReviewsTool, { minRating: 5, maxRating: 2 }), 'invalid_argument');
    });
  });

  describe('list_accounts and get_account', () => {
    it('lists the connected channel accounts with the listings linked to each', async () => {
      const page = output(listAccountsTool, await call(listAccountsTool, {}));
      expect(page.items.length).toBeGreaterThan(0);
      expect(page.hasMore).toBe(false);
      const listings = output(listListingsTool, await call(listListingsTool, { limit: 100 })).items;
      for (const account of page.items) {
        const linked = listings.filter((listing) =>
          listing.channels.some((link) => link.channelAccountId === account.id),
        ).length;
        expect(account.listingCount, account.displayName).toBe(linked);
        expect(output(getAccountTool, await call(getAccountTool, { channelAccountId: account.id }))).toEqual(
          account,
        );
      }
      failure(await call(getAccountTool, { channelAccountId: 'cha_nope' }), 'not_found');
      failure(await call(listAccountsTool, { limit: 101 }), 'invalid_argument');
    });
  });

  describe('get_user', () => {
    it('returns the signed-in owner and the account', async () => {
      const user = output(getUserTool, await call(getUserTool, {}));
      expect(user).toMatchObject({
        id: world.owner.userId,
        email: demoLogin.email,
        role: 'owner',
        account: { id: world.owner.accountId, timeZone: 'America/Chicago' },
      });
    });
  });

  describe('list_help_articles and get_help_article', () => {
    it('lists every shipped article, searches, and filters by collection', async () => {
      const all = output(listHelpArticlesTool, await call(listHelpArticlesTool, { limit: 100 }));
      expect(all.items.map((article) => article.slug).sort()).toEqual(
        builtInHelpArticles.map((article) => article.slug).sort(),
      );
      const search = output(listHelpArticlesTool, await call(listHelpArticlesTool, { query: 'webhook' }));
      expect(search.items[0]?.slug).toBe('webhooks');
      const calendar = output(
        listHelpArticlesTool,
        await call(listHelpArticlesTool, { collection: 'calendar-and-pricing', limit: 100 }),
      );
      expect(calendar.items.map((article) => article.slug).sort()).toEqual(
        builtInHelpArticles
          .filter((article) => article.collection === 'calendar-and-pricing')
          .map((article) => article.slug)
          .sort(),
      );
      failure(await call(listHelpArticlesTool, { collection: 'gossip' }), 'invalid_argument');
    });

    it('reads an article by slug or id, and refuses unknown ones', async () => {
      const source = builtInHelpArticles.find((article) => article.slug === 'dates-and-time-zones');
      if (source === undefined) throw new Error('the dates article is not shipped');
      const bySlug = output(getHelpArticleTool, await call(getHelpArticleTool, { idOrSlug: source.slug }));
      expect(bySlug).toMatchObject({ slug: source.slug, title: source.title, body: source.body });
      const byId = output(getHelpArticleTool, await call(getHelpArticleTool, { idOrSlug: bySlug.id }));
      expect(byId).toEqual(bySlug);
      failure(await call(getHelpArticleTool, { idOrSlug: 'no-such-article' }), 'not_found');
      failure(await call(getHelpArticleTool, { idOrSlug: '' }), 'invalid_argument');
    });
  });

  describe('collect_date_range', () => {
    const callAt = (instant: string, args: unknown) => {
      const clock: Clock = { now: () => new Date(instant) };
      return invokeTool(collectDateRangeTool, args, { ...world.context, clock }, (reference, cause) => {
        throw new Error(`unexpected failure ${reference}`, { cause });
      });
    };

    it('counts from today in the account’s time zone', async () => {
      const result = output(
        collectDateRangeTool,
        await call(collectDateRangeTool, { phrase: 'next weekend' }),
      );
      // 2026-06-15 is a Monday: next week's weekend is 27–28 June.
      expect(result).toMatchObject({
        status: 'resolved',
        timeZone: 'America/Chicago',
        today: worldToday,
        startDate: '2026-06-27',
        endDate: '2026-06-28',
        days: 2,
      });
      expect(result.interpretation).toContain('Saturday');
    });

    it('uses a listing’s own time zone when given one, where today may differ', async () => {
      const listings = output(listListingsTool, await call(listListingsTool, { limit: 100 })).items;
      const lisbon = listings.find((listing) => listing.timeZone === 'Europe/Lisbon');
      if (lisbon === undefined) throw new Error('the demo has no Lisbon listing');
      // 04:30 UTC on 15 June: still 14 June (23:30) in Chicago, already 15 June (05:30) in Lisbon.
      const instant = '2026-06-15T04:30:00Z';
      const account = output(collectDateRangeTool, await callAt(instant, { phrase: 'today' }));
      expect(account).toMatchObject({
        timeZone: 'America/Chicago',
        today: '2026-06-14',
        startDate: '2026-06-14',
      });
      const listing = output(
        collectDateRangeTool,
        await callAt(instant, { phrase: 'today', listingId: lisbon.id }),
      );
      expect(listing).toMatchObject({
        timeZone: 'Europe/Lisbon',
        today: '2026-06-15',
        startDate: '2026-06-15',
      });
    });

    it('takes today from the wall calendar across a daylight-saving change', async () => {
      // Chicago moved from CST to CDT at 08:00 UTC on Sunday 8 March 2026.
      const before = output(
        collectDateRangeTool,
        await callAt('2026-03-08T05:30:00Z', { phrase: 'this week' }),
      );
      expect(before).toMatchObject({
        today: '2026-03-07',
        startDate: '2026-03-02',
        endDate: '2026-03-08',
        days: 7,
      });
      const after = output(
        collectDateRangeTool,
        await callAt('2026-03-08T08:30:00Z', { phrase: 'this week' }),
      );
      expect(after).toMatchObject({
        today: '2026-03-08',
        startDate: '2026-03-02',
        endDate: '2026-03-08',
        days: 7,
      });
    });

    it('returns ambiguity and unrecognised phrases as answers, not errors', async () => {
      const ambiguous = output(
        collectDateRangeTool,
        await call(collectDateRangeTool, { phrase: '3/6/2025' }),
      );
      expect(ambiguous.status).toBe('ambiguous');
      expect(ambiguous.readings).toHaveLength(2);
      const unknown = output(collectDateRangeTool, await call(collectDateRangeTool, { phrase: 'whenever' }));
      expect(unknown.status).toBe('unrecognised');
      expect(unknown.examples?.length).toBeGreaterThan(0);
    });

    it('refuses an empty or overlong phrase and an unknown listing', async () => {
      failure(await call(collectDateRangeTool, { phrase: '   ' }), 'invalid_argument');
      failure(await call(collectDateRangeTool, { phrase: 'x'.repeat(201) }), 'invalid_argument');
      failure(await call(collectDateRangeTool, { phrase: 'today', listingId: 'lst_nope' }), 'not_found');
    });
  });
});

describe('read tools with very long texts', () => {
  let world: ToolWorld;

  beforeAll(async () => {
    world = await openToolWorld();
  });

  afterAll(async () => {
    await world?.close();
  });

  it('get_reservations returns smaller pages instead of overflowing, and paging still sees everything', async () => {
    const { domain } = world.context;
    const filter = { statuses: ['accepted' as const], startDate: worldToday };
    const upcoming = await domain.reservations.list(world.owner, { ...filter, limit: 40 });
    // Quotes double in JSON: each note becomes about 10 KB, so 40 of them are far over the cap.
    const longNote = '"'.repeat(5_000);
    for (const stay of upcoming.items) {
      await domain.reservations.update(world.owner, { reservationId: stay.id, notes: longNote });
    }
    const expected: string[] = [];
    let domainCursor: string | undefined;
    do {
      const page = await domain.reservations.list(world.owner, {
        ...filter,
        limit: 500,
        cursor: domainCursor,
      });
      expected.push(...page.items.map((item) => item.id));
      domainCursor = page.nextCursor ?? undefined;
    } while (domainCursor !== undefined);

    const seen: string[] = [];
    let cursor: string | undefined;
    let shortPages = 0;
    do {
      const result = await world.call(getReservationsTool, { ...filter, limit: 100, cursor });
      expect(result.content[0]?.text.length ?? 0).toBeLessThanOrEqual(maxResultChars);
      const page = output(getReservationsTool, result);
      if (page.hasMore && page.items.length < 100) shortPages += 1;
      seen.push(...page.items.map((item) => item.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    expect(shortPages).toBeGreaterThan(0);
    expect(seen).toEqual(expected);
  });

  it('get_calendar splits a range whose notes do not fit, and says where to continue', async () => {
    const listings = output(listListingsTool, await world.call(listListingsTool, { limit: 1 }));
    const listingId = listings.items[0]?.id ?? '';
    // 2028 is far beyond the demo's bookings, so the whole quarter can be blocked.
    const startDate = '2028-01-01';
    const endDate = '2028-03-31'; // 91 days, leap February included
    const note = '"'.repeat(500);
    await world.context.domain.calendar.setAvailability(world.owner, {
      listingId,
      startDate,
      endDate,
      available: false,
      reason: 'maintenance',
      note,
    });
    const days: CalendarDay[] = [];
    let from: string | null = startDate;
    let calls = 0;
    while (from !== null) {
      const result = await world.call(getCalendarTool, { listingId, startDate: from, endDate });
      expect(result.content[0]?.text.length ?? 0).toBeLessThanOrEqual(maxResultChars);
      const calendar = output(getCalendarTool, result);
      expect(calendar.days[0]?.date).toBe(from);
      if (calendar.hasMore) expect(calendar.nextStartDate).toBe(addDays(calendar.days.at(-1)?.date ?? '', 1));
      days.push(...calendar.days);
      from = calendar.nextStartDate;
      calls += 1;
    }
    expect(calls).toBeGreaterThan(1);
    expect(days).toHaveLength(91);
    days.forEach((day, index) => {
      expect(day).toMatchObject({ date: addDays(startDate, index), status: 'blocked', note });
    });
  });
});
