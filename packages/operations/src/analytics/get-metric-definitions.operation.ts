import { metricDefinitionsInputSchema, metricDefinitionsResultSchema } from '@innkeep/domain/analytics';
import { defineOperation } from '../operation.ts';

/** get_metric_definitions: how every analytics figure is defined and computed. */
export const getMetricDefinitionsOperation = defineOperation({
  id: 'get_metric_definitions',
  scopes: [],
  access: 'read',
  input: metricDefinitionsInputSchema,
  output: metricDefinitionsResultSchema,
  run: (input, { actor, domain }) => domain.analytics.getMetricDefinitions(actor, input),
});
