import { toMajorUnits } from '@innkeep/domain';
import type {
  AdrStats,
  ChannelPerformance,
  HeadlineKpis,
  ListingBreakdown,
  OccupancyStats,
  RevenueStats,
  RevparStats,
  TimeseriesStats,
} from '@innkeep/domain/analytics';
import { median } from '../baselines/check-in-cohort.ts';
import { activeNightsIn, activePart, activeSince } from '../baselines/listing-supply.ts';
import {
  addNight,
  fetchPeriodPerformance,
  type MoneySums,
  type PeriodPerformance,
} from '../baselines/period-performance.ts';
import { type Figures, mean2, moneyPer, ratio } from '../figures.ts';
import { dayNumber, type NightRange, overlapNights, previousRange, rangeLastYear } from '../local-dates.ts';
import { type BenchContext, defaultTargetMs, headlineTargetMs, type ToolCase } from '../tool-case.ts';

// Performance tools: stay-night figures over the period. Their baselines fetch the period's listings,
// reservations, nightly rates, line items and calendar blocks and compute supply, occupancy and money in JS.

const allListings = (context: BenchContext) => ({ ...context.period });

/** The headline KPIs of one period, as the tool names them. */
function headlineFigures(performance: PeriodPerformance, prefix: string): Record<string, number | null> {
  const { live, cancelled } = performance.cohort;
  const figures: Record<string, number | null> = {
    [`${prefix}bookedNights`]: performance.bookedNights,
    [`${prefix}availableNights`]: performance.availableNights,
    [`${prefix}occupancy`]: ratio(performance.bookedNights, performance.availableNights),
    [`${prefix}grossOccupancy`]: ratio(performance.bookedNights, performance.calendarNights),
    [`${prefix}checkIns`]: live.length,
    [`${prefix}averageLengthOfStay`]: mean2(
      live.reduce((sum, stay) => sum + stay.reservation.nights, 0),
      live.length,
    ),
    [`${prefix}averageLeadTimeDays`]: mean2(
      live.reduce((sum, stay) => sum + stay.leadDays, 0),
      live.length,
    ),
    [`${prefix}medianLeadTimeDays`]: median(live.map((stay) => stay.leadDays)),
    [`${prefix}cancellationRate`]: ratio(cancelled.length, cancelled.length + live.length),
  };
  for (const [currency, sums] of performance.money) {
    const available = performance.supplyByCurrency.get(currency)?.availableNights ?? 0;
    figures[`${prefix}adr.${currency}`] = moneyPer(sums.accommodation, sums.nights, currency);
    figures[`${prefix}revpar.${currency}`] = moneyPer(sums.accommodation, available, currency);
    figures[`${prefix}accommodationRevenue.${currency}`] = toMajorUnits(sums.accommodation, currency);
    figures[`${prefix}totalRevenue.${currency}`] = toMajorUnits(sums.accommodation + sums.fees, currency);
  }
  return figures;
}

const headlineKpiNames = [
  'bookedNights',
  'availableNights',
  'occupancy',
  'grossOccupancy',
  'checkIns',
  'averageLengthOfStay',
  'averageLeadTimeDays',
  'medianLeadTimeDays',
  'cancellationRate',
] as const;

