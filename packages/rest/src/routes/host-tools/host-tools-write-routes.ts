import { parseInput } from '@innkeep/domain';
import {
  cancelReservationOperation,
  createReservationOperation,
  deleteHostToolsWebhookOperation,
  sendMessageOperation,
  setHostToolsReservationOperation,
  setHostToolsWebhookOperation,
  setPricesOperation,
  updateListingOperation,
} from '@innkeep/operations';
import { z } from 'zod';
import { defineRoute, type RestRoute } from '../../route-definition.ts';
import {
  cancelReservationBodySchema,
  createReservationBodySchema,
  sendMessageBodySchema,
  setListingBodySchema,
  setPricesBodySchema,
  setReservationBodySchema,
  setWebhookBodySchema,
  stayDateOf,
} from './host-tools-write-bodies.ts';

const tag = 'Host Tools';

/** What every Host Tools write answers. */
const successAnswerSchema = z.object({
  success: z.boolean().describe('true: the change was made (failures answer an error status instead).'),
});

/** The answer of a write that went through. */
const succeeded = () => ({ success: true });

/**
 * The fields of `fields` that were given. An operation input names a field only when the caller sent it:
 * the operations tell "leave as it is" (absent) from "remove" (null), and refuse a change of nothing.
 */
function given<Fields extends Record<string, unknown>>(fields: Fields): Partial<Fields> {
  return Object.fromEntries(
    Object.entries(fields).filter(([, value]) => value !== undefined),
  ) as Partial<Fields>;
}

/** Empty text for an optional guest field means the guest left it blank: Innkeep stores that as absent. */
function blankAsAbsent(value: string | undefined): string | undefined {
  return value === '' ? undefined : value;
}

/** POST /setListing/{listingId} → update_listing. */
const setListingRoute = defineRoute({
  operation: updateListingOperation,
  method: 'POST',
  path: '/setListing/:listingId',
  summary: 'Change a listing’s settings.',
  description:
    'Changes name, check-in and check-out hours, minimum nights, maximum guests, base and minimum price and ' +
    'the weekly and monthly discounts. Fields Innkeep does not store (address, currency, timeZone, ' +
    'messagingEnabled, syncAvailability, syncPricing, bookingWindow …) are refused with 400 and nothing changes.',
  tag,
  bodySchema: setListingBodySchema,
  input: ({ params, body }) => {
    const { weeklyDiscount, monthlyDiscount, ...settings } = parseInput(setListingBodySchema, body);
    return given({
      listingId: params.listingId,
      ...settings,
      // Innkeep keeps a discount as a percentage, 0 being none; Host Tools removes one with null.
      weeklyDiscount: weeklyDiscount === null ? 0 : weeklyDiscount,
      monthlyDiscount: monthlyDiscount === null ? 0 : monthlyDiscount,
    });
  },
  answer: succeeded,
  answerSchema: successAnswerSchema,
});

/** POST /setPrices/{listingId} → set_prices. */
const setPricesRoute = defineRoute({
  operation: setPricesOperation,
  method: 'POST',
  path: '/setPrices/:listingId',
  summary: 'Set per-date prices and stay restrictions.',
  description:
    'Per date: the nightly price (on every channel), the minimum stay for arrivals, and whether check-in ' +
    '(blockCheckin) or check-out (blockCheckout) is closed. Pricing rules and the minimum price still apply ' +
    'on top of a price. All dates change, or none.',
  tag,
  // Host Tools clients ask for listings:write, never calendar:write (PRODUCT.md, REST).
  scopeAlternatives: [['calendar:write'], ['listings:write']],
  bodySchema: setPricesBodySchema,
  input: ({ params, body }) => ({
    listingId: params.listingId,
    prices: parseInput(setPricesBodySchema, body).prices.map((entry) =>
      given({
        date: stayDateOf(entry.date),
        price: entry.price,
        minNights: entry.minNights,
        closedToArrival: entry.blockCheckin,
        closedToDeparture: entry.blockCheckout,
      }),
    ),
  }),
  answer: succeeded,
  answerSchema: successAnswerSchema,
});

