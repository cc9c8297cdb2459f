import type { OccupancyFigures, OccupancyStats, periodTotalsInputSchema } from '@innkeep/domain/analytics';
import type { z } from 'zod';
import type { Executor } from '../database.ts';
import type { AnalyticsScope } from './analytics-scope.ts';
import { bookedNightsIn, change, nth, occupancyFigures } from './performance-calculations.ts';
import { definitionsWith, performanceMeta } from './performance-meta.ts';
import { comparedPeriods, comparisonHeader, periodOf } from './performance-periods.ts';
import { soldNightsByPeriod } from './performance-sold-nights.ts';
import { supplyByPeriod } from './performance-supply.ts';

/** The occupancy changes between two periods' figures. */
function occupancyChanges(current: OccupancyFigures, baseline: OccupancyFigures) {
  const reason = (figures: OccupancyFigures, field: 'occupancy' | 'grossOccupancy') =>
    figures.nullReasons[field] ?? 'no_available_nights';
  return {
    bookedNights: change(
      [current.bookedNights, 'no_booked_nights'],
      [baseline.bookedNights, 'no_baseline'],
      0,
    ),
    availableNights: change(
      [current.availableNights, 'no_available_nights'],
      [baseline.availableNights, 'no_baseline'],
      0,
    ),
    occupancy: change(
      [current.occupancy, reason(current, 'occupancy')],
      [baseline.occupancy, reason(baseline, 'occupancy')],
      4,
    ),
    grossOccupancy: change(
      [current.grossOccupancy, reason(current, 'grossOccupancy')],
      [baseline.grossOccupancy, reason(baseline, 'grossOccupancy')],
      4,
    ),
  };
}

/** get_occupancy_stats: supply, booked nights and both occupancies, with optional comparisons. */
export async function occupancyStats(
  db: Executor,
  scope: AnalyticsScope,
  input: z.output<typeof periodTotalsInputSchema>,
): Promise<OccupancyStats> {
  const period = periodOf(input);
  const compared = comparedPeriods(period, input.compareTo);
  const periods = [period, ...compared.map((entry) => entry.period)];
  const [supply, sold] = await Promise.all([
    supplyByPeriod(db, scope, periods),
    soldNightsByPeriod(db, scope, periods),
  ]);
  const figures = periods.map((_, index) =>
    occupancyFigures(nth(supply, index), bookedNightsIn(nth(sold, index))),
  );
  const current = nth(figures, 0);
  return {
    meta: performanceMeta(scope, period, {
      definitions: definitionsWith(
        ['available_nights', 'occupancy_adjusted', 'occupancy_gross'],
        compared.length > 0,
      ),
      currencies: [],
      supply: true,
    }),
    ...current,
    comparisons: compared.map((entry, index) => {
      const baseline = nth(figures, index + 1);
      return { ...comparisonHeader(entry), ...baseline, changes: occupancyChanges(current, baseline) };
    }),
  };
}
