import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports no application types and is never edited once released.

/**
 * `webhook_deliveries`: the queue. One row per event and subscription (the unique constraint makes a second
 * fan-out of the same event a no-op), carrying its retry schedule and its last outcome for the delivery log.
 *
 * - `next_attempt_at` is set exactly while the row is `pending` (the check says so); `lease_until` is when
 *   the sender that claimed the attempt loses it, so a crashed instance's attempt is claimed again later.
 * - `first_attempt_at` starts the 24-hour retry window of the current schedule; a redelivery clears it, so
 *   a new schedule gets a full window (`created_at` could not tell).
 * - Every time is written from the application's clock, never the database's, so one clock rules the
 *   schedule and tests control it; hence no defaults.
 * - `webhook_deliveries_due` holds only pending rows in due order: claiming reads the head of a small index
 *   however many delivered rows are kept. `webhook_deliveries_by_subscription` serves a subscription's
 *   delivery log, newest first, and the cascade when a subscription is deleted; the unique constraint's
 *   index serves the cascade from events (retention). `account_id` has no index of its own, to keep each
 *   delivery's insert cheap: deleting an account scans this table once, rare enough to pay for then.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table webhook_deliveries (
      id text primary key,
      account_id text not null references accounts (id) on delete cascade,
      event_id text not null references webhook_events (id) on delete cascade,
      subscription_id text not null references webhook_subscriptions (id) on delete cascade,
      status text not null
        constraint webhook_deliveries_status_check check (status in ('pending', 'delivered', 'failed')),
      attempts integer not null default 0,
      next_attempt_at timestamptz,
      lease_until timestamptz,
      first_attempt_at timestamptz,
      last_attempt_at timestamptz,
      last_status_code integer,
      last_error text,
      last_latency_ms integer,
      delivered_at timestamptz,
      created_at timestamptz not null,
      constraint webhook_deliveries_once unique (event_id, subscription_id),
      constraint webhook_deliveries_scheduled_while_pending
        check ((status = 'pending') = (next_attempt_at is not null))
    )`.execute(db);
  await sql`
    create index webhook_deliveries_due on webhook_deliveries (next_attempt_at, id)
    where status = 'pending'`.execute(db);
  await sql`
    create index webhook_deliveries_by_subscription
    on webhook_deliveries (subscription_id, created_at desc, id desc)`.execute(db);
}

/** Drops the table, and with it every delivery's schedule and log. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists webhook_deliveries`.execute(db);
}
