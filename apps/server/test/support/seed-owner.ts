import { systemClock } from '@innkeep/domain';
import { prepareDatabase } from '@innkeep/service-host';
import { createOperatorUseCases } from '@innkeep/storage';
import type { TestDatabase } from '@innkeep/storage/testing';

/** Who {@link seedOwner} creates, and what it names their listings. */
export interface SeededOwner {
  readonly email: string;
  readonly password: string;
  readonly accountName: string;
  /** Listing ids are `${listingIdPrefix}${n}`, from 0. */
  readonly listingIdPrefix: string;
}

/**
 * Prepares a shared test database as a server process would, and creates an active account whose owner is
 * `owner`, with `listings` enabled Lisbon flats and an authToken for /api. Nothing here records a webhook
 * event, so every event is one a test caused.
 */
export async function seedOwner(
  database: TestDatabase,
  owner: SeededOwner,
  listings: number,
): Promise<{ accountId: string; authToken: string; listingIds: string[] }> {
  await prepareDatabase(database.db);
  const operator = createOperatorUseCases({ db: database.db, clock: systemClock });
  await operator.createOwnerAccount({
    accountName: owner.accountName,
    email: owner.email,
    password: owner.password,
    firstName: 'Olivia',
    lastName: 'Owner',
    timeZone: 'Europe/Lisbon',
    currency: 'EUR',
    subscriptionStatus: 'active',
  });
  const { account_id: accountId } = await database.db
    .selectFrom('users')
    .select('account_id')
    .where('email', '=', owner.email)
    .executeTakeFirstOrThrow();
  const listingIds = Array.from({ length: listings }, (_, index) => `${owner.listingIdPrefix}${index}`);
  await database.db
    .insertInto('listings')
    .values(
      listingIds.map((id, index) => ({
        id,
        account_id: accountId,
        name: `Harbour Flat ${index}`,
        property_type: 'apartment',
        address: `Rua ${index}`,
        city: 'Lisbon',
        country_code: 'PT',
        time_zone: 'Europe/Lisbon',
        currency: 'EUR',
        bedrooms: 1,
        bathrooms: 1,
        max_guests: 2,
        base_price_minor: 9_000,
        min_price_minor: null,
        enabled: true,
      })),
    )
    .execute();
  const { authToken } = await operator.issueAuthToken({ email: owner.email });
  return { accountId, authToken, listingIds };
}
