import { addDays, type Scope } from '@innkeep/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readOnly, type ToolDefinition } from '../src/tool-definition.ts';
import { maxResultChars, type ToolCallResult } from '../src/tool-result.ts';
import { getBookingPatternStatsTool } from '../src/tools/analytics/get-booking-pattern-stats.tool.ts';
import { getCancellationStatsTool } from '../src/tools/analytics/get-cancellation-stats.tool.ts';
import { getCheckInsCheckOutsTool } from '../src/tools/analytics/get-check-ins-check-outs.tool.ts';
import { getGapAnalysisTool } from '../src/tools/analytics/get-gap-analysis.tool.ts';
import { getPaceStatsTool } from '../src/tools/analytics/get-pace-stats.tool.ts';
import { getReservationStatusStatsTool } from '../src/tools/analytics/get-reservation-status-stats.tool.ts';
import { getTurnoverStatsTool } from '../src/tools/analytics/get-turnover-stats.tool.ts';
import { getUpcomingReservationsTool } from '../src/tools/analytics/get-upcoming-reservations.tool.ts';
import { reservationAnalyticsTools } from '../src/tools/analytics/reservation-analytics-tools.ts';
import { getReservationsTool } from '../src/tools/reservations/get-reservations.tool.ts';
import { toolErrorOf } from './support/tool-error.ts';
import { openToolWorld, type ToolWorld, worldToday } from './support/tool-world.ts';

/** The result's structured content checked against the tool's declared output schema. */
function output<Output extends z.ZodObject>(
  tool: ToolDefinition<z.ZodObject, Output>,
  result: ToolCallResult,
): z.output<Output> {
  expect(result.isError, JSON.stringify(result.structuredContent)).toBeUndefined();
  expect(result.content[0]?.text.length ?? 0).toBeLessThan(maxResultChars);
  return tool.output.parse(result.structuredContent);
}

