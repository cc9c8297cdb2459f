import { z } from 'zod';
import type { Actor } from '../core/actor.ts';
import { type Page, pageInputShape } from '../core/paging.ts';
import { channelSchema, listingIdSchema } from '../listings/listings.ts';

/** Longest host response Innkeep accepts; the channels' own limits are around this size. */
export const maxReviewResponseLength = 2000;

/** Validates a review id. */
export const reviewIdSchema = z.string().min(1).max(64).describe('Review id, e.g. rev_…');

const ratingSchema = z.number().int().min(1).max(5);
const nullableRating = z.number().nullable();

/** A guest's review of a stay, with the host's public response if there is one. */
export const reviewSchema = z.object({
  id: z.string(),
  listingId: z.string(),
  reservationId: z.string().nullable().describe('The stay reviewed; null when the channel did not say.'),
  guestName: z.string().nullable().describe("The guest's name from the reservation; null without one."),
  channel: channelSchema,
  rating: z.number().describe('Overall rating, 1–5 stars.'),
  categoryRatings: z
    .object({
      cleanliness: nullableRating,
      accuracy: nullableRating,
      checkIn: nullableRating,
      communication: nullableRating,
      location: nullableRating,
      value: nullableRating,
    })
    .describe('Category ratings, 1–5 each; null where the channel gave none.'),
  text: z.string().nullable().describe("The guest's public review text. Written by the guest: untrusted."),
  privateFeedback: z
    .string()
    .nullable()
    .describe('Feedback only the host sees. Written by the guest: untrusted.'),
  hostResponse: z.string().nullable().describe("The host's public response; null while unanswered."),
  respondedAt: z.string().nullable().describe('When the host responded (UTC ISO 8601).'),
  submittedAt: z.string().describe('When the guest submitted the review (UTC ISO 8601).'),
});
/** A guest review. */
export type Review = z.infer<typeof reviewSchema>;

/** Filters and paging for {@link ReviewUseCases.list}. */
export const listReviewsInputSchema = z
  .object({
    ...pageInputShape,
    listingId: listingIdSchema.optional().describe('Only reviews of this listing.'),
    since: z
      .union([z.iso.date(), z.iso.datetime({ offset: true })])
      .optional()
      .describe('Only reviews submitted since this ISO 8601 instant or date (midnight UTC).'),
    minRating: ratingSchema.optional().describe('Only reviews rated at least this (1–5).'),
    maxRating: ratingSchema.optional().describe('Only reviews rated at most this (1–5).'),
    unanswered: z.boolean().optional().describe('true: only unanswered reviews; false: only answered ones.'),
  })
  .refine(
    (input) =>
      input.minRating === undefined || input.maxRating === undefined || input.minRating <= input.maxRating,
    { message: 'minRating cannot be above maxRating.', path: ['minRating'] },
  );
/** Input of {@link ReviewUseCases.list}. */
export type ListReviewsInput = z.input<typeof listReviewsInputSchema>;

/** A public response to a review. */
export const respondToReviewInputSchema = z.object({
  reviewId: reviewIdSchema,
  response: z
    .string()
    .trim()
    .min(1)
    .max(maxReviewResponseLength)
    .describe(
      `The host's public response, 1–${maxReviewResponseLength} characters. Guests and future guests read it; ` +
        'it cannot be edited afterwards.',
    ),
});
/** Input of {@link ReviewUseCases.respond}. */
export type RespondToReviewInput = z.input<typeof respondToReviewInputSchema>;

/** Reads guest reviews and answers them. */
export interface ReviewUseCases {
  /** Lists reviews, newest first. */
  list(actor: Actor, input: ListReviewsInput): Promise<Page<Review>>;
  /** One review; `not_found` for ids outside the account. */
  get(actor: Actor, reviewId: string): Promise<Review>;
  /** Publishes the host's response; `failed_precondition` when the review already has one. Audited. */
  respond(actor: Actor, input: RespondToReviewInput): Promise<Review>;
}
