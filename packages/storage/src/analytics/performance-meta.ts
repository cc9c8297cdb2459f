import type { AnalyticsMeta, AnalyticsPeriod, MetricDefinitionId } from '@innkeep/domain/analytics';
import { type AnalyticsScope, analyticsMeta } from './analytics-scope.ts';

/** Definitions every stay-night performance result rests on. */
const baseDefinitions: readonly MetricDefinitionId[] = [
  'local_dates',
  'stay_night_attribution',
  'live_statuses',
  'ratio_of_sums',
  'null_policy',
];

/** Definitions a result cites, plus `comparison_periods` when it compares. */
export function definitionsWith(
  definitions: readonly MetricDefinitionId[],
  compares: boolean,
): MetricDefinitionId[] {
  return compares ? [...definitions, 'comparison_periods'] : [...definitions];
}

/**
 * The `meta` of a performance result: stay-night basis, the base definitions plus `definitions`, and the
 * notes that apply — how supply is counted (when `supply` is used), what a channel filter does (or
 * `channelNote`, for a result that reads the filter differently), and how money in several currencies is
 * kept apart.
 */
export function performanceMeta(
  scope: AnalyticsScope,
  period: AnalyticsPeriod,
  details: {
    readonly definitions: readonly MetricDefinitionId[];
    readonly currencies: readonly string[];
    readonly supply: boolean;
    readonly channelNote?: string;
    readonly notes?: readonly string[];
  },
): AnalyticsMeta {
  const notes: string[] = [];
  if (details.supply) {
    notes.push(
      'Each listing in scope counts the period’s nights from the day it became active (its creation date, ' +
        'local time); owner, maintenance and manual blocks are taken out to give available nights.',
    );
  }
  if (scope.channel !== null) {
    notes.push(
      details.channelNote ??
        (details.supply
          ? `Only ${scope.channel} reservations count as booked, but available nights are the whole supply, ` +
            `so occupancy is ${scope.channel}'s share of it.`
          : `Only ${scope.channel} reservations are counted.`),
    );
  }
  if (details.currencies.length > 1) {
    notes.push(
      details.supply
        ? 'Money is per currency and never added across currencies; RevPAR of a currency divides by the ' +
            'available nights of the listings priced in it.'
        : 'Money is per currency and never added across currencies.',
    );
  }
  notes.push(...(details.notes ?? []));
  const definitions = new Set<MetricDefinitionId>([
    ...baseDefinitions,
    ...(details.currencies.length > 0 ? (['currency_policy'] as const) : []),
    ...details.definitions,
  ]);
  return analyticsMeta(scope, period, {
    basis: 'stay_night',
    definitions: [...definitions],
    currencies: details.currencies,
    notes,
  });
}
