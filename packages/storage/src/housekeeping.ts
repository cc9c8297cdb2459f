import { idempotencyKeyLifetimeMs } from '@innkeep/domain';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from './database.ts';

/**
 * Rows one statement deletes at most: a large backlog goes in many short statements, so no statement holds
 * its row locks (or the embedded database's single connection) for long.
 */
export const housekeepingBatchSize = 5_000;

/** How long delivered webhook events are kept unless configured otherwise. */
export const defaultWebhookEventRetentionDays = 30;

/** Options of {@link removeExpiredRows}. */
export interface RemoveExpiredRowsOptions {
  /** Days a finished webhook event (and its delivery log) is kept after it happened. */
  readonly eventRetentionDays: number;
}

/** How many rows of each kind {@link removeExpiredRows} removed. */
export interface RemovedRows {
  /** Idempotency keys past their lifetime (24 hours). */
  readonly idempotencyKeys: number;
  /** Webhook events past the retention, each with its deliveries (they cascade). */
  readonly webhookEvents: number;
  /** Previous webhook secrets whose rotation overlap has ended: forgotten, not only unused. */
  readonly webhookPreviousSecrets: number;
}

const dayMs = 24 * 60 * 60 * 1000;

/**
 * Deletes the domain's rows that have expired at `now`, in batches of {@link housekeepingBatchSize}:
 * idempotency keys past their lifetime, and webhook events older than the retention that have been fanned out
 * and have no pending delivery (their deliveries go with them). An event not yet fanned out, or with a
 * delivery still to be attempted, is kept whatever its age. Also clears webhook secrets whose rotation
 * overlap has ended.
 */
export async function removeExpiredRows(
  db: Kysely<Database>,
  now: Date,
  options: RemoveExpiredRowsOptions,
): Promise<RemovedRows> {
  if (!Number.isInteger(options.eventRetentionDays) || options.eventRetentionDays < 1) {
    throw new RangeError(
      `eventRetentionDays must be a whole number of days, at least 1; got ${options.eventRetentionDays}`,
    );
  }
  const keysCreatedBefore = new Date(now.getTime() - idempotencyKeyLifetimeMs);
  const idempotencyKeys = await deleteInBatches(
    db,
    sql`delete from idempotency_keys where (account_id, key) in (
      select account_id, key from idempotency_keys where created_at < ${keysCreatedBefore}
      limit ${housekeepingBatchSize})`,
  );
  const eventsCreatedBefore = new Date(now.getTime() - options.eventRetentionDays * dayMs);
  const webhookEvents = await deleteInBatches(
    db,
    sql`delete from webhook_events where id in (
      select id from webhook_events as event
      where event.created < ${eventsCreatedBefore}
        and event.dispatched_at is not null
        and not exists (
          select 1 from webhook_deliveries as delivery
          where delivery.event_id = event.id and delivery.status = 'pending')
      limit ${housekeepingBatchSize})`,
  );
  // A previous secret stops signing when its overlap ends whether or not it is cleared; clearing it keeps a
  // secret nobody should use out of the database. Subscriptions are few (20 an account): no index needed.
  const cleared = await db
    .updateTable('webhook_subscriptions')
    .set({ previous_secret: null, previous_secret_expires_at: null })
    .where('previous_secret_expires_at', '<=', now)
    .executeTakeFirst();
  return { idempotencyKeys, webhookEvents, webhookPreviousSecrets: Number(cleared.numUpdatedRows) };
}

/** Runs `statement` (a delete of at most one batch) until a run removes less than a batch; the total removed. */
async function deleteInBatches(db: Kysely<Database>, statement: RawBuilder<unknown>): Promise<number> {
  let total = 0;
  for (;;) {
    const result = await statement.execute(db);
    const removed = Number(result.numAffectedRows ?? 0n);
    total += removed;
    if (removed < housekeepingBatchSize) return total;
  }
}
