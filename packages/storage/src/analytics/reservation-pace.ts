import { addDays, currencyExponent, DomainError, type LocalDate, toMajorUnits } from '@innkeep/domain';
import type { CurrencyAmount } from '@innkeep/domain/analytics';
import {
  type AnalyticsPeriod,
  type OnTheBooks,
  type PaceStats,
  type Pickup,
  type paceStatsInputSchema,
  periodNights,
  pickupWindowDays,
  ratioOf,
  samePeriodLastYear,
  shiftYears,
} from '@innkeep/domain/analytics';
import { type RawBuilder, sql } from 'kysely';
import type { z } from 'zod';
import type { Executor } from '../database.ts';
import { type AnalyticsScope, analyticsMeta, channelInScope, listingInScope } from './analytics-scope.ts';
import { change } from './performance-calculations.ts';
import { soldNightsByPeriod } from './performance-sold-nights.ts';
import { supplyByPeriod } from './performance-supply.ts';
import { accountToday } from './reservation-today.ts';

type PaceInput = z.output<typeof paceStatsInputSchema>;

/** One moment the books are read at, for one stay period. */
interface BooksReading {
  readonly asOf: LocalDate;
  readonly period: AnalyticsPeriod;
}

/** What was on the books at one reading, per currency, in minor units. */
interface BooksTotals {
  readonly reservations: number;
  readonly nights: number;
  readonly rentMinor: ReadonlyMap<string, number>;
}

/**
 * get_pace_stats: the books for the period at the end of `asOf` (account time zone), the same stay dates a
 * year earlier at the end of `asOf` − 1 year, and the pickup over each window before `asOf`. The books at a
 * moment are, for each reservation, its latest change-log snapshot by then (`reservation_changes`, with
 * `valid_until` marking when the next one replaced it) when that snapshot is accepted. The books as of today
 * take their rent from the nightly rates, as the revenue tools do; earlier books only have the snapshots' stay
 * totals, spread evenly over the nights.
 */
