import { generateSigningKey } from '@innkeep/auth';
import { systemClock } from '@innkeep/domain';
import { prepareDatabase } from '@innkeep/service-host';
import { createOperatorUseCases, type DatabaseHandle, openDatabase } from '@innkeep/storage';
import type { AppDeps } from '../../src/app.ts';

/** The key and address settings of a test app: one signing key per test file, no proxy, no Redis. */
export const testAuthDeps: Pick<AppDeps, 'baseUrl' | 'secretKeys' | 'signingKeys' | 'trustProxy'> = {
  baseUrl: 'http://127.0.0.1:3000',
  secretKeys: ['server-test-key-0123456789abcdefghijklmn'],
  signingKeys: [generateSigningKey()],
  trustProxy: false,
};

/** The owner {@link openOwnerDatabase} creates, with the password a test signs in with. */
export const testOwner = { email: 'olivia@example.test', password: 'correct horse battery' } as const;

/**
 * An embedded database of the test's own, brought up to date, holding one account in good standing whose
 * owner is {@link testOwner}.
 */
export async function openOwnerDatabase(): Promise<DatabaseHandle> {
  const database = await openDatabase({ kind: 'pglite' });
  await prepareDatabase(database.db);
  await createOperatorUseCases({ db: database.db, clock: systemClock }).createOwnerAccount({
    accountName: 'Harbour Stays',
    ...testOwner,
    firstName: 'Olivia',
    lastName: 'Owner',
    timeZone: 'Europe/Lisbon',
    currency: 'EUR',
    subscriptionStatus: 'active',
  });
  return database;
}
