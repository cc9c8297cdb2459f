import { getHeadlineKpisOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_headline_kpis: the KPI bundle of a period with previous-period and last-year comparisons. */
export const getHeadlineKpisTool = defineTool({
  operation: getHeadlineKpisOperation,
  name: 'get_headline_kpis',
  title: 'Headline KPIs',
  description:
    'Start here for “how did we do”: booked and available nights, occupancy and gross occupancy, ' +
    'check-ins, average stay, lead time, cancellation rate, per currency ADR, RevPAR and revenue, each ' +
    'beside the previous period and last year. The other get_*_stats tools go deeper.',
});
