import { headlineKpisInputSchema, headlineKpisSchema } from '@innkeep/domain/analytics';
import { defineOperation } from '../operation.ts';

/** get_headline_kpis: the KPI bundle of a period with previous-period and last-year comparisons. */
export const getHeadlineKpisOperation = defineOperation({
  id: 'get_headline_kpis',
  scopes: ['reservations:read', 'calendar:read'],
  access: 'read',
  input: headlineKpisInputSchema,
  output: headlineKpisSchema,
  run: (input, { actor, domain }) => domain.analytics.getHeadlineKpis(actor, input),
});
