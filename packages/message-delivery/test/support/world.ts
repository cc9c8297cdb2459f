import { type Actor, type Clock, newId } from '@innkeep/domain';
import { createPostgresDomain, type DatabaseHandle } from '@innkeep/storage';

/** An account with its owner and one listing, inserted directly. */
export interface TestHost {
  readonly owner: Actor;
  readonly listingId: string;
}

/** Inserts an account with an active plan, its owner and a listing named "Harbor Loft". */
export async function createHost(db: DatabaseHandle['db']): Promise<TestHost> {
  const accountId = newId('account');
  const userId = newId('user');
  const listingId = newId('listing');
  await db
    .insertInto('accounts')
    .values({ id: accountId, name: 'Test Rentals', time_zone: 'America/New_York', currency: 'USD' })
    .execute();
  await db
    .insertInto('subscriptions')
    .values({ account_id: accountId, plan: 'pro', status: 'active', current_period_end: null })
    .execute();
  await db
    .insertInto('users')
    .values({
      id: userId,
      account_id: accountId,
      role: 'owner',
      email: `${userId}@example.test`,
      first_name: 'Olivia',
      last_name: 'Owner',
      password_hash: null,
      auth_token_hash: null,
      auth_token_created_at: null,
    })
    .execute();
  await db
    .insertInto('listings')
    .values({
      id: listingId,
      account_id: accountId,
      name: 'Harbor Loft',
      property_type: 'apartment',
      address: '12 Water St',
      city: 'Portland',
      country_code: 'US',
      time_zone: 'America/New_York',
      currency: 'USD',
      bedrooms: 2,
      bathrooms: 1,
      max_guests: 4,
      base_price_minor: 10_000,
      min_price_minor: null,
      min_nights: 2,
      enabled: true,
    })
    .execute();
  return { owner: { accountId, userId, role: 'owner', via: 'rest', clientId: null }, listingId };
}

/**
 * Books a direct stay for Grace Guest (grace@example.test) from `startDate` for 3 nights and writes `body` to
 * her as the host, on a server with email delivery: the message is queued. Returns its id.
 */
export async function queueHostMessage(
  db: DatabaseHandle['db'],
  clock: Clock,
  host: TestHost,
  startDate: string,
  body: string,
): Promise<string> {
  const domain = createPostgresDomain({ db, clock, emailDelivery: true });
  const end = new Date(`${startDate}T00:00:00Z`);
  end.setUTCDate(end.getUTCDate() + 3);
  const reservation = await domain.reservations.create(host.owner, {
    listingId: host.listingId,
    startDate,
    endDate: end.toISOString().slice(0, 10),
    guest: { firstName: 'Grace', lastName: 'Guest', email: 'grace@example.test' },
    adults: 2,
    guestPrice: 300,
  });
  const message = await domain.messages.send(host.owner, { reservationId: reservation.id, body });
  if (message.deliveryStatus !== 'queued')
    throw new Error(`Expected a queued message, got ${message.deliveryStatus}.`);
  return message.id;
}
