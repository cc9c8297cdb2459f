import { getMetricDefinitionsOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_metric_definitions: how every analytics figure is defined and computed. */
export const getMetricDefinitionsTool = defineTool({
  operation: getMetricDefinitionsOperation,
  name: 'get_metric_definitions',
  title: 'Metric definitions',
  description:
    'How Innkeep computes its analytics, in a form to quote or reason with: for each definition id (the ids ' +
    'every analytics result lists in meta.definitions) the name, formula, how events are attributed to dates, ' +
    'the reservation statuses counted, numerator and denominator, when a figure is null and why, units and ' +
    'data notes; plus the conventions all tools share (sold = accepted, stay-night attribution, adjusted ' +
    'occupancy, revenue bases, per-currency money, local dates, comparison periods). Pass ids to get only ' +
    'some. Use it when a user asks how a number is defined or why two figures differ.',
});
