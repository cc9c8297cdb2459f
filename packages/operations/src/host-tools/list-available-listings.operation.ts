import {
  areLocalDates,
  availabilityWindowProblem,
  listingSchema,
  localDateSchema,
  pageInputShape,
} from '@innkeep/domain';
import { z } from 'zod';
import { defineOperation } from '../operation.ts';
import { pageOutput } from '../page-output.ts';

// Routes describing this operation quote the limit; the domain, which enforces it, owns it.
export { maxAvailabilityWindowNights } from '@innkeep/domain';

const availableListingsInput = z
  .object({
    ...pageInputShape,
    startDate: localDateSchema
      .optional()
      .describe('With endDate: only listings free on every night from this check-in date on.'),
    endDate: localDateSchema
      .optional()
      .describe('With startDate: the check-out date; the last night that must be free is the day before.'),
  })
  .superRefine((input, context) => {
    if ((input.startDate === undefined) !== (input.endDate === undefined)) {
      context.addIssue({
        code: 'custom',
        path: [input.startDate === undefined ? 'startDate' : 'endDate'],
        message: 'Send startDate and endDate together, or neither.',
      });
      return;
    }
    if (!areLocalDates(input.startDate, input.endDate)) return;
    const problem = availabilityWindowProblem(input.startDate ?? '', input.endDate ?? '');
    if (problem !== undefined) context.addIssue({ code: 'custom', path: ['endDate'], message: problem });
  });

/**
 * list_available_listings: the account's listings by name, or with startDate and endDate only those whose
 * every night of the window is open (neither booked nor blocked). Both forms page alike, by name.
 */
export const listAvailableListingsOperation = defineOperation({
  id: 'list_available_listings',
  scopes: ['listings:read'],
  access: 'read',
  input: availableListingsInput,
  output: pageOutput(listingSchema),
  run: async ({ limit, cursor, startDate, endDate }, { actor, domain }) => {
    if (startDate === undefined || endDate === undefined) {
      return domain.listings.list(actor, { limit, cursor });
    }
    return domain.listings.listAvailable(actor, { limit, cursor, startDate, endDate });
  },
});
