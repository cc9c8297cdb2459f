import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports no application types and is never edited once released.

/**
 * Secret rotation and test events.
 *
 * - `previous_secret` keeps signing beside `secret` until `previous_secret_expires_at`, so receivers can move
 *   to the new secret without missing a delivery; the check keeps the two columns set or unset together.
 * - `webhook.test` joins the event kinds: a test a host sends to one subscription goes through the same queue,
 *   and shows in its delivery log, as any other event.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table webhook_subscriptions
      add column previous_secret text,
      add column previous_secret_expires_at timestamptz,
      add constraint webhook_subscriptions_previous_secret_expires
        check ((previous_secret is null) = (previous_secret_expires_at is null))`.execute(db);
  await sql`alter table webhook_events drop constraint webhook_events_event_check`.execute(db);
  await sql`
    alter table webhook_events add constraint webhook_events_event_check check (event in (
      'reservation.created', 'reservation.updated', 'reservation.cancelled', 'message.created',
      'review.created', 'calendar.updated', 'listing.updated', 'webhook.test'))`.execute(db);
}

/** Drops the previous secrets, and the test events with their deliveries. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from webhook_events where event = 'webhook.test'`.execute(db);
  await sql`alter table webhook_events drop constraint webhook_events_event_check`.execute(db);
  await sql`
    alter table webhook_events add constraint webhook_events_event_check check (event in (
      'reservation.created', 'reservation.updated', 'reservation.cancelled', 'message.created',
      'review.created', 'calendar.updated', 'listing.updated'))`.execute(db);
  await sql`
    alter table webhook_subscriptions
      drop constraint webhook_subscriptions_previous_secret_expires,
      drop column previous_secret_expires_at,
      drop column previous_secret`.execute(db);
}