const headlineKpis: ToolCase = {
  tool: 'get_headline_kpis',
  arguments: allListings,
  targetMs: headlineTargetMs,
  baseline: {
    // The default compares with the previous period and the same period last year: three periods' rows
    // (two when they coincide, as for twelve months).
    run: async (context) => {
      const periods: [string, NightRange][] = [
        ['', context.period],
        ['previousPeriod.', previousRange(context.period)],
        ['samePeriodLastYear.', rangeLastYear(context.period)],
      ];
      const computed = new Map<string, Promise<PeriodPerformance>>();
      const figures: Record<string, number | null> = {};
      for (const [prefix, range] of periods) {
        const key = `${range.startDate}/${range.endDate}`;
        if (!computed.has(key)) computed.set(key, fetchPeriodPerformance(context, range));
        const performance = await computed.get(key);
        if (performance !== undefined) Object.assign(figures, headlineFigures(performance, prefix));
      }
      return figures;
    },
    figuresOf: (output) => {
      const result = output as HeadlineKpis;
      const figures: Record<string, number | null | undefined> = {};
      const addKpi = (name: string, kpi: HeadlineKpis['bookedNights']) => {
        figures[name] = kpi.value;
        figures[`previousPeriod.${name}`] = kpi.previousPeriod?.value;
        figures[`samePeriodLastYear.${name}`] = kpi.samePeriodLastYear?.value;
      };
      for (const name of headlineKpiNames) addKpi(name, result[name]);
      for (const entry of result.currencies) {
        addKpi(`adr.${entry.currency}`, entry.adr);
        addKpi(`revpar.${entry.currency}`, entry.revpar);
        addKpi(`accommodationRevenue.${entry.currency}`, entry.accommodationRevenue);
        addKpi(`totalRevenue.${entry.currency}`, entry.totalRevenue);
      }
      return defined(figures);
    },
  },
};

const occupancyStats: ToolCase = {
  tool: 'get_occupancy_stats',
  arguments: allListings,
  targetMs: defaultTargetMs,
  baseline: {
    run: async (context) => {
      const performance = await fetchPeriodPerformance(context, context.period);
      return {
        listings: performance.listings.length,
        calendarNights: performance.calendarNights,
        'blockedNights.owner': performance.blocked.owner,
        'blockedNights.maintenance': performance.blocked.maintenance,
        'blockedNights.manual': performance.blocked.manual,
        'blockedNights.channel': performance.blocked.channel,
        'blockedNights.total': performance.blocked.total,
        availableNights: performance.availableNights,
        bookedNights: performance.bookedNights,
        occupancy: ratio(performance.bookedNights, performance.availableNights),
        grossOccupancy: ratio(performance.bookedNights, performance.calendarNights),
      };
    },
    figuresOf: (output) => {
      const result = output as OccupancyStats;
      return {
        listings: result.listings,
        calendarNights: result.calendarNights,
        'blockedNights.owner': result.blockedNights.owner,
        'blockedNights.maintenance': result.blockedNights.maintenance,
        'blockedNights.manual': result.blockedNights.manual,
        'blockedNights.channel': result.blockedNights.channel,
        'blockedNights.total': result.blockedNights.total,
        availableNights: result.availableNights,
        bookedNights: result.bookedNights,
        occupancy: result.occupancy,
        grossOccupancy: result.grossOccupancy,
      };
    },
  },
};

/** The revenue family of some sums, keyed `<figure>.<key>`. */
function revenueFigures(sums: MoneySums, currency: string, key: string): Record<string, number> {
  const major = (minor: number) => toMajorUnits(minor, currency);
  return {
    [`bookedNights.${key}`]: sums.nights,
    [`accommodationRevenue.${key}`]: major(sums.accommodation),
    [`fees.${key}`]: major(sums.fees),
    [`totalRevenue.${key}`]: major(sums.accommodation + sums.fees),
    [`channelFees.${key}`]: major(sums.channelFees),
    [`netRevenue.${key}`]: major(sums.accommodation + sums.fees - sums.channelFees),
    [`payout.${key}`]: major(sums.payout),
  };
}

/** Sold-night money per channel and currency, keyed `<channel>.<currency>`. */
function moneyByChannel(performance: PeriodPerformance): Map<string, MoneySums> {
  const byChannel = new Map<string, MoneySums>();
  for (const night of performance.soldNights)
    addNight(byChannel, `${night.channel}.${night.currency}`, night);
  return byChannel;
}