export async function paceStats(
  db: Executor,
  scope: AnalyticsScope,
  input: PaceInput,
  now: Date,
): Promise<PaceStats> {
  const { timeZone, today } = await accountToday(db, scope.accountId, now);
  const asOf = input.asOf ?? today;
  if (asOf > today) {
    throw new DomainError(
      'invalid_argument',
      `asOf ${asOf} is after today (${today}); the books are not known yet.`,
      {
        details: { asOf, today },
      },
    );
  }
  const period: AnalyticsPeriod = { startDate: input.startDate, endDate: input.endDate };
  const lastYearPeriod = samePeriodLastYear(period);
  const windows = [...new Set(input.pickupDays ?? pickupWindowDays)].sort((a, b) => a - b);
  const readings: BooksReading[] = [
    { asOf, period },
    { asOf: shiftYears(asOf, -1), period: lastYearPeriod },
    ...windows.map((days) => ({ asOf: addDays(asOf, -days), period })),
  ];

  const endOfDay = await endsOfDays(
    db,
    timeZone,
    readings.map((reading) => reading.asOf),
  );
  // Independent statements, sent together: on the pool each runs on a connection of its own.
  const [totals, nightlyRent, [supply, lastYearSupply], events] = await Promise.all([
    booksAt(db, scope, endOfDay, readings),
    asOf === today ? rentAtNightlyRates(db, scope, period) : null,
    supplyByPeriod(db, scope, [period, lastYearPeriod]),
    pickupEvents(db, scope, endOfDay, period, asOf, windows),
  ]);
  const [current, lastYear] = totals as [BooksTotals, BooksTotals];
  const currentBooks = nightlyRent === null ? current : { ...current, rentMinor: nightlyRent };

  const currencies = new Set([...currentBooks.rentMinor.keys(), ...lastYear.rentMinor.keys()]);
  const onTheBooks = booksFigures(readings[0] as BooksReading, currentBooks, supply?.availableNights ?? 0);
  const lastYearBooks = booksFigures(
    readings[1] as BooksReading,
    lastYear,
    lastYearSupply?.availableNights ?? 0,
  );
  const pickup = windows.map((days, index): Pickup => {
    const then = totals[index + 2] as BooksTotals;
    const windowEvents = events.get(days) ?? {
      newReservations: 0,
      newNights: 0,
      cancelled: 0,
      cancelledNights: 0,
    };
    const rentCurrencies = [...new Set([...current.rentMinor.keys(), ...then.rentMinor.keys()])].sort();
    return {
      days,
      since: addDays(asOf, -days),
      netReservations: current.reservations - then.reservations,
      netNights: current.nights - then.nights,
      netRent: rentCurrencies.map((currency) => ({
        currency,
        amount: toMajorUnits(
          (current.rentMinor.get(currency) ?? 0) - (then.rentMinor.get(currency) ?? 0),
          currency,
        ),
      })),
      newReservations: windowEvents.newReservations,
      newNights: windowEvents.newNights,
      cancelledReservations: windowEvents.cancelled,
      cancelledNights: windowEvents.cancelledNights,
    };
  });

  return {
    meta: analyticsMeta(scope, period, {
      basis: 'as_of_date',
      definitions: ['on_the_books', 'pace', 'pickup', 'available_nights', 'local_dates', 'currency_policy'],
      currencies: [...currencies],
      notes: [
        `On the books as of the end of ${asOf} in the account’s time zone (${timeZone}); last year as of ` +
          `${lastYearBooks.asOf} for ${lastYearPeriod.startDate}–${lastYearPeriod.endDate}.`,
        asOf === today
          ? 'Rent on the books today is at the nightly rates, as in the revenue tools; past books (last year) ' +
            'spread each stay’s rent evenly over its nights, as the change log keeps only stay totals.'
          : 'Rent of past books spreads each stay’s rent evenly over its nights (the change log keeps only stay ' +
            'totals), then only the nights inside the period count.',
        'Pickup: net is the books now − then, rent evenly spread on both sides; new and cancelled count ' +
          'reservations that went on or came off the books in the window; date or price edits make up any ' +
          'difference.',
      ],
    }),
    onTheBooks,
    lastYear: lastYearBooks,
    change: {
      reservations: change(
        [onTheBooks.reservations, 'no_reservations'],
        [lastYearBooks.reservations, 'no_reservations'],
        0,
      ),
      nights: change([onTheBooks.nights, 'no_booked_nights'], [lastYearBooks.nights, 'no_booked_nights'], 0),
      occupancy: change(
        [onTheBooks.occupancy, 'no_available_nights'],
        [lastYearBooks.occupancy, 'no_available_nights'],
        4,
      ),
      rent: [...currencies].sort().map((currency) => {
        const decimals = currencyExponent(currency);
        const amount = (rent: ReadonlyMap<string, number>) => toMajorUnits(rent.get(currency) ?? 0, currency);
        return {
          currency,
          ...change(
            [amount(currentBooks.rentMinor), 'no_booked_nights'],
            [amount(lastYear.rentMinor), 'no_baseline'],
            decimals,
          ),
        };
      }),
    },
    pickup,
  };
}

/**
 * The rent of today's books taken from the sold nights' nightly rates (the stay-night facts the revenue tools
 * read), per currency in minor units, so both give the same rent for the same future period. Today's accepted
 * snapshots are the reservations as they are now, so reservations and nights stay as the change log counts
 * them.
 */
async function rentAtNightlyRates(
  db: Executor,
  scope: AnalyticsScope,
  period: AnalyticsPeriod,
): Promise<ReadonlyMap<string, number>> {
  const [sold = []] = await soldNightsByPeriod(db, scope, [period]);
  return new Map(sold.map((sums) => [sums.currency, sums.accommodation]));
}

/**
 * The end of each date (the start of the next day) in `timeZone`, looked up once so the big statements
 * compare with constants instead of converting time zones on every row.
 */
async function endsOfDays(
  db: Executor,
  timeZone: string,
  dates: readonly LocalDate[],
): Promise<(date: LocalDate) => Date> {
  const unique = [...new Set(dates)];
  const { rows } = await sql<{ day: string; ends_at: Date }>`
    select day::date::text as day, ((day::date + 1)::timestamp at time zone ${timeZone}) as ends_at
    from unnest(${unique}::text[]) as day`.execute(db);
  const byDate = new Map(rows.map((row) => [row.day, row.ends_at]));
  return (date) => {
    const end = byDate.get(date);
    if (end === undefined) throw new Error(`no end of day looked up for ${date}`);
    return end;
  };
}

