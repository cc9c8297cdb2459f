import {
  authorizeInBrowser,
  authorizeUrl,
  Browser,
  pkcePair,
  registerClient,
  tokenRequest,
} from '@innkeep/auth/testing';
import { demoLogin } from '@innkeep/demo';
import type { Actor } from '@innkeep/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostToolsClient } from './support/host-tools-client.ts';
import {
  authTokenOf,
  demoUsers,
  openRestWorld,
  type RestWorld,
  type RunningRestApp,
  startRestApp,
} from './support/rest-world.ts';

// The registration the community Host Tools client sends, byte for byte (reference §5).
const hostToolsRegistration = {
  client_name: 'ajz-hosttools-mcp',
  redirect_uris: ['http://localhost:9876/callback'],
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  token_endpoint_auth_method: 'none',
  scope:
    'listings:read listings:write reservations:read reservations:write messaging:write reviews:read webhooks:read webhooks:write user:read calendar:read',
};

function addDays(date: string, days: number): string {
  const moved = new Date(`${date}T00:00:00Z`);
  moved.setUTCDate(moved.getUTCDate() + days);
  return moved.toISOString().slice(0, 10);
}

describe('a Host Tools integration pointed at Innkeep', () => {
  let world: RestWorld;
  let running: RunningRestApp;
  let owner: Actor;

  beforeAll(async () => {
    world = await openRestWorld('postgres');
    running = await startRestApp(world);
    const found = await world.operator.findUserByEmail(demoUsers.owner);
    if (found === null) throw new Error('the demo owner is missing');
    owner = { accountId: found.accountId, userId: found.userId, role: 'owner', via: 'cli', clientId: null };
  }, 300_000);

  afterAll(async () => {
    await running?.close();
    await world?.close();
  });

  /** Everything the 19 operations do, in the order an integration would, reading the fields it reads. */
  async function journey(client: HostToolsClient, searchFrom: number): Promise<void> {
    const user = await client.getUser();
    expect(user).toMatchObject({ userID: expect.any(String), email: demoUsers.owner });
    const everything = await client.getListings();
    expect(everything.userID).toBe(user.userID);
    expect(everything.listings.length).toBeGreaterThan(0);
    for (const listing of everything.listings) expect(listing.userID).toBe(user.userID);

    // An enabled listing with a free three-night window, found the way an integration would: by asking which
    // listings are available then.
    const enabled = (await world.domain.listings.list(owner, { enabled: true, limit: 500 })).items.map(
      (listing) => listing.id,
    );
    const today = new Date().toISOString().slice(0, 10);
    let listingId = '';
    let startDate = '';
    for (let offset = searchFrom; listingId === ''; offset += 7) {
      startDate = addDays(today, offset);
      const free = await client.getListings({ startDate, endDate: addDays(startDate, 3) });
      listingId = free.listings.find((listing) => enabled.includes(listing._id))?._id ?? '';
      if (offset > searchFrom + 300) throw new Error('no free window in the demo data');
    }
    const endDate = addDays(startDate, 3);

    const listing = await client.getListing(listingId);
    expect(listing).toMatchObject({ _id: listingId, userID: user.userID, name: expect.any(String) });
    expect((await client.setListing(listingId, { minNights: 2 })).success).toBe(true);
    expect((await client.getListing(listingId)).minNights).toBe(2);

    const calendar = await client.getCalendar(listingId, startDate, endDate);
    expect(calendar).toMatchObject({
      userID: user.userID,
      listingID: listingId,
      currency: expect.any(String),
    });
    expect(Object.keys(calendar.prices)).toContain(startDate);
    expect((await client.setPrices(listingId, [{ date: startDate, price: 321 }])).success).toBe(true);

    const quote = await client.getQuote(listingId, { startDate, endDate, guests: { adults: 2 } });
    expect(quote).toMatchObject({ listingID: listingId, reservation: { startDate, endDate, nights: 3 } });
    expect(quote.total).toBeGreaterThan(0);
    expect(quote.lineItems.length).toBeGreaterThan(0);

    const created = await client.createReservation({
      listingID: listingId,
      startDate,
      endDate,
      confirmationCode: `HT-${searchFrom}`,
      firstName: 'Hana',
      lastName: 'Tool',
      email: 'hana@example.com',
      phone: '+15550100',
      guests: { adults: 2 },
      hostPayout: 300,
      guestPrice: 350,
    });
    expect(created.success).toBe(true);
    const reservationId = created.reservationID;
    const window = await client.getReservations(listingId, startDate, endDate);
    expect(window.userID).toBe(user.userID);
    const listed = window.reservations.find((reservation) => reservation._id === reservationId);
    expect(listed).toMatchObject({ status: 'accepted', listingID: listingId, firstName: 'Hana' });
    expect(listed?.startDate?.slice(0, 10)).toBe(startDate);
    expect(listed?.endDate?.slice(0, 10)).toBe(endDate);

    expect(
      (await client.setReservation(reservationId, { notes: 'Late arrival', accessCode: '4711' })).success,
    ).toBe(true);
    expect((await client.sendMessage(reservationId, 'Welcome to the flat!')).success).toBe(true);
    const detail = await client.getReservation(reservationId);
    expect(detail).toMatchObject({
      _id: reservationId,
      lockCode: '4711',
      notes: 'Late arrival',
      hostPayout: 300,
    });
    expect(detail.posts?.some((post) => post.message === 'Welcome to the flat!' && !post.isGuest)).toBe(true);
    expect((await client.cancelReservation(reservationId)).success).toBe(true);
    expect((await client.getReservation(reservationId)).status).toBe('cancelled');

    const reviewed = (await world.domain.reviews.list(owner, { limit: 1 })).items[0]?.listingId ?? '';
    const reviews = await client.getReviews(reviewed);
    expect(reviews.listingID).toBe(reviewed);
    expect(reviews.count).toBe(reviews.reviews.length);
    expect(reviews.reviews[0]).toMatchObject({ channel: expect.any(String), rating: expect.any(Number) });

    const groups = await client.listingGroups();
    expect(Array.isArray(groups)).toBe(true);
    const group = groups[0];
    if (group === undefined) throw new Error('the demo account has listing groups');
    expect(await client.getListingGroup(group._id)).toMatchObject({ _id: group._id, name: group.name });

    expect((await client.setWebhook('https://hooks.example.com/innkeep')).success).toBe(true);
    expect((await client.getWebhook()).webhookURL).toBe('https://hooks.example.com/innkeep');
    expect((await client.deleteWebhook()).success).toBe(true);
    expect((await client.getWebhook()).webhookURL).toBeNull();
  }

  it('registers with its own scope names, authorizes without scope or resource, and uses all 19 operations with its Bearer token', async () => {
    const client = await registerClient(running.baseUrl, hostToolsRegistration);
    const redirectUri = hostToolsRegistration.redirect_uris[0] ?? '';
    const { verifier, challenge } = pkcePair();
    const outcome = await authorizeInBrowser(
      new Browser(),
      authorizeUrl(running.baseUrl, { client_id: client.client_id, redirect_uri: redirectUri }, challenge),
      demoLogin,
    );
    const code = outcome.redirect.searchParams.get('code') ?? '';
    expect(code).not.toBe('');
    const token = await tokenRequest(running.baseUrl, {
      grant_type: 'authorization_code',
      client_id: client.client_id,
      redirect_uri: redirectUri,
      code,
      code_verifier: verifier,
    });
    expect(token.status).toBe(200);
    expect(token.body.expires_in).toBe(3600);
    const granted = String(token.body.scope).split(' ');
    expect(granted).toEqual(expect.arrayContaining(['messages:write', 'webhooks:manage', 'calendar:read']));
    expect(granted).not.toContain('pricing:write');

    await journey(new HostToolsClient(running.baseUrl, { bearer: String(token.body.access_token) }), 120);

    // Its refresh, without resource or scope, keeps working on /api and rotates the refresh token.
    const refreshed = await tokenRequest(running.baseUrl, {
      grant_type: 'refresh_token',
      client_id: client.client_id,
      refresh_token: String(token.body.refresh_token),
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).not.toBe(token.body.refresh_token);
    const again = new HostToolsClient(running.baseUrl, { bearer: String(refreshed.body.access_token) });
    expect((await again.getUser()).email).toBe(demoUsers.owner);
  }, 120_000);

  it('uses all 19 operations with an authToken and apiKey, on lower-case paths', async () => {
    const authToken = await authTokenOf(world, demoUsers.owner);
    const { apiKey } = await world.operator.issuePartnerApiKey({ partnerName: 'Lower-case partner' });
    await journey(new HostToolsClient(running.baseUrl, { authToken, apiKey }, 'lower'), 240);
  }, 120_000);
});
