import { z } from 'zod';
import { calendarImportClashSchema } from '../calendar-imports/calendar-imports.ts';
import { localDateSchema } from '../core/dates.ts';
import { channelSchema } from '../listings/listings.ts';
import { messageSenders } from '../messages/messages.ts';
import { cancelledByValues, reservationStatuses } from '../reservations/reservation-status.ts';
import type { WebhookEvent } from './webhooks.ts';

// What each event says. Deliberately small: the ids and the facts that changed, so a payload stays cheap to
// store, sign and send, and never carries guest details a receiver did not ask for; a receiver that wants the
// whole record fetches it by id with its own credentials.

/** One changed field: its value before and after the write, in the units the API reports it in. */
const fieldChangeSchema = z.object({ from: z.unknown(), to: z.unknown() });

/** Changed fields by their API name, e.g. `{ startDate: { from: '2026-07-03', to: '2026-07-04' } }`. */
export const webhookFieldChangesSchema = z
  .record(z.string(), fieldChangeSchema)
  .describe('The fields the write changed, by API name, each with its value before (from) and after (to).');

/** `reservation.created`: a reservation was booked, requested or enquired about. */
export const reservationCreatedEventDataSchema = z.object({
  reservationId: z.string(),
  listingId: z.string(),
  channel: channelSchema,
  status: z.enum(reservationStatuses),
  startDate: localDateSchema,
  endDate: localDateSchema,
});

/**
 * `reservation.updated`: a reservation's dates, guests, price, details or status changed (a cancellation is
 * `reservation.cancelled` instead).
 */
export const reservationUpdatedEventDataSchema = z.object({
  reservationId: z.string(),
  listingId: z.string(),
  changes: webhookFieldChangesSchema,
});

/** `reservation.cancelled`: a reservation was cancelled; its nights are free again. */
export const reservationCancelledEventDataSchema = z.object({
  reservationId: z.string(),
  listingId: z.string(),
  previousStatus: z.enum(reservationStatuses),
  cancelledBy: z.enum(cancelledByValues),
});

/** `message.created`: a message joined a reservation's thread (sent by the host or by a message rule). */
export const messageCreatedEventDataSchema = z.object({
  messageId: z.string(),
  reservationId: z.string(),
  sender: z.enum(messageSenders),
  messageRuleId: z.string().nullable(),
});

/** `review.created`: a guest review arrived. */
export const reviewCreatedEventDataSchema = z.object({
  reviewId: z.string(),
  listingId: z.string(),
  reservationId: z.string().nullable(),
  rating: z.number(),
});

/** What part of the calendar a `calendar.updated` event changed. */
export const calendarChanges = ['prices', 'availability'] as const;

/**
 * `calendar.updated`: prices, stay rules or availability of a listing's dates changed, somewhere from
 * `startDate` to `endDate` (both included).
 */
export const calendarUpdatedEventDataSchema = z.object({
  listingId: z.string(),
  startDate: localDateSchema,
  endDate: localDateSchema.describe('The last date changed (included).'),
  change: z.enum(calendarChanges),
});

/**
 * `calendar.import_conflict`: a stay in a channel's calendar clashes with a reservation or block here, so its
 * nights were not imported; sent once, when the clash is first seen. A double booking to resolve by hand.
 */
export const calendarImportConflictEventDataSchema = z.object({
  listingId: z.string(),
  channelAccountId: z.string(),
  channel: channelSchema,
  eventUid: z.string(),
  startDate: localDateSchema,
  endDate: localDateSchema.describe('The check-out day of the channel’s stay (excluded).'),
  clashes: z.array(calendarImportClashSchema),
});

/** `listing.updated`: listing settings changed. */
export const listingUpdatedEventDataSchema = z.object({
  listingId: z.string(),
  changes: webhookFieldChangesSchema,
});

/** The `data` of each event, by event. */
export const webhookEventDataSchemas = {
  'reservation.created': reservationCreatedEventDataSchema,
  'reservation.updated': reservationUpdatedEventDataSchema,
  'reservation.cancelled': reservationCancelledEventDataSchema,
  'message.created': messageCreatedEventDataSchema,
  'review.created': reviewCreatedEventDataSchema,
  'calendar.updated': calendarUpdatedEventDataSchema,
  'calendar.import_conflict': calendarImportConflictEventDataSchema,
  'listing.updated': listingUpdatedEventDataSchema,
} as const satisfies Record<WebhookEvent, z.ZodType>;

/** The `data` of event `E`. */
export type WebhookEventData<E extends WebhookEvent> = z.infer<(typeof webhookEventDataSchemas)[E]>;

/** One event a write records: its kind and its data, as a union so the two always match. */
export type WebhookEventRecord = {
  [E in WebhookEvent]: { readonly accountId: string; readonly event: E; readonly data: WebhookEventData<E> };
}[WebhookEvent];
