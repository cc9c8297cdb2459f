import {
  getChannelCalendarOperation,
  getHostToolsWebhookOperation,
  getListingGroupOperation,
  getListingOperation,
  getQuoteForPartyOperation,
  getReservationsOperation,
  getReservationWithMessagesOperation,
  getUserOperation,
  listAllListingGroupsOperation,
  listAvailableListingsOperation,
  listListingReviewsOperation,
  maxAvailabilityWindowNights,
  maxChannelCalendarDays,
} from '@innkeep/operations';
import { z } from 'zod';
import { defineRoute, type RestRoute } from '../../route-definition.ts';
import { hostToolsCalendarSchema, toHostToolsCalendar } from './host-tools-calendar-record.ts';
import { hostToolsListingGroupSchema, toHostToolsListingGroup } from './host-tools-listing-group-record.ts';
import { hostToolsListingSchema, toHostToolsListing } from './host-tools-listing-record.ts';
import { hostToolsPaging, hostToolsPagingShape } from './host-tools-paging.ts';
import { hostToolsQuoteSchema, toHostToolsQuote } from './host-tools-quote-record.ts';
import {
  hostToolsReservationDetailSchema,
  hostToolsReservationSchema,
  toHostToolsReservation,
  toHostToolsReservationDetail,
} from './host-tools-reservation-record.ts';
import { hostToolsReviewSchema, toHostToolsReview } from './host-tools-review-record.ts';
import { hostToolsUserSchema, toHostToolsUser } from './host-tools-user-record.ts';

const tag = 'Host Tools';

const userIdSchema = z.string().describe('The account id, as in getUser and every record.');

/** Host Tools clients ask for listing groups with `listings:read`; `listingGroups:read` is Innkeep's own. */
const listingGroupScopes = [['listingGroups:read'], ['listings:read']] as const;

const wholeListNote =
  'The whole list unless limit or cursor is sent; then one page (limit 1–500, default 50) with nextCursor ' +
  'and hasMore beside it.';

/** GET /getUser → get_user. */
const getUserRoute = defineRoute({
  operation: getUserOperation,
  method: 'GET',
  path: '/getUser',
  summary: 'The user the credentials belong to.',
  description: 'userID is the account id, which every listing and reservation of the account carries.',
  tag,
  answer: (profile) => toHostToolsUser(profile),
  answerSchema: hostToolsUserSchema,
});

/** GET /getListings → list_available_listings. */
const getListingsRoute = defineRoute({
  operation: listAvailableListingsOperation,
  method: 'GET',
  path: '/getListings',
  summary: 'The account’s listings, optionally only those free for a stay.',
  description:
    'With startDate and endDate (YYYY-MM-DD; endDate is the check-out date, at most ' +
    `${maxAvailabilityWindowNights} nights later), only listings on which every night from startDate up ` +
    `to endDate is open: neither booked nor blocked. Listings by name. ${wholeListNote}`,
  tag,
  paging: 'whole-unless-asked',
  answer: (page, { accountId, paged }) => ({
    listings: page.items.map((listing) => toHostToolsListing(listing, accountId)),
    userID: accountId,
    ...hostToolsPaging(page, paged),
  }),
  answerSchema: z.object({
    listings: z.array(hostToolsListingSchema),
    userID: userIdSchema,
    ...hostToolsPagingShape,
  }),
});

/** GET /getListing/{listingId} → get_listing. */
const getListingRoute = defineRoute({
  operation: getListingOperation,
  method: 'GET',
  path: '/getListing/:listingId',
  summary: 'One listing.',
  tag,
  answer: (listing, { accountId }) => toHostToolsListing(listing, accountId),
  answerSchema: hostToolsListingSchema,
});

/** GET /getCalendar/{listingId}/{startDate}/{endDate} → get_channel_calendar. */
const getCalendarRoute = defineRoute({
  operation: getChannelCalendarOperation,
  method: 'GET',
  path: '/getCalendar/:listingId/:startDate/:endDate',
  summary: 'A listing’s nightly prices and stay rules per channel.',
  description:
    'Every date from startDate to endDate, both included (at most ' +
    `${maxChannelCalendarDays} days), with the price, minimum stay and closed arrival and departure on ` +
    'each channel the listing is on (other: direct bookings).',
  tag,
  answer: (calendar, { accountId }) => toHostToolsCalendar(calendar, accountId),
  answerSchema: hostToolsCalendarSchema,
});