/** Nights of the snapshot `s` from the night `first` to the night before `afterLast` (SQL dates). */
function nightsBetween(first: RawBuilder<unknown>, afterLast: RawBuilder<unknown>) {
  return sql`(least(s.end_date, ${afterLast}) - greatest(s.start_date, ${first}))`;
}

/**
 * Rent of the snapshot `s` from the night `first` to the night before `afterLast`: each night's even share,
 * plus one spare cent on each of the stay's first mod(rent, nights) nights that falls inside.
 */
function rentBetween(first: RawBuilder<unknown>, afterLast: RawBuilder<unknown>) {
  const nights = nightsBetween(first, afterLast);
  const nightsBefore = sql`(greatest(s.start_date, ${first}) - s.start_date)`;
  return sql`(${nights} * (s.accommodation_minor / (s.end_date - s.start_date))
    + greatest(0, least(${nights} + ${nightsBefore}, s.accommodation_minor % (s.end_date - s.start_date))
      - ${nightsBefore}))`;
}

const firstNight = (period: AnalyticsPeriod) => sql`${period.startDate}::date`;
const afterLastNight = (period: AnalyticsPeriod) => sql`${addDays(period.endDate, 1)}::date`;

/** Nights of the snapshot `s` inside `period`. */
function nightsInside(period: AnalyticsPeriod) {
  return nightsBetween(firstNight(period), afterLastNight(period));
}

/** Rent of the snapshot `s` inside `period` ({@link rentBetween}). */
function rentInside(period: AnalyticsPeriod) {
  return rentBetween(firstNight(period), afterLastNight(period));
}

const periodKey = (reading: BooksReading) => `${reading.period.startDate}/${reading.period.endDate}`;

/**
 * The accepted snapshots `s` overlapping `period` that began, or were replaced, at or after `from` and
 * before `to`: two short index ranges, on the start and on the end of validity (a snapshot that both began
 * and was replaced then is in the first only).
 */
function snapshotsChangedBetween(scope: AnalyticsScope, period: AnalyticsPeriod, from: Date, to: Date) {
  const columns = sql`s.reservation_id, s.currency, s.changed_at, s.valid_until, s.start_date, s.end_date,
    s.accommodation_minor`;
  const inPeriod = sql`s.account_id = ${scope.accountId}
    and s.status = 'accepted'
    and s.end_date > ${period.startDate}::date and s.start_date <= ${period.endDate}::date
    and ${listingInScope(scope, 's.listing_id')}
    and ${channelInScope(scope, 's.channel')}`;
  return sql`(
    select ${columns} from reservation_changes s
    where ${inPeriod} and s.changed_at >= ${from}::timestamptz and s.changed_at < ${to}::timestamptz
    union all
    select ${columns} from reservation_changes s
    where ${inPeriod} and s.valid_until >= ${from}::timestamptz and s.valid_until < ${to}::timestamptz
      and s.changed_at < ${from}::timestamptz
  )`;
}

/**
 * The nights of the account's longest accepted snapshot (0 without any), in one probe: a snapshot overlapping
 * a period checks in at most that many nights before it. Snapshots keep the dates they had, so the
 * reservations' own longest stay is no bound for them.
 */
async function longestSnapshotNights(db: Executor, accountId: string): Promise<number> {
  const { rows } = await sql<{ nights: number | null }>`
    select max(end_date - start_date) as nights from reservation_changes
    where account_id = ${accountId} and status = 'accepted'`.execute(db);
  return Number(rows[0]?.nights ?? 0);
}

/**
 * The books at each reading. Without a listing or channel filter, and when every period holds a whole calendar
 * month, they come from the monthly roll-up of the snapshots ({@link booksFromMonths}); otherwise straight from
 * the snapshots ({@link booksFromSnapshots}), as the roll-up is kept per account only.
 */
async function booksAt(
  db: Executor,
  scope: AnalyticsScope,
  endOfDay: (date: LocalDate) => Date,
  readings: readonly BooksReading[],
): Promise<BooksTotals[]> {
  const splits = readings.map((reading) => splitIntoMonths(reading.period));
  if (scope.listingIds !== null || scope.channel !== null || splits.some((split) => split === null)) {
    return booksFromSnapshots(db, scope, endOfDay, readings);
  }
  return booksFromMonths(
    db,
    scope,
    readings.map((reading, index) => ({
      index,
      cutoff: endOfDay(reading.asOf),
      split: splits[index] as PeriodMonths,
    })),
  );
}

