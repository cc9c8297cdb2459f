import { availabilityChangeSchema, setAvailabilityInputSchema } from '@innkeep/domain';
import { defineOperation } from '../operation.ts';

/** set_availability: blocks or opens a range of nights of one listing. */
export const setAvailabilityOperation = defineOperation({
  id: 'set_availability',
  scopes: ['calendar:write'],
  access: 'write',
  input: setAvailabilityInputSchema,
  output: availabilityChangeSchema,
  run: (input, { actor, domain }) => domain.calendar.setAvailability(actor, input),
});