const revenueStats: ToolCase = {
  tool: 'get_revenue_stats',
  arguments: allListings,
  targetMs: defaultTargetMs,
  baseline: {
    run: async (context) => {
      const performance = await fetchPeriodPerformance(context, context.period);
      const figures: Record<string, number | null> = {};
      for (const [currency, sums] of performance.money)
        Object.assign(figures, revenueFigures(sums, currency, currency));
      for (const [key, sums] of moneyByChannel(performance)) {
        const currency = key.slice(key.indexOf('.') + 1);
        const total = performance.money.get(currency);
        Object.assign(figures, revenueFigures(sums, currency, key));
        figures[`shareOfTotalRevenue.${key}`] = ratio(
          sums.accommodation + sums.fees,
          (total?.accommodation ?? 0) + (total?.fees ?? 0),
        );
      }
      return figures;
    },
    figuresOf: (output) => {
      const result = output as RevenueStats;
      const figures: Record<string, number | null> = {};
      const add = (entry: RevenueStats['currencies'][number], key: string) => {
        figures[`bookedNights.${key}`] = entry.bookedNights;
        figures[`accommodationRevenue.${key}`] = entry.accommodationRevenue;
        figures[`fees.${key}`] = entry.fees;
        figures[`totalRevenue.${key}`] = entry.totalRevenue;
        figures[`channelFees.${key}`] = entry.channelFees;
        figures[`netRevenue.${key}`] = entry.netRevenue;
        figures[`payout.${key}`] = entry.payout;
      };
      for (const entry of result.currencies) add(entry, entry.currency);
      for (const entry of result.byChannel) {
        const key = `${entry.channel}.${entry.currency}`;
        add(entry, key);
        figures[`shareOfTotalRevenue.${key}`] = entry.shareOfTotalRevenue;
      }
      return figures;
    },
  },
};

const adrStats: ToolCase = {
  tool: 'get_adr_stats',
  arguments: allListings,
  targetMs: defaultTargetMs,
  baseline: {
    run: async (context) => {
      const performance = await fetchPeriodPerformance(context, context.period);
      const figures: Record<string, number | null> = {};
      const add = (sums: MoneySums, currency: string, key: string) => {
        figures[`bookedNights.${key}`] = sums.nights;
        figures[`revenue.${key}`] = toMajorUnits(sums.accommodation, currency);
        figures[`adr.${key}`] = moneyPer(sums.accommodation, sums.nights, currency);
      };
      for (const [currency, sums] of performance.money) add(sums, currency, currency);
      for (const [key, sums] of moneyByChannel(performance)) add(sums, key.slice(key.indexOf('.') + 1), key);
      return figures;
    },
    figuresOf: (output) => {
      const result = output as AdrStats;
      const figures: Record<string, number | null> = {};
      const add = (entry: AdrStats['currencies'][number], key: string) => {
        figures[`bookedNights.${key}`] = entry.bookedNights;
        figures[`revenue.${key}`] = entry.revenue;
        figures[`adr.${key}`] = entry.adr;
      };
      for (const entry of result.currencies) add(entry, entry.currency);
      for (const entry of result.byChannel) add(entry, `${entry.channel}.${entry.currency}`);
      return figures;
    },
  },
};

