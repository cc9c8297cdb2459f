import { type Actor, addDays, daysBetween, type Listing, localDateIn, type Scope } from '@innkeep/domain';
import {
  cancelReservationOperation,
  createReservationOperation,
  getCalendarOperation,
  getListingOperation,
  getQuoteOperation,
  getReservationOperation,
  getUserOperation,
  sendMessageOperation,
  setPricesOperation,
} from '@innkeep/operations';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerOf, expectError, ownerActor } from './support/rest-expectations.ts';
import {
  authTokenOf,
  bearerTokenOf,
  callApi,
  demoUsers,
  demoViewer,
  openRestWorld,
  type RestWorld,
  type RunningRestApp,
  startRestApp,
} from './support/rest-world.ts';

// The operations of MCP tools that Host Tools routes also serve, at Innkeep's own routes: the answer is the
// operation's output whole, with what the Host Tools shape drops (a night's status, a quote's nights, a
// declined reservation, a listing's cleaning fee and enabled switch, the booked reservation, price outcomes).

// On PostgreSQL only: the routes run the operations the storage suite tests on both drivers, and the
// host-tools and plugin suites serve REST from the embedded database too; one kind keeps CI's time down.
describe.each(['postgres'] as const)('Innkeep’s native record routes on %s', (kind) => {
  let world: RestWorld;
  let running: RunningRestApp;
  let demo: Actor;
  let lapsed: Actor;
  let owner: { authToken: string };
  let viewer: { authToken: string };
  /** A listing that takes bookings, and where the next free stay is looked for on it. */
  let bookable: Listing;
  let searchFrom: string;
  /** A listing and a reservation of the demo's other (lapsed) account. */
  let otherListingId: string;
  let otherReservationId: string;

  /** Headers of a Bearer token granted `scope` only. */
  const bearerOf = async (scope: Scope) => ({
    authorization: `Bearer ${await bearerTokenOf(running, { scopes: [scope] })}`,
  });

  /** Number of the newest audit entry of the demo account: unchanged means nothing was written. */
  const latestAuditId = async () => (await world.domain.audit.list(demo, { limit: 1 })).items[0]?.id ?? 0;

  /** The next two free nights of the bookable listing, as a stay; each call takes a later one. */
  const freeStay = async () => {
    const { days } = await world.domain.calendar.get(demo, {
      listingId: bookable.id,
      startDate: searchFrom,
      endDate: addDays(searchFrom, 120),
    });
    const nights = Math.max(2, bookable.minNights);
    const start = days.findIndex(
      (_, index) =>
        index + nights <= days.length &&
        days.slice(index, index + nights).every((day) => day.status === 'available'),
    );
    const first = days[start];
    if (first === undefined) throw new Error(`no ${nights} free nights after ${searchFrom}`);
    const stay = { startDate: first.date, endDate: addDays(first.date, nights) };
    searchFrom = addDays(stay.endDate, 1);
    return stay;
  };

  /** A createBooking body in Innkeep's own fields for `stay`. */
  const bookingBody = (stay: { startDate: string; endDate: string }, confirmationCode: string) => ({
    listingId: bookable.id,
    ...stay,
    guest: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
    adults: 2,
    children: 0,
    confirmationCode,
    notes: 'Arriving by train.',
  });

  /** A direct stay booked through the domain, for the tests that cancel or write about one. */
  const bookDirectly = async () =>
    world.domain.reservations.create(demo, {
      listingId: bookable.id,
      ...(await freeStay()),
      guest: { firstName: 'Grace', lastName: 'Hopper' },
      adults: 2,
      guestPrice: 480,
    });

  beforeAll(async () => {
    world = await openRestWorld(kind);
    running = await startRestApp(world, { rateLimits: { perCredential: 10_000, withApiKey: 10_000 } });
    demo = await ownerActor(world, demoUsers.owner);
    lapsed = await ownerActor(world, demoUsers.lapsedOwner);
    owner = { authToken: await authTokenOf(world, demoUsers.owner) };
    viewer = { authToken: (await demoViewer(world)).authToken };
    const enabled = await world.domain.listings.list(demo, { enabled: true, limit: 50 });
    const first = enabled.items.find((listing) => listing.maxGuests >= 2 && listing.minPrice !== null);
    if (first === undefined) throw new Error('the demo needs an enabled listing with a minimum price');
    bookable = first;
    searchFrom = addDays(localDateIn(bookable.timeZone, world.clock.now()), 500);
    otherListingId = (await world.domain.listings.list(lapsed, { limit: 1 })).items[0]?.id ?? '';
    otherReservationId = (await world.domain.reservations.list(lapsed, { limit: 1 })).items[0]?.id ?? '';
  }, 300_000);

  afterAll(async () => {
    await running?.close();
    await world?.close();
  });

  describe('reads', () => {
    it('reads a listing whole with getListingDetails, enabled and cleaning fee included', async () => {
      // The demo's listings are all enabled; a disabled one shows the switch Host Tools' getListing drops.
      const other = (await world.domain.listings.list(demo, { limit: 50 })).items.find(
        (listing) => listing.id !== bookable.id,
      );
      if (other === undefined) throw new Error('the demo needs two listings');
      await world.domain.listings.update(demo, { listingId: other.id, enabled: false });
      const listing = answerOf(
        await callApi(running, 'GET', `/getListingDetails/${other.id}`, { headers: owner }),
        200,
        getListingOperation.output,
      );
      expect(listing).toEqual(await world.domain.listings.get(demo, other.id));
      expect(listing).toMatchObject({ enabled: false, cleaningFee: other.cleaningFee });
      answerOf(
        await callApi(running, 'GET', `/getlistingdetails/${bookable.id}`, {
          headers: await bearerOf('listings:read'),
        }),
        200,
        getListingOperation.output,
      );
      expectError(
        await callApi(running, 'GET', `/getListingDetails/${otherListingId}`, { headers: owner }),
        404,
        'not_found',
      );
    });

    it('reads the caller’s own profile with getUserProfile, with role and subscription', async () => {
      const profile = answerOf(
        await callApi(running, 'GET', '/getUserProfile', { headers: owner }),
        200,
        getUserOperation.output,
      );
      expect(profile).toEqual(await world.domain.identity.getUser(demo));
      expect(profile).toMatchObject({
        email: demoUsers.owner,
        role: 'owner',
        subscription: { inGoodStanding: true },
        authToken: { createdAt: expect.any(String) },
      });
      const asViewer = answerOf(
        await callApi(running, 'GET', '/getUserProfile', { headers: viewer }),
        200,
        getUserOperation.output,
      );
      expect(asViewer).toMatchObject({ role: 'viewer', account: { id: demo.accountId } });
      const byBearer = answerOf(
        await callApi(running, 'GET', '/getUserProfile', { headers: await bearerOf('user:read') }),
        200,
        getUserOperation.output,
      );
      expect(byBearer.id).toBe(demo.userId);
    });

    it('reads nights with their status and holding reservation with getCalendarDays', async () => {
      const reservation = (
        await world.domain.reservations.list(demo, {
          statuses: ['accepted'],
          listingId: bookable.id,
          limit: 1,
        })
      ).items[0];
      if (reservation === undefined) throw new Error('the bookable listing has no accepted stay');
      const query = `startDate=${reservation.startDate}&endDate=${reservation.endDate}`;
      const calendar = answerOf(
        await callApi(running, 'GET', `/getCalendarDays/${bookable.id}?${query}`, { headers: owner }),
        200,
        getCalendarOperation.output,
      );
      expect(calendar).toMatchObject({ listingId: bookable.id, currency: bookable.currency, hasMore: false });
      expect(calendar.days[0]).toMatchObject({
        date: reservation.startDate,
        status: 'booked',
        reservationId: reservation.id,
      });
      expect(calendar.days).toHaveLength(reservation.nights + 1);
      answerOf(
        await callApi(running, 'GET', `/getCalendarDays/${bookable.id}?${query}`, {
          headers: await bearerOf('calendar:read'),
        }),
        200,
        getCalendarOperation.output,
      );
      expectError(
        await callApi(running, 'GET', `/getCalendarDays/${otherListingId}?${query}`, { headers: owner }),
        404,
        'not_found',
      );
    });

    it('prices a stay night by night with getStayQuote', async () => {
      const stay = await freeStay();
      const query = `startDate=${stay.startDate}&endDate=${stay.endDate}&guests=2`;
      const quote = answerOf(
        await callApi(running, 'GET', `/getStayQuote/${bookable.id}?${query}`, { headers: viewer }),
        200,
        getQuoteOperation.output,
      );
      expect(quote).toEqual(
        await world.domain.pricing.getQuote(demo, { listingId: bookable.id, ...stay, guests: 2 }),
      );
      const nights = daysBetween(stay.startDate, stay.endDate);
      expect(quote.nightly.map((night) => night.date)).toEqual(
        Array.from({ length: nights }, (_, index) => addDays(stay.startDate, index)),
      );
      expect(quote.nightly.reduce((sum, night) => sum + night.price, 0)).toBeCloseTo(quote.accommodation, 2);
      answerOf(
        await callApi(running, 'GET', `/getStayQuote/${bookable.id}?${query}`, {
          headers: await bearerOf('calendar:read'),
        }),
        200,
        getQuoteOperation.output,
      );
      expectError(
        await callApi(running, 'GET', `/getStayQuote/${bookable.id}?startDate=${stay.startDate}`, {
          headers: owner,
        }),
        400,
        'invalid_argument',
        'endDate',
      );
    });

    it('reads a declined reservation as declined with getReservationDetails', async () => {
      const declined = (await world.domain.reservations.list(demo, { statuses: ['declined'], limit: 1 }))
        .items[0];
      if (declined === undefined) throw new Error('the demo has no declined reservation');
      const reservation = answerOf(
        await callApi(running, 'GET', `/getReservationDetails/${declined.id}`, { headers: owner }),
        200,
        getReservationOperation.output,
      );
      expect(reservation).toEqual(await world.domain.reservations.get(demo, declined.id));
      expect(reservation).toMatchObject({
        status: 'declined',
        declinedAt: expect.any(String),
        cancelledAt: null,
      });
      answerOf(
        await callApi(running, 'GET', `/getReservationDetails/${declined.id}`, {
          headers: await bearerOf('reservations:read'),
        }),
        200,
        getReservationOperation.output,
      );
      expectError(
        await callApi(running, 'GET', `/getReservationDetails/${otherReservationId}`, { headers: owner }),
        404,
        'not_found',
      );
    });
  });

  describe('createBooking', () => {
    it('books a stay and answers 201 with the reservation whole', async () => {
      const stay = await freeStay();
      const booked = answerOf(
        await callApi(running, 'POST', '/createBooking', {
          headers: owner,
          body: bookingBody(stay, 'NATIVE-BOOK-1'),
        }),
        201,
        createReservationOperation.output,
      );
      expect(booked).toEqual(await world.domain.reservations.get(demo, booked.id));
      expect(booked).toMatchObject({
        listingId: bookable.id,
        ...stay,
        channel: 'direct',
        status: 'accepted',
        confirmationCode: 'NATIVE-BOOK-1',
        guest: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: null },
        notes: 'Arriving by train.',
      });
      expect(booked.nightlyRates).toHaveLength(booked.nights);
      expect(booked.lineItems.length).toBeGreaterThan(0);
      const byBearer = answerOf(
        await callApi(running, 'POST', '/createBooking', {
          headers: await bearerOf('reservations:write'),
          body: bookingBody(await freeStay(), 'NATIVE-BOOK-2'),
        }),
        201,
        createReservationOperation.output,
      );
      expect(byBearer.confirmationCode).toBe('NATIVE-BOOK-2');
    });

    it('refuses a viewer and another account’s listing, booking nothing', async () => {
      const stay = await freeStay();
      const audit = await latestAuditId();
      expectError(
        await callApi(running, 'POST', '/createBooking', {
          headers: viewer,
          body: bookingBody(stay, 'NATIVE-VIEWER'),
        }),
        403,
        'permission_denied',
      );
      expectError(
        await callApi(running, 'POST', '/createBooking', {
          headers: owner,
          body: { ...bookingBody(stay, 'NATIVE-FOREIGN'), listingId: otherListingId },
        }),
        404,
        'not_found',
      );
      expect(await latestAuditId()).toBe(audit);
      const held = await world.domain.reservations.list(demo, {
        listingId: bookable.id,
        startDate: stay.startDate,
        endDate: stay.startDate,
        limit: 10,
      });
      expect(held.items).toEqual([]);
    });

    it('replays an Idempotency-Key with the first answer and books once', async () => {
      const stay = await freeStay();
      const headers = { ...owner, 'idempotency-key': 'native-create-booking-once' };
      const body = bookingBody(stay, 'NATIVE-IDEM');
      const first = await callApi(running, 'POST', '/createBooking', { headers, body });
      const again = await callApi(running, 'POST', '/createbooking', { headers, body });
      answerOf(first, 201, createReservationOperation.output);
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body).toEqual(first.body);
      const booked = await world.domain.reservations.list(demo, {
        listingId: bookable.id,
        startDate: stay.startDate,
        endDate: stay.startDate,
        limit: 10,
      });
      expect(booked.items.map((reservation) => reservation.confirmationCode)).toEqual(['NATIVE-IDEM']);
    });
  });

  describe('cancelBooking', () => {
    it('cancels a direct stay, by whom the caller says, and frees its nights', async () => {
      const reservation = await bookDirectly();
      const cancelled = answerOf(
        await callApi(running, 'POST', `/cancelBooking/${reservation.id}`, {
          headers: owner,
          body: { cancelledBy: 'guest', reason: 'Plans changed.' },
        }),
        200,
        cancelReservationOperation.output,
      );
      expect(cancelled).toMatchObject({
        id: reservation.id,
        status: 'cancelled',
        cancelledBy: 'guest',
        cancelledAt: expect.any(String),
      });
      const { days } = await world.domain.calendar.get(demo, {
        listingId: bookable.id,
        startDate: reservation.startDate,
        endDate: addDays(reservation.endDate, -1),
      });
      expect(days.map((day) => day.status)).toEqual(days.map(() => 'available'));
      const byBearer = await bookDirectly();
      const answer = answerOf(
        await callApi(running, 'POST', `/cancelBooking/${byBearer.id}`, {
          headers: await bearerOf('reservations:write'),
        }),
        200,
        cancelReservationOperation.output,
      );
      expect(answer).toMatchObject({ status: 'cancelled', cancelledBy: 'host' });
    });

    it('refuses a viewer and another account’s reservation, cancelling nothing', async () => {
      const reservation = await bookDirectly();
      expectError(
        await callApi(running, 'POST', `/cancelBooking/${reservation.id}`, { headers: viewer, body: {} }),
        403,
        'permission_denied',
      );
      expect(await world.domain.reservations.get(demo, reservation.id)).toEqual(reservation);
      const before = await world.domain.reservations.get(lapsed, otherReservationId);
      expectError(
        await callApi(running, 'POST', `/cancelBooking/${otherReservationId}`, { headers: owner, body: {} }),
        404,
        'not_found',
      );
      expect(await world.domain.reservations.get(lapsed, otherReservationId)).toEqual(before);
    });

    it('replays an Idempotency-Key with the first answer, where a second cancel is refused', async () => {
      const reservation = await bookDirectly();
      const headers = { ...owner, 'idempotency-key': 'native-cancel-booking-once' };
      const first = await callApi(running, 'POST', `/cancelBooking/${reservation.id}`, { headers, body: {} });
      const again = await callApi(running, 'POST', `/cancelBooking/${reservation.id}`, { headers, body: {} });
      answerOf(first, 200, cancelReservationOperation.output);
      expect(again.status).toBe(200);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body).toEqual(first.body);
      expectError(
        await callApi(running, 'POST', `/cancelBooking/${reservation.id}`, { headers: owner, body: {} }),
        422,
        'failed_precondition',
      );
    });
  });

  describe('sendGuestMessage', () => {
    /** The messages of a reservation's thread with `body`. */
    const messagesWith = async (reservationId: string, body: string) =>
      (await world.domain.messages.getThread(demo, { reservationId, limit: 500 })).messages.items.filter(
        (message) => message.body === body,
      );

    it('records a host message and answers it with its delivery status', async () => {
      const reservation = await bookDirectly();
      const message = answerOf(
        await callApi(running, 'POST', `/sendGuestMessage/${reservation.id}`, {
          headers: owner,
          body: { body: 'The key is in the lockbox.' },
        }),
        200,
        sendMessageOperation.output,
      );
      expect(message).toMatchObject({
        sender: 'host',
        body: 'The key is in the lockbox.',
        deliveryStatus: 'not_delivered',
        authorUserId: demo.userId,
        messageRuleId: null,
      });
      expect(await messagesWith(reservation.id, 'The key is in the lockbox.')).toEqual([message]);
      answerOf(
        await callApi(running, 'POST', `/sendGuestMessage/${reservation.id}`, {
          headers: await bearerOf('messages:write'),
          body: { body: 'Parking is behind the house.' },
        }),
        200,
        sendMessageOperation.output,
      );
      expectError(
        await callApi(running, 'POST', `/sendGuestMessage/${reservation.id}`, {
          headers: owner,
          body: { message: 'Host Tools’ field name' },
        }),
        400,
        'invalid_argument',
        'body',
      );
    });

    it('refuses a viewer and another account’s reservation, sending nothing', async () => {
      const reservation = await bookDirectly();
      const audit = await latestAuditId();
      expectError(
        await callApi(running, 'POST', `/sendGuestMessage/${reservation.id}`, {
          headers: viewer,
          body: { body: 'From a viewer.' },
        }),
        403,
        'permission_denied',
      );
      expect(await messagesWith(reservation.id, 'From a viewer.')).toEqual([]);
      expectError(
        await callApi(running, 'POST', `/sendGuestMessage/${otherReservationId}`, {
          headers: owner,
          body: { body: 'Not your guest.' },
        }),
        404,
        'not_found',
      );
      expect(await latestAuditId()).toBe(audit);
    });

    it('replays an Idempotency-Key with the first answer and sends once', async () => {
      const reservation = await bookDirectly();
      const headers = { ...owner, 'idempotency-key': 'native-send-message-once' };
      const body = { body: 'See you on Friday.' };
      const path = `/sendGuestMessage/${reservation.id}`;
      const first = await callApi(running, 'POST', path, { headers, body });
      const again = await callApi(running, 'POST', path, { headers, body });
      const message = answerOf(first, 200, sendMessageOperation.output);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body).toEqual(first.body);
      expect(await messagesWith(reservation.id, 'See you on Friday.')).toEqual([message]);
    });
  });

  describe('setNightlyPrices', () => {
    /** A date far past the demo's bookings, `offset` days into a stretch this describe block owns. */
    const dateAt = (offset: number) =>
      addDays(localDateIn(bookable.timeZone, world.clock.now()), 700 + offset);

    it('answers the changed nights with what a guest pays and why', async () => {
      const [cheap, airbnb] = [dateAt(0), dateAt(1)];
      const changed = answerOf(
        await callApi(running, 'POST', `/setNightlyPrices/${bookable.id}`, {
          headers: owner,
          body: {
            prices: [
              { date: cheap, price: 1, closedToArrival: true },
              { date: airbnb, price: 333, channel: 'airbnb' },
            ],
          },
        }),
        200,
        setPricesOperation.output,
      );
      expect(changed).toMatchObject({ listingId: bookable.id, currency: bookable.currency });
      const [cheapNight, airbnbNight] = changed.days;
      // Below the listing's minimum price: the guest pays the floor, and the outcome says so.
      expect(cheapNight).toMatchObject({ date: cheap, status: 'available', closedToArrival: true });
      const outcome = cheapNight?.priceOutcomes[0];
      expect(outcome).toMatchObject({ askedPrice: 1, storedPrice: 1, guestPrice: cheapNight?.price });
      expect(outcome?.guestPrice).toBeGreaterThanOrEqual(bookable.minPrice ?? 0);
      expect(outcome?.steps.at(-1)).toMatchObject({ by: 'minimum_price', priceAfter: outcome?.guestPrice });
      expect(airbnbNight).toMatchObject({ date: airbnb, channelPrices: { airbnb: expect.any(Number) } });
      expect(airbnbNight?.priceOutcomes).toEqual([
        expect.objectContaining({ channel: 'airbnb', askedPrice: 333, storedPrice: 333 }),
      ]);
      const calendar = await world.domain.calendar.get(demo, {
        listingId: bookable.id,
        startDate: cheap,
        endDate: airbnb,
      });
      expect(changed.days.map(({ priceOutcomes: _outcomes, ...day }) => day)).toEqual(calendar.days);
      const byBearer = answerOf(
        await callApi(running, 'POST', `/setNightlyPrices/${bookable.id}`, {
          headers: await bearerOf('calendar:write'),
          body: { prices: [{ date: dateAt(2), minNights: 4 }] },
        }),
        200,
        setPricesOperation.output,
      );
      expect(byBearer.days).toEqual([expect.objectContaining({ minNights: 4, priceOutcomes: [] })]);
    });

    it('refuses a viewer and another account’s listing, changing no night', async () => {
      const date = dateAt(3);
      const range = { listingId: bookable.id, startDate: date, endDate: date };
      const before = await world.domain.calendar.get(demo, range);
      const audit = await latestAuditId();
      expectError(
        await callApi(running, 'POST', `/setNightlyPrices/${bookable.id}`, {
          headers: viewer,
          body: { prices: [{ date, price: 999 }] },
        }),
        403,
        'permission_denied',
      );
      expectError(
        await callApi(running, 'POST', `/setNightlyPrices/${otherListingId}`, {
          headers: owner,
          body: { prices: [{ date, price: 999 }] },
        }),
        404,
        'not_found',
      );
      expect(await world.domain.calendar.get(demo, range)).toEqual(before);
      expect(await latestAuditId()).toBe(audit);
    });

    it('replays an Idempotency-Key with the first answer', async () => {
      const headers = { ...owner, 'idempotency-key': 'native-set-prices-once' };
      const body = { prices: [{ date: dateAt(4), price: 444 }] };
      const path = `/setNightlyPrices/${bookable.id}`;
      const first = await callApi(running, 'POST', path, { headers, body });
      const again = await callApi(running, 'POST', path, { headers, body });
      answerOf(first, 200, setPricesOperation.output);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body).toEqual(first.body);
      expectError(
        await callApi(running, 'POST', path, {
          headers,
          body: { prices: [{ date: dateAt(4), price: 445 }] },
        }),
        409,
        'conflict',
      );
      expect(world.reported).toEqual([]);
    });
  });
});