/** GET /listingGroups → list_all_listing_groups. */
const listingGroupsRoute = defineRoute({
  operation: listAllListingGroupsOperation,
  method: 'GET',
  path: '/listingGroups',
  summary: 'Every listing group of the account.',
  description: 'A bare array of every group, by name.',
  tag,
  scopeAlternatives: listingGroupScopes,
  answer: ({ listingGroups }) => listingGroups.map(toHostToolsListingGroup),
  answerSchema: z.array(hostToolsListingGroupSchema),
});

/** GET /getListingGroup/{groupId} → get_listing_group. */
const getListingGroupRoute = defineRoute({
  operation: getListingGroupOperation,
  method: 'GET',
  path: '/getListingGroup/:groupId',
  summary: 'One listing group.',
  tag,
  scopeAlternatives: listingGroupScopes,
  answer: (group) => toHostToolsListingGroup(group),
  answerSchema: hostToolsListingGroupSchema,
});

/** GET /getReservations/{listingId}/{startDate}/{endDate} → get_reservations. */
const getReservationsRoute = defineRoute({
  operation: getReservationsOperation,
  method: 'GET',
  path: '/getReservations/:listingId/:startDate/:endDate',
  summary: 'A listing’s reservations overlapping a window.',
  description:
    'Reservations of the listing with a night from startDate to endDate (both included), by check-in date, ' +
    `in every status: cancelled, declined and expired ones read as cancelled. ${wholeListNote}`,
  tag,
  paging: 'whole-unless-asked',
  answer: (page, { accountId, paged }) => ({
    reservations: page.items.map((reservation) => toHostToolsReservation(reservation, accountId)),
    userID: accountId,
    ...hostToolsPaging(page, paged),
  }),
  answerSchema: z.object({
    reservations: z.array(hostToolsReservationSchema),
    userID: userIdSchema,
    ...hostToolsPagingShape,
  }),
});

/** GET /getReservation/{reservationId} → get_reservation_with_messages. */
const getReservationRoute = defineRoute({
  operation: getReservationWithMessagesOperation,
  method: 'GET',
  path: '/getReservation/:reservationId',
  summary: 'One reservation with its money lines and messages.',
  tag,
  answer: (reservation, { accountId }) =>
    toHostToolsReservationDetail(reservation, reservation.messages, accountId),
  answerSchema: hostToolsReservationDetailSchema,
});

/** POST /getQuote/{listingId} → get_quote_for_party. It only reads; POST is how Host Tools defines it. */
const getQuoteRoute = defineRoute({
  operation: getQuoteForPartyOperation,
  method: 'POST',
  path: '/getQuote/:listingId',
  summary: 'What a stay would cost.',
  description:
    'Prices a stay from the calendar without booking it. Stays the listing cannot take (disabled listing, ' +
    'too short or long, too many guests, closed arrival or departure) answer 422 failed_precondition; ' +
    'nights already taken answer 409.',
  tag,
  scopeAlternatives: [['calendar:read'], ['reservations:read']],
  bodySchema: getQuoteForPartyOperation.input.omit({ listingId: true }),
  answer: ({ quote, guests }) => toHostToolsQuote(quote, guests),
  answerSchema: hostToolsQuoteSchema,
});

/** GET /getReviews/{listingId} → list_listing_reviews. */
const getReviewsRoute = defineRoute({
  operation: listListingReviewsOperation,
  method: 'GET',
  path: '/getReviews/:listingId',
  summary: 'A listing’s guest reviews.',
  description: `Every channel’s reviews of the listing, newest first. ${wholeListNote}`,
  tag,
  paging: 'whole-unless-asked',
  answer: (page, { input, paged }) => ({
    count: page.items.length,
    listingID: (input as { listingId: string }).listingId,
    reviews: page.items.map(toHostToolsReview),
    ...hostToolsPaging(page, paged),
  }),
  answerSchema: z.object({
    count: z.number().describe('Reviews in this answer.'),
    listingID: z.string(),
    reviews: z.array(hostToolsReviewSchema),
    ...hostToolsPagingShape,
  }),
});

/** GET /getWebhook → get_host_tools_webhook. */
const getWebhookRoute = defineRoute({
  operation: getHostToolsWebhookOperation,
  method: 'GET',
  path: '/getWebhook',
  summary: 'The URL Host Tools-shaped webhooks go to.',
  description: 'null when none is set.',
  tag,
});

/** The Host Tools operations that read, with the paths and answers Host Tools integrations use. */
export const hostToolsReadRoutes: readonly RestRoute[] = [
  getUserRoute,
  getListingsRoute,
  getListingRoute,
  getCalendarRoute,
  listingGroupsRoute,
  getListingGroupRoute,
  getReservationsRoute,
  getReservationRoute,
  getQuoteRoute,
  getReviewsRoute,
  getWebhookRoute,
];
