import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports no application types and is never edited once released.

/**
 * Calendar imports: a channel link may name the channel's own iCal URL, polled for its stays.
 *
 * - `listing_channel_links` gains the URL, where its import stands (`import_status`, set exactly while a URL
 *   is, as the check says), the last feed's validators, the last success and failure, and the poll queue:
 *   `import_next_poll_at` (null: due at once) and `import_lease_until` (until when the poller that claimed the
 *   link holds it). `listing_channel_links_import_due` holds only links with a URL, nulls first, so a claim
 *   reads the head of a small index however many links there are.
 * - `calendar_holds`: a channel's stays are blocks of reason `channel`, naming the link's channel account and
 *   the feed event's UID (both set exactly for that reason, unique per link). They reference the link itself,
 *   so removing the link (or its listing or channel account) removes them, through the hold triggers like any
 *   hold delete. `block_month_facts` (migration 0030) takes any reason: its `reason` column has no check.
 * - `calendar_import_conflicts`: the feed stays that clash with other holds here, open ones only, with the
 *   clashing holds as they were last seen; removed with their link.
 * - `calendar.import_conflict` joins the webhook event kinds: a clash is announced when first seen.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table listing_channel_links
      add column calendar_import_url text,
      add column import_status text check (import_status in ('pending', 'connected', 'error')),
      add column import_etag text,
      add column import_last_modified text,
      add column import_last_success_at timestamptz,
      add column import_last_error_at timestamptz,
      add column import_last_error text,
      add column import_next_poll_at timestamptz,
      add column import_lease_until timestamptz,
      add constraint listing_channel_links_import_status_with_url
        check ((calendar_import_url is null) = (import_status is null))`.execute(db);
  await sql`
    create index listing_channel_links_import_due
    on listing_channel_links (import_next_poll_at nulls first)
    where calendar_import_url is not null`.execute(db);

  await sql`
    alter table calendar_holds
      drop constraint calendar_holds_block_reason_check,
      add constraint calendar_holds_block_reason_check
        check (block_reason in ('owner', 'maintenance', 'manual', 'channel')),
      add column channel_account_id text references channel_accounts (id) on delete cascade,
      add column import_uid text,
      add constraint calendar_holds_channel_import
        check ((block_reason is not distinct from 'channel')
          = (channel_account_id is not null and import_uid is not null)),
      add constraint calendar_holds_channel_link
        foreign key (listing_id, channel_account_id)
        references listing_channel_links (listing_id, channel_account_id) on delete cascade`.execute(db);
  await sql`
    create unique index calendar_holds_channel_stays
    on calendar_holds (listing_id, channel_account_id, import_uid)
    where channel_account_id is not null`.execute(db);

  await sql`
    create table calendar_import_conflicts (
      account_id text not null references accounts (id) on delete cascade,
      listing_id text not null references listings (id) on delete cascade,
      channel_account_id text not null references channel_accounts (id) on delete cascade,
      event_uid text not null,
      start_date date not null,
      end_date date not null,
      summary text,
      clashes jsonb not null,
      first_seen_at timestamptz not null,
      primary key (listing_id, channel_account_id, event_uid),
      foreign key (listing_id, channel_account_id)
        references listing_channel_links (listing_id, channel_account_id) on delete cascade,
      check (end_date > start_date)
    )`.execute(db);

  await sql`alter table webhook_events drop constraint webhook_events_event_check`.execute(db);
  await sql`
    alter table webhook_events add constraint webhook_events_event_check check (event in (
      'reservation.created', 'reservation.updated', 'reservation.cancelled', 'message.created',
      'review.created', 'calendar.updated', 'calendar.import_conflict', 'listing.updated',
      'webhook.test'))`.execute(db);
}

/**
 * Drops the conflict events (with their deliveries), the conflicts, the channel holds (and their columns), and
 * the import columns of the links.
 */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from webhook_events where event = 'calendar.import_conflict'`.execute(db);
  await sql`alter table webhook_events drop constraint webhook_events_event_check`.execute(db);
  await sql`
    alter table webhook_events add constraint webhook_events_event_check check (event in (
      'reservation.created', 'reservation.updated', 'reservation.cancelled', 'message.created',
      'review.created', 'calendar.updated', 'listing.updated', 'webhook.test'))`.execute(db);
  await sql`drop table if exists calendar_import_conflicts`.execute(db);
  await sql`delete from calendar_holds where block_reason = 'channel'`.execute(db);
  await sql`drop index if exists calendar_holds_channel_stays`.execute(db);
  await sql`
    alter table calendar_holds
      drop constraint calendar_holds_channel_link,
      drop constraint calendar_holds_channel_import,
      drop column channel_account_id,
      drop column import_uid,
      drop constraint calendar_holds_block_reason_check,
      add constraint calendar_holds_block_reason_check
        check (block_reason in ('owner', 'maintenance', 'manual'))`.execute(db);
  await sql`drop index if exists listing_channel_links_import_due`.execute(db);
  await sql`
    alter table listing_channel_links
      drop constraint listing_channel_links_import_status_with_url,
      drop column calendar_import_url,
      drop column import_status,
      drop column import_etag,
      drop column import_last_modified,
      drop column import_last_success_at,
      drop column import_last_error_at,
      drop column import_last_error,
      drop column import_next_poll_at,
      drop column import_lease_until`.execute(db);
}
