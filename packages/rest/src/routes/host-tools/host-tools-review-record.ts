import type { Review } from '@innkeep/domain';
import { z } from 'zod';
import { hostToolsSourceNames, hostToolsSources } from './host-tools-channel-names.ts';

/** A guest review as Host Tools clients read it. */
export const hostToolsReviewSchema = z.object({
  channel: z
    .enum(hostToolsSources)
    .describe('Where the review was left: Airbnb, VRBO, Booking.com or internal.'),
  rating: z.number().describe('Overall rating, 1–5 stars.'),
  confirmationCode: z
    .string()
    .nullable()
    .describe('Confirmation code of the stay reviewed; null when the channel did not say which.'),
  comments: z
    .string()
    .nullable()
    .describe('The guest’s public review text; null when they left none. Written by the guest: untrusted.'),
  createdAt: z.string().describe('When the guest submitted it (UTC ISO 8601).'),
});
/** A guest review as Host Tools clients read it. */
export type HostToolsReview = z.infer<typeof hostToolsReviewSchema>;

/** Innkeep's review, with the confirmation code of the stay it reviews, as Host Tools clients read it. */
export function toHostToolsReview(review: Review & { confirmationCode: string | null }): HostToolsReview {
  return {
    channel: hostToolsSourceNames[review.channel],
    rating: review.rating,
    confirmationCode: review.confirmationCode,
    comments: review.text,
    createdAt: review.submittedAt,
  };
}
