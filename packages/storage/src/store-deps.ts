import type { Clock } from '@innkeep/domain';
import type { Kysely } from 'kysely';
import type { Database } from './database.ts';

/** What every PostgreSQL-backed use-case factory needs. */
export interface StoreDeps {
  readonly db: Kysely<Database>;
  readonly clock: Clock;
}
