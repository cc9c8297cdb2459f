import type { Actor } from '@innkeep/domain';
import { DomainError } from '@innkeep/domain';
import type { Kysely, Transaction } from 'kysely';
import type { Database, Executor } from './database.ts';

/** SQLSTATE codes we translate; everything else is an internal error. */
const sqlState = {
  uniqueViolation: '23505',
  exclusionViolation: '23P01',
  foreignKeyViolation: '23503',
  checkViolation: '23514',
} as const;

/** The SQLSTATE of a pg or PGlite error, if it is one. */
export function sqlStateOf(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') {
    return error.code;
  }
  return undefined;
}

/**
 * Maps constraint violations that slipped past a use case's own checks to domain errors, without driver
 * text. Anything else is rethrown unchanged, for adapters to report as `internal`.
 */
export function translateDatabaseError(error: unknown): unknown {
  if (error instanceof DomainError) return error;
  switch (sqlStateOf(error)) {
    case sqlState.uniqueViolation:
    case sqlState.exclusionViolation:
      return new DomainError('conflict', 'The change clashes with an existing record.', { cause: error });
    case sqlState.foreignKeyViolation:
      return new DomainError('not_found', 'The change refers to a record that does not exist.', {
        cause: error,
      });
    case sqlState.checkViolation:
      return new DomainError('invalid_argument', 'A value is out of its allowed range.', { cause: error });
    default:
      return error;
  }
}

/** True when `error` is the no-double-booking constraint firing. */
export function isOverlapViolation(error: unknown): boolean {
  return sqlStateOf(error) === sqlState.exclusionViolation;
}

/**
 * Runs `work` in one transaction: all of its writes land, or none do. Domain errors thrown inside roll
 * the transaction back and reach the caller as they are.
 */
export async function inTransaction<T>(
  db: Kysely<Database>,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  try {
    return await db.transaction().execute(work);
  } catch (error) {
    throw translateDatabaseError(error);
  }
}

/** What a write did, for the audit log. */
export interface AuditEntry {
  /** Dotted verb, e.g. `reservation.create`. */
  readonly action: string;
  readonly targetType: string;
  readonly targetId: string | null;
  readonly details?: Record<string, unknown>;
}

/** Appends an audit entry inside the write's own transaction, so the log never misses a change. */
export async function recordAudit(trx: Executor, actor: Actor, entry: AuditEntry): Promise<void> {
  await trx
    .insertInto('audit_log')
    .values({
      account_id: actor.accountId,
      user_id: actor.userId,
      via: actor.via,
      client_id: actor.clientId,
      action: entry.action,
      target_type: entry.targetType,
      target_id: entry.targetId,
      details: JSON.stringify(entry.details ?? {}),
    })
    .execute();
}
