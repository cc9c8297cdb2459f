import { type Actor, addDays, type Listing, localDateIn, type Scope } from '@innkeep/domain';
import { testDatabaseKinds } from '@innkeep/storage/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authTokenOf,
  bearerTokenOf,
  callApi,
  demoUsers,
  openRestWorld,
  type RestAnswer,
  type RestWorld,
  type RunningRestApp,
  startRestApp,
} from './support/rest-world.ts';

// The Host Tools read operations against the demo data, read back through the domain to know what each
// answer must say.

/** The scopes a Host Tools client registers, as the authorization server maps them to Innkeep's. */
const hostToolsClientScopes: Scope[] = [
  'listings:read',
  'listings:write',
  'reservations:read',
  'reservations:write',
  'messages:write',
  'reviews:read',
  'webhooks:manage',
  'user:read',
  'calendar:read',
];

interface ListingBody {
  _id: string;
  userID: string;
  name: string;
  currency: string;
  basePrice: number;
  channels: Record<string, unknown>;
}
interface ReservationBody {
  _id: string;
  userID: string;
  status: string;
  listingID: string;
  startDate: string;
  endDate: string;
  source: string;
  confirmationCode: string;
  cancelledDate?: string;
}
interface PagedBody {
  nextCursor?: string | null;
  hasMore?: boolean;
}

