import {
  type Actor,
  type InnkeepDomain,
  listingIdSchema,
  pageInputShape,
  pageLimits,
  reviewSchema,
} from '@innkeep/domain';
import { z } from 'zod';
import { defineOperation } from '../operation.ts';
import { pageOutput } from '../page-output.ts';

/**
 * list_listing_reviews: one listing's guest reviews, newest first, each with the confirmation code of the
 * stay it reviews (what integrations match reviews to their bookings by).
 */
export const listListingReviewsOperation = defineOperation({
  id: 'list_listing_reviews',
  scopes: ['reviews:read'],
  access: 'read',
  input: z.object({ listingId: listingIdSchema, ...pageInputShape }),
  output: pageOutput(
    reviewSchema.extend({
      confirmationCode: z
        .string()
        .nullable()
        .describe('Confirmation code of the stay reviewed; null when the channel did not say which.'),
    }),
  ),
  run: async ({ listingId, limit, cursor }, { actor, domain }) => {
    // Another account's listing would list nothing; say it does not exist instead.
    await domain.listings.get(actor, listingId);
    const page = await domain.reviews.list(actor, { listingId, limit, cursor });
    const codes = page.items.some((review) => review.reservationId !== null)
      ? await confirmationCodesOfListing(domain, actor, listingId)
      : new Map<string, string>();
    return {
      ...page,
      items: page.items.map((review) => ({
        ...review,
        confirmationCode: review.reservationId === null ? null : (codes.get(review.reservationId) ?? null),
      })),
    };
  },
});

/**
 * The confirmation code of every reservation of the listing, by reservation id. One listing's stays are
 * a few pages at most, fewer queries than looking each reviewed stay up on its own.
 */
async function confirmationCodesOfListing(
  domain: InnkeepDomain,
  actor: Actor,
  listingId: string,
): Promise<Map<string, string>> {
  const codes = new Map<string, string>();
  let cursor: string | undefined;
  for (;;) {
    const page = await domain.reservations.list(actor, { listingId, limit: pageLimits.max, cursor });
    for (const reservation of page.items) codes.set(reservation.id, reservation.confirmationCode);
    if (page.nextCursor === null) return codes;
    cursor = page.nextCursor;
  }
}