/** The error code of a failed call. */
function errorCode(result: ToolCallResult): string {
  return toolErrorOf(result).code;
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

// The demo account's next quarter and its last twelve months, around the world's today (2026-06-15).
const nextQuarter = { startDate: '2026-06-15', endDate: '2026-09-14' };
const lastYear = { startDate: '2025-06-01', endDate: '2026-05-31' };

describe('the reservation analytics catalogue', () => {
  it('declares the eight tools with the scopes PRODUCT.md gives them, all read-only', () => {
    const expected: [string, Scope[]][] = [
      ['get_upcoming_reservations', ['reservations:read']],
      ['get_check_ins_check_outs', ['reservations:read']],
      ['get_pace_stats', ['reservations:read']],
      ['get_booking_pattern_stats', ['reservations:read']],
      ['get_cancellation_stats', ['reservations:read']],
      ['get_reservation_status_stats', ['reservations:read']],
      ['get_gap_analysis', ['reservations:read', 'calendar:read']],
      ['get_turnover_stats', ['reservations:read']],
    ];
    expect(reservationAnalyticsTools.map((tool) => [tool.name, [...tool.scopes]])).toEqual(expected);
    for (const tool of reservationAnalyticsTools) {
      expect(tool.annotations, tool.name).toEqual(readOnly);
      expect(tool.description.length, tool.name).toBeGreaterThan(150);
      const schema = z.toJSONSchema(tool.input, { io: 'input' }) as {
        properties?: Record<string, { description?: string }>;
      };
      for (const [field, property] of Object.entries(schema.properties ?? {})) {
        expect(property.description, `${tool.name}.${field}`).toBeTruthy();
      }
    }
  });
});

describe('reservation analytics tools on the demo account', () => {
  let world: ToolWorld;

  beforeAll(async () => {
    world = await openToolWorld();
  });
  afterAll(async () => world?.close());

  const call = (tool: ToolDefinition, args: unknown) => world.call(tool, args);

  it('get_upcoming_reservations pages through in-house guests and the next 30 days of arrivals', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let first: z.output<typeof getUpcomingReservationsTool.output> | undefined;
    do {
      const page = output(
        getUpcomingReservationsTool,
        await call(getUpcomingReservationsTool, { limit: 25, cursor }),
      );
      first ??= page;
      for (const item of page.items) {
        seen.push(`${item.startDate}|${item.listingId}`);
        expect(item.inHouse).toBe(item.daysUntilArrival < 0);
        expect(item.endDate > worldToday).toBe(true);
        expect(item.startDate <= addDays(worldToday, 30)).toBe(true);
      }
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    expect(first?.items.length).toBe(25);
    expect(seen).toEqual([...new Set(seen)].sort());
    expect(seen.length).toBe((first?.inHouse ?? 0) + (first?.arrivals ?? 0));

    // The arrivals are exactly the accepted stays checking in from today to 30 days ahead.
    const arrivalIds: string[] = [];
    let reservationsCursor: string | undefined;
    do {
      const page = output(
        getReservationsTool,
        await call(getReservationsTool, {
          statuses: ['accepted'],
          startDate: worldToday,
          endDate: addDays(worldToday, 30),
          limit: 100,
          cursor: reservationsCursor,
        }),
      );
      for (const stay of page.items) {
        if (stay.startDate >= worldToday && stay.startDate <= addDays(worldToday, 30))
          arrivalIds.push(stay.id);
      }
      reservationsCursor = page.nextCursor ?? undefined;
    } while (reservationsCursor !== undefined);
    expect(first?.arrivals).toBe(arrivalIds.length);
  });

  it('get_check_ins_check_outs adds its buckets up to its totals and lists who moves', async () => {
    const week = { startDate: worldToday, endDate: addDays(worldToday, 6) };
    const result = output(
      getCheckInsCheckOutsTool,
      await call(getCheckInsCheckOutsTool, { ...week, listReservations: true }),
    );
    expect(result.granularity).toBe('day');
    expect(result.series).toHaveLength(7);
    expect(sum(result.series.map((day) => day.arrivals))).toBe(result.totals.arrivals);
    expect(sum(result.series.map((day) => day.departures))).toBe(result.totals.departures);
    expect(result.totals.arrivals).toBeGreaterThan(0);
    expect(result.truncated).toBe(false);
    const listed = result.reservations ?? [];
    const arriving = listed.filter(
      (stay) => stay.startDate >= week.startDate && stay.startDate <= week.endDate,
    );
    const leaving = listed.filter((stay) => stay.endDate >= week.startDate && stay.endDate <= week.endDate);
    expect(arriving).toHaveLength(result.totals.arrivals);
    expect(leaving).toHaveLength(result.totals.departures);

    const year = output(getCheckInsCheckOutsTool, await call(getCheckInsCheckOutsTool, lastYear));
    expect(year.granularity).toBe('month');
    expect(year.series).toHaveLength(12);
    expect(year.reservations).toBeNull();
  });

  it('get_pace_stats compares the books with the same time last year', async () => {
    const pace = output(getPaceStatsTool, await call(getPaceStatsTool, nextQuarter));
    expect(pace.onTheBooks.asOf).toBe(worldToday);
    expect(pace.lastYear).toMatchObject({
      asOf: '2025-06-15',
      period: { startDate: '2025-06-15', endDate: '2025-09-14' },
    });
    expect(pace.onTheBooks.nights).toBeGreaterThan(0);
    expect(pace.change.nights.absolute).toBe(pace.onTheBooks.nights - pace.lastYear.nights);
    expect(pace.pickup.map((window) => window.days)).toEqual([1, 7, 30]);
    // Looking back a week, the books then plus the net pickup are the books now.
    const weekAgo = output(
      getPaceStatsTool,
      await call(getPaceStatsTool, { ...nextQuarter, asOf: '2026-06-08' }),
    );
    expect(weekAgo.onTheBooks.nights + (pace.pickup[1]?.netNights ?? Number.NaN)).toBe(
      pace.onTheBooks.nights,
    );
  });

  it('get_booking_pattern_stats distributes the whole check-in cohort', async () => {
    const patterns = output(getBookingPatternStatsTool, await call(getBookingPatternStatsTool, lastYear));
    expect(patterns.checkIns).toBeGreaterThan(0);
    expect(sum(patterns.bookingWeekday.map((day) => day.count))).toBe(patterns.checkIns);
    expect(sum(patterns.checkInWeekday.map((day) => day.count))).toBe(patterns.checkIns);
    expect(sum(patterns.leadTime.buckets.map((bucket) => bucket.count))).toBe(patterns.checkIns);
    expect(sum(patterns.lengthOfStay.buckets.map((bucket) => bucket.count))).toBe(patterns.checkIns);
    expect(sum(patterns.guests.sizes.map((size) => size.count))).toBe(patterns.checkIns);
    expect(patterns.occupancyByWeekday).toHaveLength(7);
  });

  it('get_cancellation_stats splits the cohort by who cancelled and by channel', async () => {
    const stats = output(getCancellationStatsTool, await call(getCancellationStatsTool, lastYear));
    const { cancelled, live } = stats.reservations;
    expect(cancelled).toBeGreaterThan(0);
    expect(sum(stats.byCancelledBy.map((party) => party.reservations))).toBe(cancelled);
    expect(sum(stats.byChannel.map((channel) => channel.cancelled))).toBe(cancelled);
    expect(sum(stats.byChannel.map((channel) => channel.live))).toBe(live);
    expect(sum(stats.cancellationLeadTime.buckets.map((bucket) => bucket.count))).toBe(cancelled);
    expect(stats.final).toBe(true);
    const booked = output(
      getCancellationStatsTool,
      await call(getCancellationStatsTool, { ...nextQuarter, cohort: 'booked' }),
    );
    expect(booked.cohort).toBe('booked');
    expect(booked.final).toBe(false);
  });

  it('get_reservation_status_stats accounts for every reservation of the cohort once', async () => {
    const stats = output(getReservationStatusStatsTool, await call(getReservationStatusStatsTool, lastYear));
    expect(stats.statuses).toHaveLength(10);
    expect(sum(stats.statuses.map((status) => status.reservations))).toBe(stats.reservations);
    const cancellations = output(getCancellationStatsTool, await call(getCancellationStatsTool, lastYear));
    const completed = stats.statuses.filter((status) =>
      ['completed', 'in_house', 'upcoming'].includes(status.status),
    );
    expect(sum(completed.map((status) => status.reservations))).toBe(cancellations.reservations.live);
  });

  it('get_gap_analysis lists the soonest gaps, bounded, with totals on both sides of today', async () => {
    const gaps = output(getGapAnalysisTool, await call(getGapAnalysisTool, { ...nextQuarter, limit: 5 }));
    expect(gaps.gaps.length).toBeLessThanOrEqual(5);
    expect(gaps.truncated).toBe(gaps.future.gaps + gaps.past.gaps > 5);
    const starts = gaps.gaps.map((gap) => gap.startDate);
    expect(starts).toEqual([...starts].sort());
    for (const gap of gaps.gaps) expect(gap.endDate > nextQuarter.startDate).toBe(true);
  });

  it('get_turnover_stats puts every turnover with a next booking in one bucket', async () => {
    const stats = output(getTurnoverStatsTool, await call(getTurnoverStatsTool, lastYear));
    expect(stats.turnovers).toBeGreaterThan(0);
    expect(sum(stats.distribution.map((bucket) => bucket.count)) + stats.withoutNextBooking).toBe(
      stats.turnovers,
    );
    expect(stats.sameDay).toBe(stats.distribution[0]?.count);
  });

  it('refuses invalid input and names unknown listings', async () => {
    const backwards = { startDate: '2026-06-30', endDate: '2026-06-01' };
    for (const tool of reservationAnalyticsTools) {
      const invalid = tool === getUpcomingReservationsTool ? { withinDays: 400 } : backwards;
      expect(errorCode(await call(tool, invalid)), tool.name).toBe('invalid_argument');
      const unknown = {
        ...(tool === getUpcomingReservationsTool ? {} : nextQuarter),
        listingIds: ['lst_nope'],
      };
      expect(errorCode(await call(tool, unknown)), tool.name).toBe('not_found');
    }
    expect(errorCode(await call(getPaceStatsTool, { ...nextQuarter, asOf: '2026-06-16' }))).toBe(
      'invalid_argument',
    );
    expect(errorCode(await call(getCheckInsCheckOutsTool, { ...lastYear, listReservations: true }))).toBe(
      'invalid_argument',
    );
    const forged = Buffer.from(JSON.stringify(['not-a-date', 'lst_x'])).toString('base64url');
    for (const cursor of ['not-a-cursor', forged]) {
      expect(errorCode(await call(getUpcomingReservationsTool, { cursor }))).toBe('invalid_argument');
    }
  });
});