const revparStats: ToolCase = {
  tool: 'get_revpar_stats',
  arguments: allListings,
  targetMs: defaultTargetMs,
  baseline: {
    run: async (context) => {
      const performance = await fetchPeriodPerformance(context, context.period);
      const figures: Record<string, number | null> = {
        availableNights: performance.availableNights,
        bookedNights: performance.bookedNights,
        occupancy: ratio(performance.bookedNights, performance.availableNights),
      };
      for (const [currency, supply] of performance.supplyByCurrency) {
        const sums = performance.money.get(currency) ?? { nights: 0, accommodation: 0 };
        figures[`listings.${currency}`] = supply.listings;
        figures[`calendarNights.${currency}`] = supply.calendarNights;
        figures[`availableNights.${currency}`] = supply.availableNights;
        figures[`bookedNights.${currency}`] = sums.nights;
        figures[`occupancy.${currency}`] = ratio(sums.nights, supply.availableNights);
        figures[`revenue.${currency}`] = toMajorUnits(sums.accommodation, currency);
        figures[`adr.${currency}`] = moneyPer(sums.accommodation, sums.nights, currency);
        figures[`revpar.${currency}`] = moneyPer(sums.accommodation, supply.availableNights, currency);
        figures[`grossRevpar.${currency}`] = moneyPer(sums.accommodation, supply.calendarNights, currency);
      }
      return figures;
    },
    figuresOf: (output) => {
      const result = output as RevparStats;
      const figures: Record<string, number | null> = {
        availableNights: result.availableNights,
        bookedNights: result.bookedNights,
        occupancy: result.occupancy,
      };
      for (const entry of result.currencies) {
        const currency = entry.currency;
        figures[`listings.${currency}`] = entry.listings;
        figures[`calendarNights.${currency}`] = entry.calendarNights;
        figures[`availableNights.${currency}`] = entry.availableNights;
        figures[`bookedNights.${currency}`] = entry.bookedNights;
        figures[`occupancy.${currency}`] = entry.occupancy;
        figures[`revenue.${currency}`] = entry.revenue;
        figures[`adr.${currency}`] = entry.adr;
        figures[`revpar.${currency}`] = entry.revpar;
        figures[`grossRevpar.${currency}`] = entry.grossRevpar;
      }
      return figures;
    },
  },
};

const timeseriesStats: ToolCase = {
  tool: 'get_timeseries_stats',
  // Monthly buckets and the default figures: booked nights, occupancy, ADR, RevPAR, accommodation revenue.
  arguments: allListings,
  targetMs: defaultTargetMs,
  baseline: {
    run: async (context) => {
      const performance = await fetchPeriodPerformance(context, context.period);
      return monthlySeries(performance);
    },
    figuresOf: (output) => {
      const result = output as TimeseriesStats;
      const figures: Record<string, number | null | undefined> = {};
      for (const bucket of result.buckets) {
        figures[`${bucket.key}.bookedNights`] = bucket.bookedNights;
        figures[`${bucket.key}.occupancy`] = bucket.occupancy;
        for (const entry of bucket.currencies ?? []) {
          figures[`${bucket.key}.adr.${entry.currency}`] = entry.adr;
          figures[`${bucket.key}.revpar.${entry.currency}`] = entry.revpar;
          figures[`${bucket.key}.accommodationRevenue.${entry.currency}`] = entry.accommodationRevenue;
        }
      }
      return defined(figures);
    },
  },
};

