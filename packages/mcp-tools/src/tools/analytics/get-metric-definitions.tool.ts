import { getMetricDefinitionsOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_metric_definitions: how every analytics figure is defined and computed. */
export const getMetricDefinitionsTool = defineTool({
  operation: getMetricDefinitionsOperation,
  name: 'get_metric_definitions',
  title: 'Metric definitions',
  description:
    'How each analytics figure is defined (ids from meta.definitions): formula, date attribution, ' +
    'statuses counted, when null, units; and the shared conventions. For “how is this defined?” or “why ' +
    'do two figures differ?”',
});