/** POST /createReservation → create_reservation. */
const createReservationRoute = defineRoute({
  operation: createReservationOperation,
  method: 'POST',
  path: '/createReservation',
  summary: 'Book a direct reservation.',
  description:
    'Books a direct (internal) stay and answers its id. Nights already held by another stay or a block are ' +
    'refused with 409 and details.clashes naming what is in the way; nothing is booked then.',
  tag,
  bodySchema: createReservationBodySchema,
  input: ({ body }) => {
    const booking = parseInput(createReservationBodySchema, body);
    return given({
      listingId: booking.listingID,
      startDate: stayDateOf(booking.startDate),
      endDate: stayDateOf(booking.endDate),
      guest: given({
        firstName: booking.firstName,
        lastName: booking.lastName,
        email: blankAsAbsent(booking.email),
        phone: blankAsAbsent(booking.phone),
      }),
      adults: booking.guests.adults,
      children: booking.guests.children,
      infants: booking.guests.infants,
      pets: booking.guests.pets,
      status: booking.status,
      confirmationCode: booking.confirmationCode,
      guestPrice: booking.guestPrice,
      hostPayout: booking.hostPayout,
      checkInTime: booking.checkInTime,
      checkOutTime: booking.checkOutTime,
      notes: blankAsAbsent(booking.notes),
    });
  },
  answer: (reservation) => ({ success: true, reservationID: reservation.id }),
  answerSchema: successAnswerSchema.extend({
    reservationID: z.string().describe('The new reservation’s id, as getReservation takes it.'),
  }),
});

/** POST /setReservation/{reservationId} → set_host_tools_reservation (update_reservation). */
const setReservationRoute = defineRoute({
  operation: setHostToolsReservationOperation,
  method: 'POST',
  path: '/setReservation/:reservationId',
  summary: 'Change a reservation’s guest details, times, access code or notes.',
  description:
    'accessCode null generates a new random code. Fields Innkeep does not store (guideBookURL, ' +
    'verificationURL, verificationStatus, incidentURL) are refused with 400 and nothing changes.',
  tag,
  bodySchema: setReservationBodySchema,
  input: ({ params, body }) => {
    const { firstName, lastName, email, phone, accessCode, ...rest } = parseInput(
      setReservationBodySchema,
      body,
    );
    const guest = given({ firstName, lastName, email, phone });
    return given({
      reservationId: params.reservationId,
      ...rest,
      guest: Object.keys(guest).length === 0 ? undefined : guest,
      accessCode: accessCode === null ? undefined : accessCode,
      generateAccessCode: accessCode === null ? true : undefined,
    });
  },
  answer: succeeded,
  answerSchema: successAnswerSchema,
});

/** POST /cancelReservation/{reservationId} → cancel_reservation. */
const cancelReservationRoute = defineRoute({
  operation: cancelReservationOperation,
  method: 'POST',
  path: '/cancelReservation/:reservationId',
  summary: 'Cancel a direct reservation.',
  description:
    'Cancels a direct (internal) stay, by the host, and frees its nights. Channel reservations are cancelled ' +
    'on the channel (422 failed_precondition); so are stays already cancelled, declined or expired.',
  tag,
  bodySchema: cancelReservationBodySchema,
  input: ({ params, body }) => {
    parseInput(cancelReservationBodySchema, body);
    return { reservationId: params.reservationId };
  },
  answer: succeeded,
  answerSchema: successAnswerSchema,
});

/** POST /sendMessage/{reservationId} → send_message. */
const sendMessageRoute = defineRoute({
  operation: sendMessageOperation,
  method: 'POST',
  path: '/sendMessage/:reservationId',
  summary: 'Message the guest of a reservation.',
  description: 'Adds a host message to the reservation’s thread; the channel delivers it to the guest.',
  tag,
  bodySchema: sendMessageBodySchema,
  input: ({ params, body }) => ({
    reservationId: params.reservationId,
    body: parseInput(sendMessageBodySchema, body).message,
  }),
  answer: succeeded,
  answerSchema: successAnswerSchema,
});

/** POST /setWebhook → set_host_tools_webhook. */
const setWebhookRoute = defineRoute({
  operation: setHostToolsWebhookOperation,
  method: 'POST',
  path: '/setWebhook',
  summary: 'Set the URL receiving reservation and message events.',
  description:
    'One URL per account, replaced by each call. It receives `{type: "reservation" | "message", document}` ' +
    'bodies when reservations are created, changed or cancelled and when messages are added.',
  tag,
  bodySchema: setWebhookBodySchema,
  input: ({ body }) => {
    const { webhookURL, url } = parseInput(setWebhookBodySchema, body);
    return { url: webhookURL ?? url };
  },
  answer: succeeded,
  answerSchema: successAnswerSchema,
});

/** DELETE /deleteWebhook → delete_host_tools_webhook. */
const deleteWebhookRoute = defineRoute({
  operation: deleteHostToolsWebhookOperation,
  method: 'DELETE',
  path: '/deleteWebhook',
  summary: 'Stop sending events to the webhook URL.',
  description: 'Removes the URL set with setWebhook; succeeds also when none is set.',
  tag,
  answer: succeeded,
  answerSchema: successAnswerSchema,
});

/** The Host Tools operations that change data, with the bodies and answers Host Tools integrations use. */
export const hostToolsWriteRoutes: readonly RestRoute[] = [
  setListingRoute,
  setPricesRoute,
  createReservationRoute,
  setReservationRoute,
  cancelReservationRoute,
  sendMessageRoute,
  setWebhookRoute,
  deleteWebhookRoute,
];