/** Monthly booked nights, occupancy, ADR, RevPAR and rent of a period, computed night by night. */
function monthlySeries(performance: PeriodPerformance): Figures {
  const listingsById = new Map(performance.listings.map((listing) => [listing.id, listing]));
  const activeFrom = performance.listings.map((listing) => ({
    currency: listing.currency,
    day: dayNumber(activeSince(listing)),
  }));
  const months = new Map<string, { nights: number; booked: number; blocked: number }>();
  const availableByCurrency = new Map<string, number>();
  const money = new Map<string, MoneySums>();
  const first = dayNumber(performance.range.startDate);
  const last = dayNumber(performance.range.endDate);
  const currencies = [...performance.supplyByCurrency.keys()];
  const monthOfDay = (day: number) => new Date(day * 86_400_000).toISOString().slice(0, 7);
  for (let day = first; day <= last; day += 1) {
    const month = monthOfDay(day);
    const entry = months.get(month) ?? { nights: 0, booked: 0, blocked: 0 };
    months.set(month, entry);
    // Each listing counts the nights from the day it became active.
    for (const listing of activeFrom) {
      if (listing.day > day) continue;
      entry.nights += 1;
      const key = `${month}.${listing.currency}`;
      availableByCurrency.set(key, (availableByCurrency.get(key) ?? 0) + 1);
    }
  }
  for (const reservation of performance.reservations) {
    if (reservation.status !== 'accepted') continue;
    eachNight(reservation.start_date, reservation.end_date, performance.range, (month) => {
      const entry = months.get(month);
      if (entry !== undefined) entry.booked += 1;
    });
  }
  for (const block of performance.blocks) {
    const listing = listingsById.get(block.listing_id);
    if (listing === undefined) continue;
    eachNight(block.start, block.end, activePart(listing, performance.range), (month) => {
      const entry = months.get(month);
      if (entry !== undefined) entry.blocked += 1;
      const key = `${month}.${listing.currency}`;
      availableByCurrency.set(key, (availableByCurrency.get(key) ?? 0) - 1);
    });
  }
  for (const night of performance.soldNights)
    addNight(money, `${night.night.slice(0, 7)}.${night.currency}`, night);
  const figures: Record<string, number | null> = {};
  for (const [month, entry] of months) {
    figures[`${month}.bookedNights`] = entry.booked;
    figures[`${month}.occupancy`] = ratio(entry.booked, entry.nights - entry.blocked);
    for (const currency of currencies) {
      const key = `${month}.${currency}`;
      const sums = money.get(key) ?? { nights: 0, accommodation: 0 };
      figures[`${month}.adr.${currency}`] = moneyPer(sums.accommodation, sums.nights, currency);
      figures[`${month}.revpar.${currency}`] = moneyPer(
        sums.accommodation,
        availableByCurrency.get(key) ?? 0,
        currency,
      );
      figures[`${month}.accommodationRevenue.${currency}`] = toMajorUnits(sums.accommodation, currency);
    }
  }
  return figures;
}

/** Calls `visit` with the month (YYYY-MM) of each night of `[from, to)` inside `range`. */
function eachNight(from: string, to: string, range: NightRange, visit: (month: string) => void): void {
  const start = Math.max(dayNumber(from), dayNumber(range.startDate));
  const end = Math.min(dayNumber(to), dayNumber(range.endDate) + 1);
  for (let day = start; day < end; day += 1) visit(new Date(day * 86_400_000).toISOString().slice(0, 7));
}

/** Per-listing supply, sales and rent of a period. */
function listingRows(performance: PeriodPerformance) {
  const booked = new Map<string, number>();
  for (const reservation of performance.reservations) {
    if (reservation.status !== 'accepted') continue;
    const inPeriod = overlapNights(reservation.start_date, reservation.end_date, performance.range);
    booked.set(reservation.listing_id, (booked.get(reservation.listing_id) ?? 0) + inPeriod);
  }
  return performance.listings.map((listing) => {
    const available =
      activeNightsIn(listing, performance.range) - (performance.blockedByListing.get(listing.id) ?? 0);
    const sold = booked.get(listing.id) ?? 0;
    return { id: listing.id, occupancy: ratio(sold, available) };
  });
}

const listingBreakdownRows = 25;

