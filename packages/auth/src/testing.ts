import { domainMigrations } from '@innkeep/domain/postgres';
import { openTestDatabase, type TestDatabase, type TestDatabaseKind } from '@innkeep/domain/testing';
import { authMigrations } from './postgres/migrations/index.ts';

/** A private test database with the domain's and the authorization server's tables. */
export function openAuthTestDatabase(kind: TestDatabaseKind): Promise<TestDatabase> {
  return openTestDatabase(kind, { ...domainMigrations, ...authMigrations });
}