/**
 * The books at each reading, in one statement with, per distinct period, one index range over the accepted
 * snapshots overlapping it (checking in from the period start − the longest snapshot to the period end) that
 * were on the books at any of its readings. That range adds up nights and rent once, from whole stays (the
 * few crossing the period's edges give back what falls outside it); each reading then takes off the
 * snapshots not on the books at its moment, which began after or were replaced before it: only snapshots
 * that changed between the period's earliest and latest reading, found by {@link snapshotsChangedBetween}.
 */
async function booksFromSnapshots(
  db: Executor,
  scope: AnalyticsScope,
  endOfDay: (date: LocalDate) => Date,
  readings: readonly BooksReading[],
): Promise<BooksTotals[]> {
  const longestSnapshot = await longestSnapshotNights(db, scope.accountId);
  const branches = [...new Set(readings.map(periodKey))].map((key) => {
    const periodReadings = readings.flatMap((reading, index) =>
      periodKey(reading) === key ? [{ index, period: reading.period, cutoff: endOfDay(reading.asOf) }] : [],
    );
    const { period } = periodReadings[0] as (typeof periodReadings)[number];
    const cutoffTimes = periodReadings.map((reading) => reading.cutoff.getTime());
    const earliest = new Date(Math.min(...cutoffTimes));
    const latest = new Date(Math.max(...cutoffTimes));
    const crossesEdge = sql`(s.start_date < ${period.startDate}::date or s.end_date > ${addDays(period.endDate, 1)}::date)`;
    const offColumns = periodReadings.map(({ index, cutoff }) => {
      const off = sql`(s.changed_at >= ${cutoff}::timestamptz or s.valid_until < ${cutoff}::timestamptz)`;
      return sql`count(*) filter (where ${off}) as ${sql.ref(`reservations_${index}`)},
        coalesce(sum(${nightsInside(period)}) filter (where ${off}), 0) as ${sql.ref(`nights_${index}`)},
        coalesce(sum(${rentInside(period)}) filter (where ${off}), 0) as ${sql.ref(`rent_${index}`)}`;
    });
    const readingRows = periodReadings.map(({ index }) => {
      const offBy = (column: string) => sql`coalesce(${sql.ref(`changed.${column}_${index}`)}, 0)`;
      return sql`(${index}::integer, t.snapshots - ${offBy('reservations')}, t.nights - ${offBy('nights')},
        t.rent - ${offBy('rent')})`;
    });
    return sql`
      select b.reading, t.currency, b.reservations, b.nights, b.rent
      from (
        select s.currency, count(*) as snapshots,
          sum(s.end_date - s.start_date)
            - coalesce(sum(s.end_date - s.start_date - ${nightsInside(period)}) filter (where ${crossesEdge}), 0)
            as nights,
          sum(s.accommodation_minor)
            - coalesce(sum(s.accommodation_minor - ${rentInside(period)}) filter (where ${crossesEdge}), 0) as rent
        from reservation_changes s
        where s.account_id = ${scope.accountId}
          and s.status = 'accepted'
          and s.start_date between ${addDays(period.startDate, -longestSnapshot)}::date and ${period.endDate}::date
          and s.end_date > ${period.startDate}::date
          and s.changed_at < ${latest}::timestamptz
          and (s.valid_until is null or s.valid_until >= ${earliest}::timestamptz)
          and ${listingInScope(scope, 's.listing_id')}
          and ${channelInScope(scope, 's.channel')}
        group by s.currency
      ) t
      left join (
        select s.currency, ${sql.join(offColumns)}
        from ${snapshotsChangedBetween(scope, period, earliest, latest)} s
        group by s.currency
      ) changed on changed.currency = t.currency
      cross join lateral (values ${sql.join(readingRows)}) as b (reading, reservations, nights, rent)`;
  });
  const { rows } = await sql<BooksRow>`${sql.join(branches, sql` union all `)}`.execute(db);
  return totalsPerReading(readings.length, rows);
}

/** One row of the books: a reading's figures in one currency. */
interface BooksRow {
  readonly reading: number;
  readonly currency: string;
  readonly reservations: number | string;
  readonly nights: number | string;
  readonly rent: number | string;
}