const listingBreakdownStats: ToolCase = {
  tool: 'get_listing_breakdown_stats',
  // One row per listing, by occupancy, best first, the default 25 rows; totals cover every listing.
  arguments: allListings,
  targetMs: defaultTargetMs,
  baseline: {
    run: async (context) => {
      const performance = await fetchPeriodPerformance(context, context.period);
      const figures: Record<string, number | null> = {
        'totals.listings': performance.listings.length,
        'totals.calendarNights': performance.calendarNights,
        'totals.availableNights': performance.availableNights,
        'totals.bookedNights': performance.bookedNights,
        'totals.occupancy': ratio(performance.bookedNights, performance.availableNights),
        'totals.grossOccupancy': ratio(performance.bookedNights, performance.calendarNights),
        'totals.blockedNights': performance.blocked.total,
        totalRows: performance.listings.length,
      };
      for (const [currency, sums] of performance.money) {
        const available = performance.supplyByCurrency.get(currency)?.availableNights ?? 0;
        figures[`totals.${currency}.availableNights`] = available;
        figures[`totals.${currency}.bookedNights`] = sums.nights;
        figures[`totals.${currency}.accommodationRevenue`] = toMajorUnits(sums.accommodation, currency);
        figures[`totals.${currency}.totalRevenue`] = toMajorUnits(sums.accommodation + sums.fees, currency);
        figures[`totals.${currency}.adr`] = moneyPer(sums.accommodation, sums.nights, currency);
        figures[`totals.${currency}.revpar`] = moneyPer(sums.accommodation, available, currency);
      }
      // Rows are compared by rank, not by id: listings with equal occupancy may come in any order.
      const ranked = listingRows(performance)
        .map((row) => row.occupancy ?? Number.NEGATIVE_INFINITY)
        .sort((a, b) => b - a)
        .slice(0, listingBreakdownRows);
      ranked.forEach((occupancy, index) => {
        figures[`rank${index + 1}.occupancy`] = occupancy === Number.NEGATIVE_INFINITY ? null : occupancy;
      });
      return figures;
    },
    figuresOf: (output) => {
      const result = output as ListingBreakdown;
      const { totals } = result;
      const figures: Record<string, number | null> = {
        'totals.listings': totals.listings,
        'totals.calendarNights': totals.calendarNights,
        'totals.availableNights': totals.availableNights,
        'totals.bookedNights': totals.bookedNights,
        'totals.occupancy': totals.occupancy,
        'totals.grossOccupancy': totals.grossOccupancy,
        'totals.blockedNights': totals.blockedNights.total,
        totalRows: result.totalRows,
      };
      for (const entry of totals.currencies) {
        const key = `totals.${entry.currency}`;
        figures[`${key}.availableNights`] = entry.availableNights;
        figures[`${key}.bookedNights`] = entry.bookedNights;
        figures[`${key}.accommodationRevenue`] = entry.accommodationRevenue;
        figures[`${key}.totalRevenue`] = entry.totalRevenue;
        figures[`${key}.adr`] = entry.adr;
        figures[`${key}.revpar`] = entry.revpar;
      }
      result.rows.forEach((row, index) => {
        figures[`rank${index + 1}.occupancy`] = row.occupancy;
      });
      return figures;
    },
  },
};

