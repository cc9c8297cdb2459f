import type { ComparisonKind } from '@innkeep/domain/analytics';
import {
  type AnalyticsPeriod,
  comparisonPeriod,
  distinctPeriods,
  periodNights,
} from '@innkeep/domain/analytics';

/** The period of a validated input. */
export function periodOf(input: { readonly startDate: string; readonly endDate: string }): AnalyticsPeriod {
  return { startDate: input.startDate, endDate: input.endDate };
}

/** A comparison period beside the asked one. */
export interface ComparedPeriod {
  readonly kind: ComparisonKind;
  readonly period: AnalyticsPeriod;
}

/** The comparison periods of `kinds` (duplicates dropped, order kept). */
export function comparedPeriods(
  period: AnalyticsPeriod,
  kinds: readonly ComparisonKind[] | undefined,
): ComparedPeriod[] {
  return [...new Set(kinds ?? [])].map((kind) => ({ kind, period: comparisonPeriod(period, kind) }));
}

/** The `{ kind, period }` header of a comparison in a result. */
export function comparisonHeader({ kind, period }: ComparedPeriod) {
  return {
    kind,
    period: { startDate: period.startDate, endDate: period.endDate, nights: periodNights(period) },
  };
}

/**
 * Runs `fetch` once per distinct period, all at once (PostgreSQL answers them side by side on pooled
 * connections), and returns one result per period in order: equal periods — a 12-month previous period is
 * also last year's — share one fetch.
 */
export async function eachDistinctPeriod<Result>(
  periods: readonly AnalyticsPeriod[],
  fetch: (period: AnalyticsPeriod) => Promise<Result>,
): Promise<Result[]> {
  const { distinct, positions } = distinctPeriods(periods);
  const results = await Promise.all(distinct.map(fetch));
  return positions.map((position) => results[position] as Result);
}
