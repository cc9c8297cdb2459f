import { listReservationsInputSchema, reservationSchema } from '@innkeep/domain';
import { defineOperation } from '../operation.ts';
import { pageOutput } from '../page-output.ts';
import { fetchPageThatFits, modelLimit } from '../read-paging.ts';

/** get_reservations: the account's reservations, filtered and paged. */
export const getReservationsOperation = defineOperation({
  id: 'get_reservations',
  scopes: ['reservations:read'],
  access: 'read',
  input: listReservationsInputSchema.safeExtend({ limit: modelLimit('reservations') }),
  output: pageOutput(reservationSchema),
  run: async (input, { actor, domain }) => {
    // A filter naming another account's listing would list nothing; say it does not exist instead.
    if (input.listingId !== undefined) await domain.listings.get(actor, input.listingId);
    return fetchPageThatFits(
      input.limit,
      (limit) => domain.reservations.list(actor, { ...input, limit }),
      (page) => page,
    );
  },
});
