import { checkInsCheckOutsInputSchema, checkInsCheckOutsSchema } from '@innkeep/domain/analytics';
import { defineOperation } from '../operation.ts';

/** get_check_ins_check_outs: arrivals, departures and stayovers per day, week or month. */
export const getCheckInsCheckOutsOperation = defineOperation({
  id: 'get_check_ins_check_outs',
  scopes: ['reservations:read'],
  access: 'read',
  input: checkInsCheckOutsInputSchema,
  output: checkInsCheckOutsSchema,
  run: (input, { actor, domain }) => domain.analytics.getCheckInsCheckOuts(actor, input),
});