/** The books of each of `count` readings from rows holding at most one currency of a reading each. */
function totalsPerReading(count: number, rows: readonly BooksRow[]): BooksTotals[] {
  return Array.from({ length: count }, (_, index) => {
    const books = rows.filter((row) => Number(row.reading) === index);
    return {
      reservations: books.reduce((sum, row) => sum + Number(row.reservations), 0),
      nights: books.reduce((sum, row) => sum + Number(row.nights), 0),
      rentMinor: new Map(
        books.filter((row) => Number(row.reservations) > 0).map((row) => [row.currency, Number(row.rent)]),
      ),
    };
  });
}

/**
 * A period cut at calendar months: the whole months inside it, and the days before and after them (null
 * when there are none).
 */
interface PeriodMonths {
  readonly months: AnalyticsPeriod;
  readonly head: AnalyticsPeriod | null;
  readonly tail: AnalyticsPeriod | null;
}

const firstOfMonth = (date: LocalDate): LocalDate => `${date.slice(0, 8)}01`;

/** `period` cut at calendar months, or null when it holds no whole month. */
function splitIntoMonths(period: AnalyticsPeriod): PeriodMonths | null {
  const monthsStart = period.startDate.endsWith('-01')
    ? period.startDate
    : firstOfMonth(addDays(firstOfMonth(period.startDate), 31));
  const monthsEnd = firstOfMonth(addDays(period.endDate, 1));
  if (monthsStart >= monthsEnd) return null;
  return {
    months: { startDate: monthsStart, endDate: addDays(monthsEnd, -1) },
    head:
      period.startDate < monthsStart
        ? { startDate: period.startDate, endDate: addDays(monthsStart, -1) }
        : null,
    tail: monthsEnd <= period.endDate ? { startDate: monthsEnd, endDate: period.endDate } : null,
  };
}

/** The roll-up's week (Monday, UTC) that `instant` falls in, and the instants it starts and ends at. */
function snapshotWeek(instant: Date): { week: LocalDate; from: Date; to: Date } {
  const dayMs = 86_400_000;
  const midnight = Date.UTC(instant.getUTCFullYear(), instant.getUTCMonth(), instant.getUTCDate());
  const monday = midnight - ((new Date(midnight).getUTCDay() + 6) % 7) * dayMs;
  return {
    week: new Date(monday).toISOString().slice(0, 10),
    from: new Date(monday),
    to: new Date(monday + 7 * dayMs),
  };
}

/** One reading for {@link booksFromMonths}: its index among the readings, moment and cut period. */
interface MonthsReading {
  readonly index: number;
  readonly cutoff: Date;
  readonly split: PeriodMonths;
}

/**
 * The books at each reading from `pace_snapshot_months` (accepted snapshots rolled up by stay month and the
 * weeks they began and were replaced in). A period's reservations are the snapshots checking in inside it plus
 * those crossing into its first night; its nights and rent add up month by month (the even spread with its
 * spare cents is additive over consecutive nights). Per reading at moment C in week W, in one statement (one
 * plan for every reading, joined to them laterally):
 * - the roll-up rows of the whole months that began before W and were replaced after it (or never): all on
 *   the books at C;
 * - the snapshots that began in W before C (and were not replaced by C), or began before W and were replaced
 *   in W at or after C, read raw over two short index ranges; the rest of W's are off the books at C;
 * - the days before and after the whole months, read raw ({@link edgeBooks}) over a few weeks of check-ins.
 */