describe.each(testDatabaseKinds)('the Host Tools read operations on %s', (kind) => {
  let world: RestWorld;
  let running: RunningRestApp;
  let owner: Actor;
  let lapsed: Actor;
  let ownerHeaders: Record<string, string>;
  let listings: Listing[];
  let lapsedListingId: string;
  let today: string;

  /** GET with the owner's authToken. */
  const get = (path: string): Promise<RestAnswer> => callApi(running, 'GET', path, { headers: ownerHeaders });

  beforeAll(async () => {
    world = await openRestWorld(kind);
    running = await startRestApp(world);
    ownerHeaders = { authToken: await authTokenOf(world, demoUsers.owner) };
    owner = await actorOf(world, demoUsers.owner);
    lapsed = await actorOf(world, demoUsers.lapsedOwner);
    listings = (await world.domain.listings.list(owner, { limit: 500 })).items;
    lapsedListingId = (await world.domain.listings.list(lapsed, { limit: 1 })).items[0]?.id ?? '';
    today = localDateIn(listings[0]?.timeZone ?? 'UTC', world.clock.now());
  }, 300_000);

  afterAll(async () => {
    await running?.close();
    await world?.close();
  });

  it('getUser answers the account id as userID, the same for a team member', async () => {
    const answer = await get('/getUser');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      userID: owner.accountId,
      email: demoUsers.owner,
      firstName: expect.any(String),
      lastName: expect.any(String),
    });
    const manager = await callApi(running, 'GET', '/getuser', {
      headers: { authToken: await authTokenOf(world, demoUsers.manager) },
    });
    expect(manager.status).toBe(200);
    expect(manager.body).toMatchObject({ userID: owner.accountId, email: demoUsers.manager });
  });

  it('getListings answers every listing in the Host Tools envelope, in either letter case', async () => {
    for (const path of ['/getListings', '/getlistings']) {
      const answer = await get(path);
      expect(answer.status, path).toBe(200);
      const body = answer.body as { listings: ListingBody[]; userID: string } & PagedBody;
      expect(body.userID).toBe(owner.accountId);
      expect(body.listings.map((listing) => listing._id)).toEqual(listings.map((listing) => listing.id));
      expect(body).not.toHaveProperty('nextCursor');
      expect(body).not.toHaveProperty('hasMore');
    }
    const first = listings[0] as Listing;
    const record = ((await get('/getListings')).body as { listings: ListingBody[] }).listings[0];
    expect(record).toMatchObject({
      _id: first.id,
      userID: owner.accountId,
      name: first.name,
      address: first.address,
      city: first.city,
      countryCode: first.countryCode,
      timeZone: first.timeZone,
      currency: first.currency,
      bedrooms: first.bedrooms,
      bathrooms: first.bathrooms,
      maxGuests: first.maxGuests,
      minNights: first.minNights,
      basePrice: first.basePrice,
      minPrice: first.minPrice,
      checkInTime: first.checkInTime,
      checkOutTime: first.checkOutTime,
      weeklyDiscount: first.weeklyDiscount,
      monthlyDiscount: first.monthlyDiscount,
    });
    const airbnb = first.channels.find((link) => link.channel === 'airbnb');
    if (airbnb !== undefined) {
      expect(record?.channels.Airbnb).toEqual({ id: airbnb.externalListingId });
    }
  });

  it('getListings pages only when asked, and the pages make up the whole list', async () => {
    const ids: string[] = [];
    let path = '/getListings?limit=5';
    for (;;) {
      const answer = await get(path);
      expect(answer.status).toBe(200);
      const body = answer.body as { listings: ListingBody[] } & PagedBody;
      expect(body.listings.length).toBeLessThanOrEqual(5);
      expect(body).toHaveProperty('hasMore');
      ids.push(...body.listings.map((listing) => listing._id));
      if (!body.hasMore) break;
      path = `/getListings?limit=5&cursor=${body.nextCursor}`;
    }
    expect(ids).toEqual(listings.map((listing) => listing.id));
  });

  it('getListings with dates keeps exactly the listings free on every night of the stay', async () => {
    const window = await mixedAvailabilityWindow(world, owner, listings, today);
    const answer = await get(`/getListings?startDate=${window.startDate}&endDate=${window.endDate}`);
    expect(answer.status).toBe(200);
    const body = answer.body as { listings: ListingBody[] };
    expect(body.listings.map((listing) => listing._id)).toEqual(window.free);
    const paged: string[] = [];
    let cursor = '';
    for (;;) {
      const page = await get(
        `/getListings?startDate=${window.startDate}&endDate=${window.endDate}&limit=1${cursor}`,
      );
      const pageBody = page.body as { listings: ListingBody[] } & PagedBody;
      paged.push(...pageBody.listings.map((listing) => listing._id));
      if (!pageBody.hasMore) break;
      cursor = `&cursor=${pageBody.nextCursor}`;
    }
    expect(paged).toEqual(window.free);
  });

  it('getListings refuses a lone date, a check-out before check-in and a malformed date with 400', async () => {
    for (const query of [
      `startDate=${today}`,
      `startDate=${addDays(today, 5)}&endDate=${addDays(today, 2)}`,
      `startDate=${today}&endDate=${today}`,
      `startDate=2026-13-01&endDate=2027-01-02`,
    ]) {
      const answer = await get(`/getListings?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body, query).toMatchObject({ code: 'invalid_argument', message: expect.any(String) });
    }
  });

  it('getListing answers the bare listing, and 404 for unknown and other accounts’ ids', async () => {
    const listing = listings[1] as Listing;
    const answer = await get(`/getlisting/${listing.id}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ _id: listing.id, userID: owner.accountId, name: listing.name });
    for (const id of ['lst_unknown', lapsedListingId]) {
      const missing = await get(`/getListing/${id}`);
      expect(missing.status, id).toBe(404);
      expect(missing.body, id).toMatchObject({ code: 'not_found', message: expect.any(String) });
    }
  });

  it('getCalendar answers each date per channel, with a channel’s own price where set', async () => {
    const listing = listings.find((candidate) => candidate.channels.length >= 2) as Listing;
    const date = addDays(today, 40);
    await world.domain.calendar.setPrices(owner, {
      listingId: listing.id,
      prices: [
        { date, closedToArrival: true, minNights: 3 },
        { date, channel: listing.channels[0]?.channel, price: 987 },
      ],
    });
    const startDate = addDays(today, 30);
    const endDate = addDays(today, 59);
    const answer = await get(`/getcalendar/${listing.id}/${startDate}/${endDate}`);
    expect(answer.status).toBe(200);
    const body = answer.body as {
      userID: string;
      listingID: string;
      currency: string;
      prices: Record<string, Record<string, { price: number; minNights: number; blockCheckin: boolean }>>;
    };
    expect(body).toMatchObject({
      userID: owner.accountId,
      listingID: listing.id,
      currency: listing.currency,
    });
    const calendar = await world.domain.calendar.get(owner, { listingId: listing.id, startDate, endDate });
    expect(Object.keys(body.prices)).toEqual(calendar.days.map((day) => day.date));
    const keys = { airbnb: 'Airbnb', vrbo: 'VRBO', booking: 'Booking', direct: 'other' } as const;
    const channels = [...new Set(listing.channels.map((link) => link.channel))];
    for (const day of calendar.days) {
      const terms = body.prices[day.date] ?? {};
      expect(Object.keys(terms).sort(), day.date).toEqual(channels.map((channel) => keys[channel]).sort());
      for (const channel of channels) {
        expect(terms[keys[channel]], `${day.date} ${channel}`).toEqual({
          price: day.channelPrices[channel] ?? day.price,
          minNights: day.minNights,
          blockCheckin: day.closedToArrival,
          blockCheckout: day.closedToDeparture,
        });
      }
    }
    const changed = body.prices[date] ?? {};
    const ownChannel = keys[listing.channels[0]?.channel ?? 'direct'];
    expect(changed[ownChannel]).toMatchObject({ price: 987, minNights: 3, blockCheckin: true });
    const otherChannel = Object.keys(changed).find((key) => key !== ownChannel) ?? '';
    expect(changed[otherChannel]?.price).toBe(calendar.days.find((day) => day.date === date)?.price);
  });

  it('getCalendar reads more than a year at once and refuses bad ranges and foreign listings', async () => {
    const listing = listings[0] as Listing;
    const long = await get(`/getCalendar/${listing.id}/${today}/${addDays(today, 399)}`);
    expect(long.status).toBe(200);
    expect(Object.keys((long.body as { prices: object }).prices)).toHaveLength(400);
    for (const path of [
      `/getCalendar/${listing.id}/${today}/2026-02-30`,
      `/getCalendar/${listing.id}/${addDays(today, 3)}/${today}`,
      `/getCalendar/${listing.id}/${today}/${addDays(today, 800)}`,
    ]) {
      const answer = await get(path);
      expect(answer.status, path).toBe(400);
      expect(answer.body, path).toMatchObject({ code: 'invalid_argument' });
    }
    const foreign = await get(`/getCalendar/${lapsedListingId}/${today}/${addDays(today, 3)}`);
    expect(foreign.status).toBe(404);
  });

  it('listingGroups answers a bare array and getListingGroup one group', async () => {
    const groups = (await world.domain.listingGroups.list(owner, { limit: 500 })).items;
    expect(groups.length).toBeGreaterThan(0);
    const answer = await get('/listingGroups');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(
      groups.map((group) => ({ _id: group.id, name: group.name, ownerImportLink: group.ownerImportLink })),
    );
    const group = groups.find((candidate) => candidate.ownerImportLink !== null) ?? groups[0];
    const one = await get(`/getlistinggroup/${group?.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ _id: group?.id, name: group?.name, ownerImportLink: group?.ownerImportLink });
    const missing = await get('/getListingGroup/grp_unknown');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'not_found' });
  });

  it('getReservations answers every overlapping stay, cancelled ones included', async () => {
    const cancelled = (await world.domain.reservations.list(owner, { statuses: ['cancelled'], limit: 1 }))
      .items[0];
    expect(cancelled).toBeDefined();
    const listingId = cancelled?.listingId ?? '';
    // A year around the cancelled stay: it sits in the window with many others.
    const startDate = addDays(cancelled?.startDate ?? today, -180);
    const endDate = addDays(cancelled?.startDate ?? today, 180);
    const answer = await get(`/getReservations/${listingId}/${startDate}/${endDate}`);
    expect(answer.status).toBe(200);
    const body = answer.body as { reservations: ReservationBody[]; userID: string } & PagedBody;
    expect(body.userID).toBe(owner.accountId);
    expect(body).not.toHaveProperty('hasMore');
    const expected = await allReservations(world, owner, { listingId, startDate, endDate });
    expect(body.reservations.map((reservation) => reservation._id)).toEqual(expected.map((r) => r.id));
    expect(body.reservations.length).toBeGreaterThan(10);
    for (const reservation of body.reservations) {
      expect(reservation.listingID).toBe(listingId);
      expect(reservation.userID).toBe(owner.accountId);
      expect(reservation.startDate <= endDate && reservation.endDate > startDate).toBe(true);
      expect(['accepted', 'pending', 'cancelled', 'inquiry']).toContain(reservation.status);
      expect(['Airbnb', 'VRBO', 'Booking.com', 'internal']).toContain(reservation.source);
    }
    const record = body.reservations.find((reservation) => reservation._id === cancelled?.id);
    expect(record).toMatchObject({
      status: 'cancelled',
      cancelledDate: cancelled?.cancelledAt,
      confirmationCode: cancelled?.confirmationCode,
      startDate: cancelled?.startDate,
      endDate: cancelled?.endDate,
    });

    const paged: string[] = [];
    let path = `/getreservations/${listingId}/${startDate}/${endDate}?limit=10`;
    for (;;) {
      const page = await get(path);
      const pageBody = page.body as { reservations: ReservationBody[] } & PagedBody;
      expect(pageBody.reservations.length).toBeLessThanOrEqual(10);
      expect(pageBody).toHaveProperty('hasMore');
      paged.push(...pageBody.reservations.map((reservation) => reservation._id));
      if (!pageBody.hasMore) break;
      path = `/getReservations/${listingId}/${startDate}/${endDate}?limit=10&cursor=${pageBody.nextCursor}`;
    }
    expect(paged).toEqual(body.reservations.map((reservation) => reservation._id));
  });

  it('getReservations refuses bad dates with 400 and other accounts’ listings with 404', async () => {
    const listingId = listings[0]?.id ?? '';
    for (const path of [
      `/getReservations/${listingId}/${today}/not-a-date`,
      `/getReservations/${listingId}/${addDays(today, 9)}/${today}`,
    ]) {
      const answer = await get(path);
      expect(answer.status, path).toBe(400);
      expect(answer.body, path).toMatchObject({ code: 'invalid_argument' });
    }
    const foreign = await get(`/getReservations/${lapsedListingId}/${today}/${addDays(today, 30)}`);
    expect(foreign.status).toBe(404);
  });

  it('getReservation answers the stay with its money lines and every message as posts', async () => {
    const { reservationId, messages } = await reservationWithConversation(world, owner);
    const detail = await world.domain.reservations.get(owner, reservationId);
    for (const path of [`/getReservation/${reservationId}`, `/getreservation/${reservationId}`]) {
      const answer = await get(path);
      expect(answer.status, path).toBe(200);
      const body = answer.body as ReservationBody & {
        guests: object;
        hostPayout: number;
        guestPrice: number;
        rates: { amount: number; name: string }[];
        posts: { _id: string; message: string; isGuest: boolean; sentTimestamp: string }[];
      };
      expect(body).toMatchObject({
        _id: detail.id,
        userID: owner.accountId,
        listingID: detail.listingId,
        startDate: detail.startDate,
        endDate: detail.endDate,
        nights: detail.nights,
        firstName: detail.guest.firstName,
        lastName: detail.guest.lastName,
        confirmationCode: detail.confirmationCode,
        guests: {
          adults: detail.guests.adults,
          children: detail.guests.children,
          infants: detail.guests.infants,
          pets: detail.guests.pets,
        },
        hostPayout: detail.hostPayout,
        guestPrice: detail.guestPrice,
        currency: detail.currency,
        checkInTime: detail.checkInTime,
        checkOutTime: detail.checkOutTime,
      });
      expect(body.rates.map((rate) => [rate.name, rate.amount])).toEqual(
        detail.lineItems.map((line) => [line.name, line.amount]),
      );
      expect(body.posts).toEqual(
        messages.map((message) => ({
          _id: message.id,
          message: message.body,
          isGuest: message.sender === 'guest',
          sentTimestamp: message.sentAt,
        })),
      );
      expect(body.posts.some((post) => post.isGuest)).toBe(true);
      expect(body.posts.some((post) => !post.isGuest)).toBe(true);
    }
    const foreign = (await world.domain.reservations.list(lapsed, { limit: 1 })).items[0]?.id;
    for (const id of ['res_unknown', foreign]) {
      const missing = await get(`/getReservation/${id}`);
      expect(missing.status, id).toBe(404);
      expect(missing.body, id).toMatchObject({ code: 'not_found' });
    }
  });

  it('getQuote prices a stay for the party asked about', async () => {
    const stay = await quotableStay(world, owner, listings, today);
    const answer = await callApi(running, 'POST', `/getquote/${stay.listingId}`, {
      headers: ownerHeaders,
      body: {
        startDate: stay.startDate,
        endDate: stay.endDate,
        guests: { adults: 1, children: 1, infants: 1, pets: 1 },
      },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      listingID: stay.listingId,
      currency: stay.quote.currency,
      reservation: {
        startDate: stay.startDate,
        endDate: stay.endDate,
        nights: stay.quote.nights,
        guests: { adults: 1, children: 1, infants: 1, pets: 1 },
      },
      basePrice: stay.quote.accommodation,
      total: stay.quote.total,
      lineItems: stay.quote.lineItems.map((line) => ({
        label: line.name,
        amount: line.amount,
        type: line.type === 'tax' ? 'tax' : line.type.endsWith('_fee') ? 'fee' : 'price',
      })),
    });
    const invalid = await callApi(running, 'POST', `/getQuote/${stay.listingId}`, {
      headers: ownerHeaders,
      body: { startDate: stay.startDate, endDate: stay.endDate, guests: { children: 2 } },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({
      code: 'invalid_argument',
      details: { issues: expect.arrayContaining([expect.objectContaining({ path: 'guests.adults' })]) },
    });
    const foreign = await callApi(running, 'POST', `/getQuote/${lapsedListingId}`, {
      headers: ownerHeaders,
      body: { startDate: stay.startDate, endDate: stay.endDate, guests: { adults: 1 } },
    });
    expect(foreign.status).toBe(404);
  });

  it('getReviews answers a listing’s reviews with their stays’ confirmation codes', async () => {
    const newest = (await world.domain.reviews.list(owner, { limit: 1 })).items[0];
    const listingId = newest?.listingId ?? '';
    const reviews = (await world.domain.reviews.list(owner, { listingId, limit: 500 })).items;
    const answer = await get(`/getreviews/${listingId}`);
    expect(answer.status).toBe(200);
    const body = answer.body as {
      count: number;
      listingID: string;
      reviews: { channel: string; rating: number; confirmationCode: string | null; createdAt: string }[];
    } & PagedBody;
    expect(body.count).toBe(reviews.length);
    expect(body.listingID).toBe(listingId);
    expect(body).not.toHaveProperty('hasMore');
    expect(body.reviews.map((review) => [review.rating, review.createdAt])).toEqual(
      reviews.map((review) => [review.rating, review.submittedAt]),
    );
    const reviewed = reviews.find((review) => review.reservationId !== null);
    const stay = await world.domain.reservations.get(owner, reviewed?.reservationId ?? '');
    expect(body.reviews[reviews.indexOf(reviewed as (typeof reviews)[number])]).toMatchObject({
      confirmationCode: stay.confirmationCode,
    });
    const page = await get(`/getReviews/${listingId}?limit=1`);
    expect(page.body).toMatchObject({ count: 1, hasMore: reviews.length > 1 });
    expect((await get(`/getReviews/${lapsedListingId}`)).status).toBe(404);
  });

  it('getWebhook answers the Host Tools webhook URL, null when none is set', async () => {
    const answer = await get('/getwebhook');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(await world.domain.webhooks.getHostToolsUrl(owner));
    expect(answer.body).toEqual({ webhookURL: null });
  });

  it('serves a Bearer client with the Host Tools scopes, for /api and without a resource', async () => {
    const listingId = listings[0]?.id ?? '';
    const reservationId = (await world.domain.reservations.list(owner, { listingId, limit: 1 })).items[0]?.id;
    const group = (await world.domain.listingGroups.list(owner, { limit: 1 })).items[0]?.id;
    const stay = await quotableStay(world, owner, listings, today);
    for (const resource of ['api', null] as const) {
      const token = await bearerTokenOf(running, { scopes: hostToolsClientScopes, resource });
      const headers = { authorization: `Bearer ${token}` };
      for (const path of [
        '/getUser',
        '/getListings',
        `/getListing/${listingId}`,
        `/getCalendar/${listingId}/${today}/${addDays(today, 6)}`,
        '/listingGroups',
        `/getListingGroup/${group}`,
        `/getReservations/${listingId}/${today}/${addDays(today, 30)}`,
        `/getReservation/${reservationId}`,
        `/getReviews/${listingId}`,
        '/getWebhook',
      ]) {
        const answer = await callApi(running, 'GET', path, { headers });
        expect(answer.status, `${resource} ${path}`).toBe(200);
      }
      const quote = await callApi(running, 'POST', `/getQuote/${stay.listingId}`, {
        headers,
        body: { startDate: stay.startDate, endDate: stay.endDate, guests: { adults: 1 } },
      });
      expect(quote.status, `${resource} getQuote`).toBe(200);
    }
  });

  it('refuses a Bearer token without the scope with 403, and takes the alternative scopes', async () => {
    const userOnly = { authorization: `Bearer ${await bearerTokenOf(running, { scopes: ['user:read'] })}` };
    const listingId = listings[0]?.id ?? '';
    for (const [method, path] of [
      ['GET', '/getListings'],
      ['GET', '/listingGroups'],
      ['GET', `/getReservations/${listingId}/${today}/${addDays(today, 30)}`],
      ['GET', `/getReviews/${listingId}`],
      ['POST', `/getQuote/${listingId}`],
    ] as const) {
      const answer = await callApi(running, method, path, {
        headers: userOnly,
        ...(method === 'POST' ? { body: {} } : {}),
      });
      expect(answer.status, path).toBe(403);
      expect(answer.body, path).toMatchObject({ code: 'insufficient_scope' });
    }
    const stay = await quotableStay(world, owner, listings, today);
    const reservationsOnly = {
      authorization: `Bearer ${await bearerTokenOf(running, { scopes: ['reservations:read'] })}`,
    };
    const quote = await callApi(running, 'POST', `/getQuote/${stay.listingId}`, {
      headers: reservationsOnly,
      body: { startDate: stay.startDate, endDate: stay.endDate, guests: { adults: 1 } },
    });
    expect(quote.status).toBe(200);
    const groupsOnly = {
      authorization: `Bearer ${await bearerTokenOf(running, { scopes: ['listingGroups:read'] })}`,
    };
    expect((await callApi(running, 'GET', '/listingGroups', { headers: groupsOnly })).status).toBe(200);
    expect((await callApi(running, 'GET', '/getListings', { headers: groupsOnly })).status).toBe(403);
  });

  it('reported no unexpected failure', () => {
    expect(world.reported).toEqual([]);
  });
});

/** The domain actor of the user with `email`, as the REST API builds it. */
async function actorOf(world: RestWorld, email: string): Promise<Actor> {
  const user = await world.operator.findUserByEmail(email);
  if (user === null) throw new Error(`no user ${email}`);
  return { accountId: user.accountId, userId: user.userId, role: 'owner', via: 'cli', clientId: null };
}

/** Every reservation the domain lists for `filters`, all pages. */
async function allReservations(
  world: RestWorld,
  actor: Actor,
  filters: { listingId: string; startDate: string; endDate: string },
) {
  const all = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await world.domain.reservations.list(actor, { ...filters, limit: 500, cursor });
    all.push(...page.items);
    if (page.nextCursor === null) return all;
    cursor = page.nextCursor;
  }
}

/**
 * A three-night stay window some listings are free for and others are not, found by reading every
 * listing's calendar through the domain, with the free listings' ids in name order.
 */
async function mixedAvailabilityWindow(
  world: RestWorld,
  actor: Actor,
  listings: readonly Listing[],
  today: string,
): Promise<{ startDate: string; endDate: string; free: string[] }> {
  for (let offset = 1; offset < 120; offset += 3) {
    const startDate = addDays(today, offset);
    const endDate = addDays(startDate, 3);
    const free: string[] = [];
    for (const listing of listings) {
      const calendar = await world.domain.calendar.get(actor, {
        listingId: listing.id,
        startDate,
        endDate: addDays(endDate, -1),
      });
      if (calendar.days.every((day) => day.status === 'available')) free.push(listing.id);
    }
    if (free.length > 0 && free.length < listings.length) return { startDate, endDate, free };
  }
  throw new Error('the demo has no window where some listings are free and others not');
}

/** A reservation whose conversation has messages from the guest and from the host side, oldest first. */
async function reservationWithConversation(world: RestWorld, actor: Actor) {
  const candidates = (await world.domain.reservations.list(actor, { statuses: ['accepted'], limit: 100 }))
    .items;
  for (const reservation of candidates) {
    const thread = await world.domain.messages.getThread(actor, {
      reservationId: reservation.id,
      limit: 500,
    });
    const messages = thread.messages.items;
    if (messages.some((m) => m.sender === 'guest') && messages.some((m) => m.sender !== 'guest')) {
      return { reservationId: reservation.id, messages };
    }
  }
  throw new Error('the demo has no conversation with both sides');
}

/** A stay the domain quotes for two guests: a listing and dates it can take. */
async function quotableStay(world: RestWorld, actor: Actor, listings: readonly Listing[], today: string) {
  for (let offset = 20; offset < 200; offset += 5) {
    for (const listing of listings) {
      const startDate = addDays(today, offset);
      const endDate = addDays(startDate, Math.max(listing.minNights, 2));
      try {
        const quote = await world.domain.pricing.getQuote(actor, {
          listingId: listing.id,
          startDate,
          endDate,
          guests: 2,
        });
        return { listingId: listing.id, startDate, endDate, quote };
      } catch {
        // Not bookable on these dates (taken, closed, too short); try the next.
      }
    }
  }
  throw new Error('the demo has no quotable stay');
}
