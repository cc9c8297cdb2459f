import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports no application types and is never edited once released.

/**
 * `webhook_subscriptions.format`: how deliveries are shaped, `innkeep` (the envelope of every subscription
 * so far) or `hosttools` (the body Host Tools integrations read, for the single URL they set with
 * setWebhook). The partial unique index keeps an account to one `hosttools` subscription, however many
 * setWebhook calls race.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table webhook_subscriptions
      add column format text not null default 'innkeep'
      constraint webhook_subscriptions_format_check check (format in ('innkeep', 'hosttools'))`.execute(db);
  await sql`
    create unique index webhook_subscriptions_one_host_tools on webhook_subscriptions (account_id)
    where format = 'hosttools'`.execute(db);
}

/** Drops the index and the column (and with it any Host Tools subscription's shape). */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists webhook_subscriptions_one_host_tools`.execute(db);
  await sql`alter table webhook_subscriptions drop column if exists format`.execute(db);
}