const channelPerformance: ToolCase = {
  tool: 'get_channel_performance',
  arguments: allListings,
  targetMs: defaultTargetMs,
  baseline: {
    run: async (context) => {
      const performance = await fetchPeriodPerformance(context, context.period);
      const { live, cancelled } = performance.cohort;
      const figures: Record<string, number | null> = {
        'totals.reservations': live.length,
        'totals.bookedNights': performance.bookedNights,
      };
      for (const [currency, sums] of performance.money) {
        figures[`totals.totalRevenue.${currency}`] = toMajorUnits(sums.accommodation + sums.fees, currency);
      }
      const channels = new Set([
        ...performance.soldNights.map((night) => night.channel),
        ...live.map((stay) => stay.reservation.channel),
        ...cancelled.map((reservation) => reservation.channel),
      ]);
      const byChannel = moneyByChannel(performance);
      for (const channel of channels) {
        const stays = live.filter((stay) => stay.reservation.channel === channel);
        const cancelledHere = cancelled.filter((reservation) => reservation.channel === channel).length;
        const nights = performance.soldNights.filter((night) => night.channel === channel).length;
        figures[`${channel}.reservations`] = stays.length;
        figures[`${channel}.bookedNights`] = nights;
        figures[`${channel}.nightShare`] = ratio(nights, performance.bookedNights);
        figures[`${channel}.averageLengthOfStay`] = mean2(
          stays.reduce((sum, stay) => sum + stay.reservation.nights, 0),
          stays.length,
        );
        figures[`${channel}.averageLeadTimeDays`] = mean2(
          stays.reduce((sum, stay) => sum + stay.leadDays, 0),
          stays.length,
        );
        figures[`${channel}.medianLeadTimeDays`] = median(stays.map((stay) => stay.leadDays));
        figures[`${channel}.cancelledReservations`] = cancelledHere;
        figures[`${channel}.cancellationRate`] = ratio(cancelledHere, cancelledHere + stays.length);
      }
      for (const [key, sums] of byChannel) {
        const currency = key.slice(key.indexOf('.') + 1);
        const total = performance.money.get(currency);
        const totalRevenue = sums.accommodation + sums.fees;
        figures[`${key}.bookedNights`] = sums.nights;
        figures[`${key}.accommodationRevenue`] = toMajorUnits(sums.accommodation, currency);
        figures[`${key}.totalRevenue`] = toMajorUnits(totalRevenue, currency);
        figures[`${key}.channelFees`] = toMajorUnits(sums.channelFees, currency);
        figures[`${key}.netRevenue`] = toMajorUnits(totalRevenue - sums.channelFees, currency);
        figures[`${key}.revenueShare`] = ratio(
          totalRevenue,
          (total?.accommodation ?? 0) + (total?.fees ?? 0),
        );
        figures[`${key}.adr`] = moneyPer(sums.accommodation, sums.nights, currency);
        figures[`${key}.effectiveCommission`] = ratio(sums.channelFees, totalRevenue);
      }
      return figures;
    },
    figuresOf: (output) => {
      const result = output as ChannelPerformance;
      const figures: Record<string, number | null> = {
        'totals.reservations': result.totals.reservations,
        'totals.bookedNights': result.totals.bookedNights,
      };
      for (const entry of result.totals.currencies) {
        figures[`totals.totalRevenue.${entry.currency}`] = entry.totalRevenue;
      }
      for (const row of result.channels) {
        const channel = row.channel;
        figures[`${channel}.reservations`] = row.reservations;
        figures[`${channel}.bookedNights`] = row.bookedNights;
        figures[`${channel}.nightShare`] = row.nightShare;
        figures[`${channel}.averageLengthOfStay`] = row.averageLengthOfStay;
        figures[`${channel}.averageLeadTimeDays`] = row.averageLeadTimeDays;
        figures[`${channel}.medianLeadTimeDays`] = row.medianLeadTimeDays;
        figures[`${channel}.cancelledReservations`] = row.cancelledReservations;
        figures[`${channel}.cancellationRate`] = row.cancellationRate;
        for (const entry of row.currencies) {
          const key = `${channel}.${entry.currency}`;
          figures[`${key}.bookedNights`] = entry.bookedNights;
          figures[`${key}.accommodationRevenue`] = entry.accommodationRevenue;
          figures[`${key}.totalRevenue`] = entry.totalRevenue;
          figures[`${key}.channelFees`] = entry.channelFees;
          figures[`${key}.netRevenue`] = entry.netRevenue;
          figures[`${key}.revenueShare`] = entry.revenueShare;
          figures[`${key}.adr`] = entry.adr;
          figures[`${key}.effectiveCommission`] = entry.effectiveCommission;
        }
      }
      return figures;
    },
  },
};

/** Figures without the ones a result left out (compared as missing against the baseline's). */
function defined(figures: Record<string, number | null | undefined>): Figures {
  const present: Record<string, number | null> = {};
  for (const [name, value] of Object.entries(figures)) if (value !== undefined) present[name] = value;
  return present;
}

/** The performance tools' cases. */
export const performanceCases: readonly ToolCase[] = [
  headlineKpis,
  occupancyStats,
  revenueStats,
  adrStats,
  revparStats,
  timeseriesStats,
  listingBreakdownStats,
  channelPerformance,
];
