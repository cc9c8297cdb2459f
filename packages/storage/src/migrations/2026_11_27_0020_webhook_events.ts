import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports no application types and is never edited once released.

/**
 * `webhook_events`: the outbox. Every write inserts its events here in its own transaction, so a committed
 * change always has its event and a rolled-back one never does; delivery reads them from here later.
 *
 * - `id` (`evt_…`) is the id receivers deduplicate on, the same on every attempt.
 * - `created` is when the write happened (its transaction's time), the envelope's `created`.
 * - `dispatched_at` stays null until a dispatcher has taken the event over (fanned it out to the
 *   subscriptions); the partial index holds only those rows, in claim order, so
 *   `where dispatched_at is null order by created, id limit n for update skip locked` reads the head of a
 *   small index however many delivered events are kept, and concurrent claimers skip each other's rows.
 * - `(account_id, created)` serves the account's event list, retention by account and the cascade when an
 *   account is deleted.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table webhook_events (
      id text primary key,
      account_id text not null references accounts (id) on delete cascade,
      event text not null constraint webhook_events_event_check check (event in (
        'reservation.created', 'reservation.updated', 'reservation.cancelled', 'message.created',
        'review.created', 'calendar.updated', 'listing.updated')),
      created timestamptz not null default now(),
      data jsonb not null,
      dispatched_at timestamptz
    )`.execute(db);
  await sql`
    create index webhook_events_undispatched on webhook_events (created, id)
    where dispatched_at is null`.execute(db);
  await sql`create index webhook_events_account on webhook_events (account_id, created)`.execute(db);
}

/** Drops the table, and with it every event not yet delivered. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists webhook_events`.execute(db);
}
