import { type Actor, newId } from '@innkeep/domain';
import type { DatabaseHandle } from '@innkeep/storage';

/** Inserts an account with an active plan and its owner, and returns the owner acting through REST. */
export async function createOwner(db: DatabaseHandle['db']): Promise<Actor> {
  const accountId = newId('account');
  const userId = newId('user');
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
  return { accountId, userId, role: 'owner', via: 'rest', clientId: null };
}
