import type { Actor, Listing } from '@innkeep/domain';
import { testDatabaseKinds } from '@innkeep/storage/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authTokenOf,
  bearerTokenOf,
  callApi,
  demoUsers,
  demoViewer,
  openRestWorld,
  type RestAnswer,
  type RestWorld,
  type RunningRestApp,
  startRestApp,
} from './support/rest-world.ts';

/** `date` moved by `days`, both `YYYY-MM-DD`. */
function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** The JSON error body of a refused request. */
function errorOf(answer: RestAnswer): { message: string; code: string; details?: Record<string, unknown> } {
  return answer.body as { message: string; code: string; details?: Record<string, unknown> };
}

/** The problems a 400 answer names, each with the field it is about. */
function issuesOf(answer: RestAnswer): { path: string; message: string }[] {
  return (errorOf(answer).details?.issues ?? []) as { path: string; message: string }[];
}

describe.each(testDatabaseKinds)('the Host Tools write routes on %s', (kind) => {
  let world: RestWorld;
  let running: RunningRestApp;
  let owner: Actor;
  /** Ids that exist, in the demo's other (lapsed) account, and the owner of that account. */
  let stranger: Actor;
  let foreign: { listingId: string; reservationId: string };
  let ownerHeaders: Record<string, string>;
  let viewerHeaders: Record<string, string>;
  /** A Bearer token granted listings:write only, as a Host Tools client asks for. */
  let listingsWriteHeaders: Record<string, string>;
  /** Listing the reservation and calendar tests book; another one takes the settings changes. */
  let bookable: Listing;
  let configurable: Listing;
  /** Where the next free stay is looked for: past the demo's bookings, moving on with each stay taken. */
  let searchFrom: string;

  beforeAll(async () => {
    world = await openRestWorld(kind);
    running = await startRestApp(world);
    const ownerUser = await world.operator.findUserByEmail(demoUsers.owner);
    const lapsedUser = await world.operator.findUserByEmail(demoUsers.lapsedOwner);
    if (ownerUser === null || lapsedUser === null) throw new Error('the demo owners are missing');
    owner = {
      accountId: ownerUser.accountId,
      userId: ownerUser.userId,
      role: 'owner',
      via: 'cli',
      clientId: null,
    };
    stranger = { ...owner, accountId: lapsedUser.accountId, userId: lapsedUser.userId };
    const strangerListing = (await world.domain.listings.list(stranger, { limit: 1 })).items[0];
    const strangerReservation = (await world.domain.reservations.list(stranger, { limit: 1 })).items[0];
    if (strangerListing === undefined || strangerReservation === undefined) {
      throw new Error('the lapsed account has no data');
    }
    foreign = { listingId: strangerListing.id, reservationId: strangerReservation.id };
    ownerHeaders = { authToken: await authTokenOf(world, demoUsers.owner) };
    viewerHeaders = { authToken: (await demoViewer(world)).authToken };
    const token = await bearerTokenOf(running, { scopes: ['listings:write'], resource: null });
    listingsWriteHeaders = { authorization: `Bearer ${token}` };
    const enabled = (await world.domain.listings.list(owner, { enabled: true, limit: 50 })).items.filter(
      (listing) => listing.maxGuests >= 3,
    );
    const [first, second] = enabled;
    if (first === undefined || second === undefined) throw new Error('the demo needs two enabled listings');
    bookable = first;
    configurable = second;
    searchFrom = addDays(world.clock.now().toISOString().slice(0, 10), 400);
  }, 300_000);

  afterAll(async () => {
    await running?.close();
    await world?.close();
  });

  /** Number of the newest audit entry of the demo account: unchanged means nothing was written. */
  const latestAuditId = async () => (await world.domain.audit.list(owner, { limit: 1 })).items[0]?.id ?? 0;

  /** The next `nights` free nights of the bookable listing, as a stay (check-out the day after the last). */
  const freeStay = async (nights: number) => {
    const { days } = await world.domain.calendar.get(owner, {
      listingId: bookable.id,
      startDate: searchFrom,
      endDate: addDays(searchFrom, 120),
    });
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

  /** A direct stay booked through the domain, for the tests that change or cancel one. */
  const bookDirectly = async () =>
    world.domain.reservations.create(owner, {
      listingId: bookable.id,
      ...(await freeStay(2)),
      guest: { firstName: 'Grace', lastName: 'Hopper', phone: '+1 555 010 4477' },
      adults: 2,
      guestPrice: 480,
    });

  /** A Host Tools createReservation body for `stay`. */
  const bookingBody = (stay: { startDate: string; endDate: string }, code: string) => ({
    listingID: bookable.id,
    startDate: `${stay.startDate}T00:00:00.000Z`,
    endDate: stay.endDate,
    confirmationCode: code,
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    phone: '+44 20 7946 0018',
    guests: { adults: 2, children: 1 },
    hostPayout: 610.4,
    guestPrice: 702.15,
    notes: 'Arriving by train.',
    checkInTime: 17,
  });

  describe('POST /setListing/{listingId}', () => {
    it('changes every setting Innkeep stores, removing the floor and a discount with null', async () => {
      const first = await callApi(running, 'POST', `/setListing/${configurable.id}`, {
        headers: ownerHeaders,
        body: { minPrice: 80, weeklyDiscount: 10 },
      });
      expect(first.status).toBe(200);
      expect((await world.domain.listings.get(owner, configurable.id)).weeklyDiscount).toBe(10);

      const answer = await callApi(running, 'POST', `/setListing/${configurable.id}`, {
        headers: ownerHeaders,
        body: {
          name: 'Harbour Loft (REST)',
          checkInTime: 16,
          checkOutTime: 10,
          minNights: 3,
          maxGuests: 3,
          basePrice: 187.35,
          minPrice: null,
          weeklyDiscount: null,
          monthlyDiscount: 12.5,
        },
      });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ success: true });
      expect(await world.domain.listings.get(owner, configurable.id)).toMatchObject({
        name: 'Harbour Loft (REST)',
        checkInTime: 16,
        checkOutTime: 10,
        minNights: 3,
        maxGuests: 3,
        basePrice: 187.35,
        minPrice: null,
        weeklyDiscount: 0,
        monthlyDiscount: 12.5,
      });
    });

    it('refuses fields Innkeep does not store, naming them and what it takes, and changes nothing', async () => {
      const before = await world.domain.listings.get(owner, configurable.id);
      const audit = await latestAuditId();
      const answer = await callApi(running, 'POST', `/setListing/${configurable.id}`, {
        headers: ownerHeaders,
        body: { name: 'Renamed', address: '1 Main St', messagingEnabled: true, currency: 'EUR' },
      });
      expect(answer.status).toBe(400);
      const error = errorOf(answer);
      expect(error.code).toBe('invalid_argument');
      expect(error.message).toContain('address, messagingEnabled, currency');
      expect(error.message).toContain('takes only name, checkInTime, checkOutTime, minNights');
      expect(await world.domain.listings.get(owner, configurable.id)).toEqual(before);
      expect(await latestAuditId()).toBe(audit);
    });

    it('refuses bad values and an empty body with 400 naming the field', async () => {
      const bad = await callApi(running, 'POST', `/setListing/${configurable.id}`, {
        headers: ownerHeaders,
        body: { checkInTime: 25, weeklyDiscount: 'ten' },
      });
      expect(bad.status).toBe(400);
      expect(errorOf(bad).details?.issues).toEqual([
        expect.objectContaining({ path: 'checkInTime' }),
        expect.objectContaining({ path: 'weeklyDiscount' }),
      ]);
      const empty = await callApi(running, 'POST', `/setListing/${configurable.id}`, {
        headers: ownerHeaders,
        body: {},
      });
      expect(empty.status).toBe(400);
      expect(errorOf(empty).message).toContain('at least one setting');
    });

    it('reads another account’s listing as 404 and leaves it unchanged', async () => {
      const before = await world.domain.listings.get(stranger, foreign.listingId);
      const answer = await callApi(running, 'POST', `/setListing/${foreign.listingId}`, {
        headers: ownerHeaders,
        body: { name: 'Taken over' },
      });
      expect(answer.status).toBe(404);
      expect(errorOf(answer).code).toBe('not_found');
      expect(await world.domain.listings.get(stranger, foreign.listingId)).toEqual(before);
    });
  });

  describe('POST /setPrices/{listingId}', () => {
    it('sets price, minimum stay and closed arrival and departure per date, in either date form', async () => {
      const first = (await freeStay(2)).startDate;
      const second = addDays(first, 1);
      const price = Math.round((bookable.basePrice + 11.5) * 100) / 100;
      const range = { listingId: bookable.id, startDate: first, endDate: second };
      const secondBefore = (await world.domain.calendar.get(owner, range)).days[1];
      const answer = await callApi(running, 'POST', `/setPrices/${bookable.id}`, {
        headers: ownerHeaders,
        body: {
          prices: [
            { date: first, price, minNights: 4, blockCheckin: true },
            { date: `${second}T00:00:00.000Z`, blockCheckout: true },
          ],
        },
      });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ success: true });
      const { days } = await world.domain.calendar.get(owner, range);
      expect(
        days.map(({ date, minNights, closedToArrival, closedToDeparture }) => ({
          date,
          minNights,
          closedToArrival,
          closedToDeparture,
        })),
      ).toEqual([
        { date: first, minNights: 4, closedToArrival: true, closedToDeparture: false },
        { date: second, minNights: secondBefore?.minNights, closedToArrival: false, closedToDeparture: true },
      ]);
      // Pricing rules apply on top of the price set, so the effective price shows it only through them; the
      // change recorded says what was set.
      const [entry] = (await world.domain.audit.list(owner, { action: 'calendar.set_prices', limit: 1 }))
        .items;
      expect(entry?.details).toEqual({
        prices: [
          { date: first, price, minNights: 4, closedToArrival: true },
          { date: second, closedToDeparture: true },
        ],
      });
    });

    it('lets a Bearer token with listings:write in, as Host Tools clients ask for no calendar:write', async () => {
      const date = (await freeStay(1)).startDate;
      const answer = await callApi(running, 'POST', `/setPrices/${bookable.id}`, {
        headers: listingsWriteHeaders,
        body: { prices: [{ date, minNights: 5 }] },
      });
      expect(answer.status).toBe(200);
      const { days } = await world.domain.calendar.get(owner, {
        listingId: bookable.id,
        startDate: date,
        endDate: date,
      });
      expect(days[0]?.minNights).toBe(5);
      const [entry] = (await world.domain.audit.list(owner, { action: 'calendar.set_prices', limit: 1 }))
        .items;
      expect(entry).toMatchObject({ via: 'rest', targetId: bookable.id, clientId: expect.any(String) });
    });

    it('refuses per-channel fields, bad dates and another account’s listing, changing nothing', async () => {
      const audit = await latestAuditId();
      const channel = await callApi(running, 'POST', `/setPrices/${bookable.id}`, {
        headers: ownerHeaders,
        body: { prices: [{ date: searchFrom, price: 99, Airbnb: { price: 120 } }] },
      });
      expect(channel.status).toBe(400);
      expect(errorOf(channel).message).toContain('Airbnb cannot be set here');
      const badDate = await callApi(running, 'POST', `/setPrices/${bookable.id}`, {
        headers: ownerHeaders,
        body: { prices: [{ date: '2027-02-19T15:30:00Z', price: 99 }] },
      });
      expect(badDate.status).toBe(400);
      expect(errorOf(badDate).details?.issues).toEqual([expect.objectContaining({ path: 'prices.0.date' })]);
      const foreignListing = await callApi(running, 'POST', `/setPrices/${foreign.listingId}`, {
        headers: ownerHeaders,
        body: { prices: [{ date: searchFrom, price: 99 }] },
      });
      expect(foreignListing.status).toBe(404);
      expect(await latestAuditId()).toBe(audit);
    });
  });

  describe('POST /createReservation', () => {
    it('books the stay from Host Tools fields and answers its id', async () => {
      const stay = await freeStay(3);
      const answer = await callApi(running, 'POST', '/createReservation', {
        headers: ownerHeaders,
        body: bookingBody(stay, 'HT-REST-1'),
      });
      expect(answer.status).toBe(200);
      const { success, reservationID } = answer.body as { success: boolean; reservationID: string };
      expect(success).toBe(true);
      expect(await world.domain.reservations.get(owner, reservationID)).toMatchObject({
        listingId: bookable.id,
        channel: 'direct',
        status: 'accepted',
        confirmationCode: 'HT-REST-1',
        guest: {
          firstName: 'Ada',
          lastName: 'Lovelace',
          email: 'ada@example.com',
          phone: '+44 20 7946 0018',
        },
        guests: { adults: 2, children: 1, infants: 0, pets: 0 },
        startDate: stay.startDate,
        endDate: stay.endDate,
        nights: 3,
        guestPrice: 702.15,
        hostPayout: 610.4,
        notes: 'Arriving by train.',
        checkInTime: 17,
      });
    });

    it('takes status and treats blank contact fields as absent', async () => {
      const stay = await freeStay(2);
      const answer = await callApi(running, 'POST', '/createReservation', {
        headers: ownerHeaders,
        body: { ...bookingBody(stay, 'HT-REST-2'), status: 'pending', email: '', phone: '' },
      });
      expect(answer.status).toBe(200);
      const { reservationID } = answer.body as { reservationID: string };
      expect(await world.domain.reservations.get(owner, reservationID)).toMatchObject({
        status: 'pending',
        guest: { email: null, phone: null },
      });
    });

    it('refuses a double booking with 409 naming the stay in the way, and books nothing', async () => {
      const taken = await bookDirectly();
      const before = await world.domain.reservations.list(owner, { listingId: bookable.id, limit: 500 });
      const answer = await callApi(running, 'POST', '/createReservation', {
        headers: ownerHeaders,
        body: bookingBody(
          { startDate: taken.startDate, endDate: addDays(taken.endDate, 1) },
          'HT-REST-CLASH',
        ),
      });
      expect(answer.status).toBe(409);
      const error = errorOf(answer);
      expect(error.code).toBe('conflict');
      expect(error.details?.clashes).toEqual([expect.objectContaining({ reservationId: taken.id })]);
      expect(await world.domain.reservations.list(owner, { listingId: bookable.id, limit: 500 })).toEqual(
        before,
      );
    });

    it('replays an Idempotency-Key with the same reservationID and books once', async () => {
      const stay = await freeStay(2);
      const headers = { ...ownerHeaders, 'idempotency-key': 'create-reservation-once' };
      const body = bookingBody(stay, 'HT-REST-IDEM');
      const first = await callApi(running, 'POST', '/createReservation', { headers, body });
      const again = await callApi(running, 'POST', '/createreservation', { headers, body });
      expect(first.status).toBe(200);
      expect(again.status).toBe(200);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body).toEqual(first.body);
      const booked = await world.domain.reservations.list(owner, {
        listingId: bookable.id,
        startDate: stay.startDate,
        endDate: stay.startDate,
        limit: 10,
      });
      expect(booked.items.map((reservation) => reservation.confirmationCode)).toEqual(['HT-REST-IDEM']);
    });

    it('audits the booking as made through rest by the partner client', async () => {
      const { id, apiKey } = await world.operator.issuePartnerApiKey({ partnerName: 'Audit Partner' });
      const answer = await callApi(running, 'POST', '/createReservation', {
        headers: { ...ownerHeaders, apiKey },
        body: bookingBody(await freeStay(2), 'HT-REST-AUDIT'),
      });
      expect(answer.status).toBe(200);
      const { reservationID } = answer.body as { reservationID: string };
      const entries = await world.domain.audit.list(owner, {
        action: 'reservation.create',
        targetId: reservationID,
        limit: 10,
      });
      expect(entries.items).toEqual([
        expect.objectContaining({ via: 'rest', clientId: `partner:${id}`, userId: owner.userId }),
      ]);
    });

    it('refuses unknown fields, missing guests and another account’s listing, booking nothing', async () => {
      const stay = await freeStay(2);
      const audit = await latestAuditId();
      const unknown = await callApi(running, 'POST', '/createReservation', {
        headers: ownerHeaders,
        body: { ...bookingBody(stay, 'HT-REST-X'), source: 'Airbnb', guests: { adults: 1, kids: 2 } },
      });
      expect(unknown.status).toBe(400);
      const messages = issuesOf(unknown).map((issue) => `${issue.path}: ${issue.message}`);
      expect(messages).toEqual([
        expect.stringMatching(/^guests: .*kids cannot be set here/),
        expect.stringMatching(/^\(input\): createReservation takes only listingID, .*source cannot be set/),
      ]);
      const { guests: _guests, ...withoutGuests } = bookingBody(stay, 'HT-REST-Y');
      const missing = await callApi(running, 'POST', '/createReservation', {
        headers: ownerHeaders,
        body: withoutGuests,
      });
      expect(missing.status).toBe(400);
      expect(errorOf(missing).details?.issues).toEqual([expect.objectContaining({ path: 'guests' })]);
      const foreignListing = await callApi(running, 'POST', '/createReservation', {
        headers: ownerHeaders,
        body: { ...bookingBody(stay, 'HT-REST-Z'), listingID: foreign.listingId },
      });
      expect(foreignListing.status).toBe(404);
      expect(await latestAuditId()).toBe(audit);
    });

    it('refuses a Bearer token without reservations:write with 403', async () => {
      const answer = await callApi(running, 'POST', '/createReservation', {
        headers: listingsWriteHeaders,
        body: bookingBody(await freeStay(2), 'HT-REST-SCOPE'),
      });
      expect(answer.status).toBe(403);
      expect(errorOf(answer)).toMatchObject({
        code: 'insufficient_scope',
        details: { required: ['reservations:write'] },
      });
    });
  });

  describe('POST /setReservation/{reservationId}', () => {
    it('changes guest details, times, access code and notes', async () => {
      const reservation = await bookDirectly();
      const answer = await callApi(running, 'POST', `/setReservation/${reservation.id}`, {
        headers: ownerHeaders,
        body: {
          firstName: 'Grace B.',
          email: 'grace@example.com',
          accessCode: '4321',
          checkInTime: 15,
          checkOutTime: 10,
          notes: 'Late arrival.',
        },
      });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ success: true });
      expect(await world.domain.reservations.get(owner, reservation.id)).toMatchObject({
        guest: {
          firstName: 'Grace B.',
          lastName: 'Hopper',
          email: 'grace@example.com',
          phone: '+1 555 010 4477',
        },
        accessCode: '4321',
        checkInTime: 15,
        checkOutTime: 10,
        notes: 'Late arrival.',
      });
    });

    it('generates a code as long as the listing’s lock codes for accessCode null, on the lower-case path', async () => {
      const reservation = await bookDirectly();
      const answer = await callApi(running, 'POST', `/setreservation/${reservation.id}`, {
        headers: ownerHeaders,
        body: { accessCode: null },
      });
      expect(answer.status).toBe(200);
      const locks = await world.domain.locks.list(owner, { limit: 500 });
      const lock = locks.items.find((candidate) => candidate.listingIds.includes(bookable.id));
      const { accessCode } = await world.domain.reservations.get(owner, reservation.id);
      expect(accessCode).toMatch(new RegExp(`^\\d{${lock?.codeLength ?? 4}}$`));
    });

    it('refuses the URLs and statuses Innkeep does not store, naming them, and changes nothing', async () => {
      const reservation = await bookDirectly();
      const audit = await latestAuditId();
      const answer = await callApi(running, 'POST', `/setReservation/${reservation.id}`, {
        headers: ownerHeaders,
        body: { notes: 'x', guideBookURL: 'https://guide.example.com', verificationStatus: 'signed' },
      });
      expect(answer.status).toBe(400);
      expect(errorOf(answer).message).toContain('guideBookURL, verificationStatus cannot be set here');
      const badHour = await callApi(running, 'POST', `/setReservation/${reservation.id}`, {
        headers: ownerHeaders,
        body: { checkInTime: '3pm' },
      });
      expect(badHour.status).toBe(400);
      expect(errorOf(badHour).details?.issues).toEqual([expect.objectContaining({ path: 'checkInTime' })]);
      expect(await world.domain.reservations.get(owner, reservation.id)).toEqual(reservation);
      expect(await latestAuditId()).toBe(audit);
    });

    it('reads another account’s reservation as 404 and leaves it unchanged', async () => {
      const before = await world.domain.reservations.get(stranger, foreign.reservationId);
      const answer = await callApi(running, 'POST', `/setReservation/${foreign.reservationId}`, {
        headers: ownerHeaders,
        body: { accessCode: null, notes: 'mine now' },
      });
      expect(answer.status).toBe(404);
      expect(await world.domain.reservations.get(stranger, foreign.reservationId)).toEqual(before);
    });
  });

  describe('POST /cancelReservation/{reservationId}', () => {
    it('cancels a direct stay with {} or with no body at all', async () => {
      for (const body of [{}, undefined]) {
        const reservation = await bookDirectly();
        const answer = await callApi(running, 'POST', `/cancelReservation/${reservation.id}`, {
          headers: ownerHeaders,
          ...(body === undefined ? {} : { body }),
        });
        expect(answer.status, JSON.stringify(body)).toBe(200);
        expect(answer.body).toEqual({ success: true });
        expect(await world.domain.reservations.get(owner, reservation.id)).toMatchObject({
          status: 'cancelled',
          cancelledBy: 'host',
        });
      }
    });

    it('refuses a channel reservation as the domain does, and keeps it', async () => {
      const booking = (
        await world.domain.reservations.list(owner, {
          channel: 'airbnb',
          statuses: ['accepted'],
          startDate: world.clock.now().toISOString().slice(0, 10),
          limit: 1,
        })
      ).items[0];
      if (booking === undefined) throw new Error('the demo has no upcoming Airbnb stay');
      const answer = await callApi(running, 'POST', `/cancelReservation/${booking.id}`, {
        headers: ownerHeaders,
        body: {},
      });
      expect(answer.status).toBe(422);
      expect(errorOf(answer)).toMatchObject({
        code: 'failed_precondition',
        details: { reservationId: booking.id, channel: 'airbnb' },
      });
      expect((await world.domain.reservations.get(owner, booking.id)).status).toBe('accepted');
    });

    it('refuses a body with fields and another account’s reservation', async () => {
      const reservation = await bookDirectly();
      const withReason = await callApi(running, 'POST', `/cancelReservation/${reservation.id}`, {
        headers: ownerHeaders,
        body: { reason: 'guest asked' },
      });
      expect(withReason.status).toBe(400);
      expect(errorOf(withReason).message).toContain(
        'cancelReservation takes no fields; reason cannot be set',
      );
      expect((await world.domain.reservations.get(owner, reservation.id)).status).toBe('accepted');
      const foreignReservation = await callApi(
        running,
        'POST',
        `/cancelReservation/${foreign.reservationId}`,
        {
          headers: ownerHeaders,
          body: {},
        },
      );
      expect(foreignReservation.status).toBe(404);
    });
  });

  describe('POST /sendMessage/{reservationId}', () => {
    it('adds the host’s message to the thread, also on the lower-case path', async () => {
      const reservation = await bookDirectly();
      for (const [path, message] of [
        [`/sendMessage/${reservation.id}`, 'Welcome! The key is in the lockbox.'],
        [`/sendmessage/${reservation.id}`, 'Parking is behind the building.'],
      ] as const) {
        const answer = await callApi(running, 'POST', path, { headers: ownerHeaders, body: { message } });
        expect(answer.status, path).toBe(200);
        expect(answer.body).toEqual({ success: true });
      }
      const thread = await world.domain.messages.getThread(owner, {
        reservationId: reservation.id,
        limit: 50,
      });
      expect(thread.messages.items.map((message) => [message.sender, message.body])).toEqual([
        ['host', 'Welcome! The key is in the lockbox.'],
        ['host', 'Parking is behind the building.'],
      ]);
    });

    it('refuses an empty message, other fields and another account’s reservation', async () => {
      const reservation = await bookDirectly();
      const empty = await callApi(running, 'POST', `/sendMessage/${reservation.id}`, {
        headers: ownerHeaders,
        body: { message: '   ' },
      });
      expect(empty.status).toBe(400);
      const attachments = await callApi(running, 'POST', `/sendMessage/${reservation.id}`, {
        headers: ownerHeaders,
        body: { message: 'See photo', attachments: [] },
      });
      expect(attachments.status).toBe(400);
      expect(errorOf(attachments).message).toContain('attachments cannot be set here');
      const thread = await world.domain.messages.getThread(owner, {
        reservationId: reservation.id,
        limit: 50,
      });
      expect(thread.messages.items).toEqual([]);
      const foreignReservation = await callApi(running, 'POST', `/sendMessage/${foreign.reservationId}`, {
        headers: ownerHeaders,
        body: { message: 'Hello' },
      });
      expect(foreignReservation.status).toBe(404);
    });

    it('refuses a Bearer token without messages:write with 403', async () => {
      const answer = await callApi(running, 'POST', `/sendMessage/${foreign.reservationId}`, {
        headers: listingsWriteHeaders,
        body: { message: 'Hello' },
      });
      expect(answer.status).toBe(403);
      expect(errorOf(answer).code).toBe('insufficient_scope');
    });
  });

  describe('POST /setWebhook and DELETE /deleteWebhook', () => {
    it('sets the URL, replaces it through the url alias, and deletes it', async () => {
      const set = await callApi(running, 'POST', '/setWebhook', {
        headers: ownerHeaders,
        body: { webhookURL: 'https://hooks.example.com/host-tools' },
      });
      expect(set.status).toBe(200);
      expect(set.body).toEqual({ success: true });
      expect(await world.domain.webhooks.getHostToolsUrl(owner)).toEqual({
        webhookURL: 'https://hooks.example.com/host-tools',
      });
      const alias = await callApi(running, 'POST', '/setwebhook', {
        headers: ownerHeaders,
        body: { url: 'https://hooks.example.com/replaced' },
      });
      expect(alias.status).toBe(200);
      expect(await world.domain.webhooks.getHostToolsUrl(owner)).toEqual({
        webhookURL: 'https://hooks.example.com/replaced',
      });
      for (let call = 0; call < 2; call += 1) {
        const deleted = await callApi(running, 'DELETE', '/deleteWebhook', { headers: ownerHeaders });
        expect(deleted.status).toBe(200);
        expect(deleted.body).toEqual({ success: true });
        expect(await world.domain.webhooks.getHostToolsUrl(owner)).toEqual({ webhookURL: null });
      }
    });

    it('refuses both names at once, neither, a plain-http URL and a Bearer token without webhooks:manage', async () => {
      const audit = await latestAuditId();
      for (const body of [
        { webhookURL: 'https://a.example.com', url: 'https://b.example.com' },
        {},
        { webhookURL: 'http://hooks.example.com/insecure' },
        { webhookURL: 'https://hooks.example.com', events: ['reservation'] },
      ]) {
        const answer = await callApi(running, 'POST', '/setWebhook', { headers: ownerHeaders, body });
        expect(answer.status, JSON.stringify(body)).toBe(400);
        expect(errorOf(answer).code).toBe('invalid_argument');
      }
      const scoped = await callApi(running, 'POST', '/setWebhook', {
        headers: listingsWriteHeaders,
        body: { webhookURL: 'https://hooks.example.com/scoped' },
      });
      expect(scoped.status).toBe(403);
      expect(errorOf(scoped).details).toEqual({ required: ['webhooks:manage'] });
      expect(await latestAuditId()).toBe(audit);
    });
  });

  it('lets a viewer change nothing through any write route', async () => {
    const reservation = await bookDirectly();
    const audit = await latestAuditId();
    const calls: [string, string, unknown][] = [
      ['POST', `/setListing/${configurable.id}`, { name: 'Viewer was here' }],
      ['POST', `/setPrices/${bookable.id}`, { prices: [{ date: searchFrom, price: 1 }] }],
      ['POST', '/createReservation', bookingBody(await freeStay(2), 'HT-REST-VIEWER')],
      ['POST', `/setReservation/${reservation.id}`, { notes: 'viewer' }],
      ['POST', `/cancelReservation/${reservation.id}`, {}],
      ['POST', `/sendMessage/${reservation.id}`, { message: 'viewer' }],
      ['POST', '/setWebhook', { webhookURL: 'https://hooks.example.com/viewer' }],
      ['DELETE', '/deleteWebhook', undefined],
    ];
    for (const [method, path, body] of calls) {
      const answer = await callApi(running, method, path, {
        headers: viewerHeaders,
        ...(body === undefined ? {} : { body }),
      });
      expect(answer.status, path).toBe(403);
      expect(errorOf(answer).code).toBe('permission_denied');
    }
    expect(await latestAuditId()).toBe(audit);
    expect(await world.domain.reservations.get(owner, reservation.id)).toEqual(reservation);
    expect(world.reported).toEqual([]);
  });
});
