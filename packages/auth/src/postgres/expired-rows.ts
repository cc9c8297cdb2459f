import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { AuthDatabase } from './database.ts';
import { loginThrottlePolicy } from './login-throttle.ts';
import { stepUpMarkLifetimeMs } from './step-up-marks.ts';
import { sessionIdleTimeoutMs } from './web-sessions.ts';

/**
 * Rows one statement deletes at most: a large backlog goes in many short statements, so no statement holds
 * its row locks (or the embedded database's single connection) for long.
 */
export const expiredRowsBatchSize = 5_000;

/** How many rows of each kind {@link removeExpiredAuthRows} removed. */
export interface RemovedAuthRows {
  /** oidc-provider rows (tokens, codes, sessions, grants, interactions) past their `expires_at`. */
  readonly oidcModels: number;
  /** Sign-in throttle rows whose window is over and whose lock, if any, has ended. */
  readonly loginThrottles: number;
  /** Browser sessions past their end or idle past their timeout. */
  readonly webSessions: number;
  /** Step-up marks older than their lifetime (a day). */
  readonly stepUpMarks: number;
}

// Every throttle rule forgets its failures once its window is over, so the longest window is when a row
// with no running lock counts for nothing any more.
const longestThrottleWindowMs = Math.max(...Object.values(loginThrottlePolicy).map((rule) => rule.windowMs));

/**
 * Deletes the authorization server's rows that no longer mean anything at `now`, in batches of
 * {@link expiredRowsBatchSize}. Each kind's test is the one its reader applies, so nothing is removed that
 * could still be read as live.
 */
export async function removeExpiredAuthRows(db: Kysely<AuthDatabase>, now: Date): Promise<RemovedAuthRows> {
  const oidcModels = await deleteInBatches(
    db,
    sql`delete from oidc_model where (model, id) in (
      select model, id from oidc_model where expires_at <= ${now} limit ${expiredRowsBatchSize})`,
  );
  const windowStartedBefore = new Date(now.getTime() - longestThrottleWindowMs);
  const loginThrottles = await deleteInBatches(
    db,
    sql`delete from login_throttle where key in (
      select key from login_throttle
      where window_started_at <= ${windowStartedBefore} and (locked_until is null or locked_until <= ${now})
      limit ${expiredRowsBatchSize})`,
  );
  const idleSince = new Date(now.getTime() - sessionIdleTimeoutMs);
  const webSessions = await deleteInBatches(
    db,
    sql`delete from web_sessions where id_hash in (
      select id_hash from web_sessions where expires_at <= ${now} or last_seen_at <= ${idleSince}
      limit ${expiredRowsBatchSize})`,
  );
  const markedBefore = new Date(now.getTime() - stepUpMarkLifetimeMs);
  const stepUpMarks = await deleteInBatches(
    db,
    sql`delete from oauth_step_up_marks where grant_id in (
      select grant_id from oauth_step_up_marks where marked_at <= ${markedBefore} limit ${expiredRowsBatchSize})`,
  );
  return { oidcModels, loginThrottles, webSessions, stepUpMarks };
}

/** Runs `statement` (a delete of at most one batch) until a run removes less than a batch; the total removed. */
async function deleteInBatches(db: Kysely<AuthDatabase>, statement: RawBuilder<unknown>): Promise<number> {
  let total = 0;
  for (;;) {
    const result = await statement.execute(db);
    const removed = Number(result.numAffectedRows ?? 0n);
    total += removed;
    if (removed < expiredRowsBatchSize) return total;
  }
}
