import type { Actor } from '@innkeep/domain';
import { newId } from '@innkeep/domain';
import type { Insertable, Kysely } from 'kysely';
import type { Database, ListingsTable } from '../../src/database.ts';

/** An account with an active subscription and its owner, inserted directly for tests. */
export interface TestAccount {
  readonly accountId: string;
  readonly ownerId: string;
  /** The owner acting through the REST route. */
  readonly owner: Actor;
}

/** Inserts an account, an active subscription and an owner user. */
export async function createTestAccount(
  db: Kysely<Database>,
  options: { timeZone?: string; currency?: string; email?: string } = {},
): Promise<TestAccount> {
  const accountId = newId('account');
  const ownerId = newId('user');
  await db
    .insertInto('accounts')
    .values({
      id: accountId,
      name: 'Test Rentals',
      time_zone: options.timeZone ?? 'America/New_York',
      currency: options.currency ?? 'USD',
    })
    .execute();
  await db
    .insertInto('subscriptions')
    .values({ account_id: accountId, plan: 'pro', status: 'active', current_period_end: null })
    .execute();
  await db
    .insertInto('users')
    .values({
      id: ownerId,
      account_id: accountId,
      role: 'owner',
      email: options.email ?? `${ownerId}@example.test`,
      first_name: 'Olivia',
      last_name: 'Owner',
      password_hash: null,
      auth_token_hash: null,
      auth_token_created_at: null,
    })
    .execute();
  return {
    accountId,
    ownerId,
    owner: { accountId, userId: ownerId, role: 'owner', via: 'rest', clientId: null },
  };
}

/** Inserts a listing with sensible defaults ($100 a night, USD, New York, 2 nights minimum, enabled). */
export async function createTestListing(
  db: Kysely<Database>,
  accountId: string,
  overrides: Partial<Insertable<ListingsTable>> = {},
): Promise<string> {
  const id = overrides.id ?? newId('listing');
  await db
    .insertInto('listings')
    .values({
      id,
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
      ...overrides,
    })
    .execute();
  return id;
}
