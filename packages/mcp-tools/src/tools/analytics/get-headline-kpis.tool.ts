import { getHeadlineKpisOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_headline_kpis: the KPI bundle of a period with previous-period and last-year comparisons. */
export const getHeadlineKpisTool = defineTool({
  operation: getHeadlineKpisOperation,
  name: 'get_headline_kpis',
  title: 'Headline KPIs',
  description:
    'Start here for “how did we do” over a date range. Returns the headline KPIs of the period for the ' +
    'whole portfolio or a filtered scope: booked and available nights, occupancy (booked / available, with ' +
    'owner, maintenance and manual blocks taken out) and gross occupancy (booked / all nights), check-ins, ' +
    'average length of stay, mean and median lead time, cancellation rate, and per currency ADR, RevPAR, ' +
    'accommodation revenue and total revenue. Each KPI comes beside the previous period and the same period ' +
    'last year with absolute and relative changes (compareTo narrows or drops them). Counts accepted stays ' +
    'by stay night, so a stay crossing the period edge counts only its nights inside; money is never added ' +
    'across currencies; a ratio is null (with nullReasons) when its denominator is zero. For one figure in ' +
    'depth use get_occupancy_stats, get_revenue_stats, get_adr_stats or get_revpar_stats; for a trend, ' +
    'get_timeseries_stats.',
});