async function booksFromMonths(
  db: Executor,
  scope: AnalyticsScope,
  readings: readonly MonthsReading[],
): Promise<BooksTotals[]> {
  const readingRows = sql.join(
    readings.map(({ index, cutoff, split }) => {
      const { week, from, to } = snapshotWeek(cutoff);
      // Without days before the whole months, the snapshots crossing into their first month cross into the
      // period's first night, and count.
      return sql`(${index}::integer, ${cutoff}::timestamptz, ${week}::date, ${from}::timestamptz,
        ${to}::timestamptz, ${split.months.startDate}::date, ${addDays(split.months.endDate, 1)}::date,
        ${split.head === null}::boolean)`;
    }),
  );
  const columns = sql`s.currency, s.start_date, s.end_date, s.accommodation_minor`;
  const overlapsMonths = sql`s.account_id = ${scope.accountId} and s.status = 'accepted'
    and s.end_date > r.months_start and s.start_date < r.months_after`;
  const monthsNights = nightsBetween(sql`r.months_start`, sql`r.months_after`);
  const monthsRent = rentBetween(sql`r.months_start`, sql`r.months_after`);
  const wholeMonths = sql`
    select r.reading, b.currency, b.reservations, b.nights, b.rent
    from (values ${readingRows})
      as r (reading, cutoff, week, week_from, week_to, months_start, months_after, counts_crossings)
    cross join lateral (
      select f.currency,
        sum(f.checks_in) + coalesce(sum(f.crosses_in) filter (where f.stay_month = r.months_start
          and r.counts_crossings), 0) as reservations,
        sum(f.nights) as nights, sum(f.rent_minor) as rent
      from pace_snapshot_months f
      where f.account_id = ${scope.accountId}
        and f.stay_month >= r.months_start and f.stay_month < r.months_after
        and f.began_week < r.week and f.replaced_week > r.week
      group by f.currency
      union all
      select s.currency, count(*) filter (where r.counts_crossings or s.start_date >= r.months_start),
        sum(${monthsNights}), sum(${monthsRent})
      from (
        select ${columns} from reservation_changes s
        where ${overlapsMonths} and s.changed_at >= r.week_from and s.changed_at < r.cutoff
          and (s.valid_until is null or s.valid_until >= r.cutoff)
        union all
        select ${columns} from reservation_changes s
        where ${overlapsMonths} and s.valid_until >= r.cutoff and s.valid_until < r.week_to
          and s.changed_at < r.week_from
      ) s
      group by s.currency
    ) b`;

  const hasEdges = readings.some(({ split }) => split.head !== null || split.tail !== null);
  const longestSnapshot = hasEdges ? await longestSnapshotNights(db, scope.accountId) : 0;
  const edges = [
    ...edgeBooks(scope, readings, longestSnapshot, (split) => split.head, true),
    ...edgeBooks(scope, readings, longestSnapshot, (split) => split.tail, false),
  ];

  const { rows } = await sql<BooksRow>`
    select b.reading, b.currency, sum(b.reservations) as reservations, sum(b.nights) as nights,
      sum(b.rent) as rent
    from (${sql.join([wholeMonths, ...edges], sql` union all `)}) b
    group by b.reading, b.currency`.execute(db);
  return totalsPerReading(readings.length, rows);
}

/**
 * Rows of {@link booksFromMonths} for the days before (`pick` = head) or after (tail) the whole months: per
 * distinct run of days, one index range over the snapshots overlapping it (checking in from its start − the
 * longest snapshot to its end), from which each of its readings adds up those on the books at its moment. The
 * days before count every snapshot overlapping them (`countsCrossings`); the days after only those checking in
 * then, as the others already counted.
 */
function edgeBooks(
  scope: AnalyticsScope,
  readings: readonly MonthsReading[],
  longestSnapshot: number,
  pick: (split: PeriodMonths) => AnalyticsPeriod | null,
  countsCrossings: boolean,
): RawBuilder<unknown>[] {
  const sameDays = new Map<string, { days: AnalyticsPeriod; readings: MonthsReading[] }>();
  for (const reading of readings) {
    const days = pick(reading.split);
    if (days === null) continue;
    const key = `${days.startDate}/${days.endDate}`;
    const group = sameDays.get(key) ?? { days, readings: [] };
    group.readings.push(reading);
    sameDays.set(key, group);
  }
  return [...sameDays.values()].map(({ days, readings: dayReadings }) => {
    const cutoffTimes = dayReadings.map(({ cutoff }) => cutoff.getTime());
    const columns = dayReadings.map(({ index, cutoff }) => {
      const on = sql`(s.changed_at < ${cutoff}::timestamptz
        and (s.valid_until is null or s.valid_until >= ${cutoff}::timestamptz))`;
      const counted = countsCrossings ? on : sql`(${on} and s.start_date >= ${days.startDate}::date)`;
      return sql`count(*) filter (where ${counted}) as ${sql.ref(`reservations_${index}`)},
        sum(${nightsInside(days)}) filter (where ${on}) as ${sql.ref(`nights_${index}`)},
        sum(${rentInside(days)}) filter (where ${on}) as ${sql.ref(`rent_${index}`)}`;
    });
    const readingRows = dayReadings.map(
      ({ index }) => sql`(${index}::integer, ${sql.ref(`e.reservations_${index}`)},
        ${sql.ref(`e.nights_${index}`)}, ${sql.ref(`e.rent_${index}`)})`,
    );
    return sql`
      select b.reading, e.currency, b.reservations, b.nights, b.rent
      from (
        select s.currency, ${sql.join(columns)}
        from reservation_changes s
        where s.account_id = ${scope.accountId}
          and s.status = 'accepted'
          and s.start_date between ${addDays(days.startDate, -longestSnapshot)}::date and ${days.endDate}::date
          and s.end_date > ${days.startDate}::date
          and s.changed_at < ${new Date(Math.max(...cutoffTimes))}::timestamptz
          and (s.valid_until is null or s.valid_until >= ${new Date(Math.min(...cutoffTimes))}::timestamptz)
        group by s.currency
      ) e
      cross join lateral (values ${sql.join(readingRows)}) as b (reading, reservations, nights, rent)`;
  });
}

interface WindowEvents {
  readonly newReservations: number;
  readonly newNights: number;
  readonly cancelled: number;
  readonly cancelledNights: number;
}

/**
 * For each window before the end of `asOf`: reservations that went on the books for the period (a snapshot
 * valid now that began in the window, without one valid at the window's start) and came off them (a snapshot
 * valid at the window's start that ended in the window, without one valid now) — cancellations, and the rare
 * stays moved out of the period.
 */
async function pickupEvents(
  db: Executor,
  scope: AnalyticsScope,
  endOfDay: (date: LocalDate) => Date,
  period: AnalyticsPeriod,
  asOf: LocalDate,
  windows: readonly number[],
): Promise<Map<number, WindowEvents>> {
  if (windows.length === 0) return new Map();
  const nowAt = endOfDay(asOf);
  const earliestAt = endOfDay(addDays(asOf, -Math.max(...windows)));
  const now = sql`${nowAt}::timestamptz`;
  const windowRows = sql.join(
    windows.map((days) => sql`(${days}::integer, ${endOfDay(addDays(asOf, -days))}::timestamptz)`),
  );
  const { rows } = await sql<{
    days: number;
    new_reservations: string;
    new_nights: string;
    cancelled: string;
    cancelled_nights: string;
  }>`
    with windows (days, since) as (values ${windowRows}),
    moved as (
      select s.reservation_id, s.changed_at, s.valid_until, ${nightsInside(period)} as nights
      from ${snapshotsChangedBetween(scope, period, earliestAt, nowAt)} s
    ),
    per_reservation as (
      select w.days, m.reservation_id,
        bool_or(m.changed_at >= w.since and (m.valid_until is null or m.valid_until >= ${now})) as on_now,
        bool_or(m.changed_at < w.since and m.valid_until >= w.since and m.valid_until < ${now}) as on_then,
        coalesce(sum(m.nights) filter (where m.valid_until is null or m.valid_until >= ${now}), 0) as nights_now,
        coalesce(sum(m.nights) filter (where m.changed_at < w.since), 0) as nights_then
      from windows w
      join moved m on m.changed_at >= w.since or m.valid_until >= w.since
      group by w.days, m.reservation_id
    )
    select w.days,
      count(p.reservation_id) filter (where p.on_now and not p.on_then) as new_reservations,
      coalesce(sum(p.nights_now) filter (where p.on_now and not p.on_then), 0) as new_nights,
      count(p.reservation_id) filter (where p.on_then and not p.on_now) as cancelled,
      coalesce(sum(p.nights_then) filter (where p.on_then and not p.on_now), 0) as cancelled_nights
    from windows w
    left join per_reservation p on p.days = w.days
    group by w.days`.execute(db);
  return new Map(
    rows.map((row) => [
      Number(row.days),
      {
        newReservations: Number(row.new_reservations),
        newNights: Number(row.new_nights),
        cancelled: Number(row.cancelled),
        cancelledNights: Number(row.cancelled_nights),
      },
    ]),
  );
}

function booksFigures(reading: BooksReading, totals: BooksTotals, availableNights: number): OnTheBooks {
  const occupancy = ratioOf(totals.nights, availableNights);
  return {
    period: { ...reading.period, nights: periodNights(reading.period) },
    asOf: reading.asOf,
    reservations: totals.reservations,
    nights: totals.nights,
    availableNights,
    occupancy,
    rent: [...totals.rentMinor.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([currency, minor]): CurrencyAmount => ({ currency, amount: toMajorUnits(minor, currency) })),
    nullReasons: occupancy === null ? { occupancy: 'no_available_nights' } : {},
  };
}
