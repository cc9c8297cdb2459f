import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports no application types and is never edited once released.

/**
 * One automated message per reservation and rule: runners on several instances insert with
 * `on conflict do nothing` against this index, so a guest never gets the same rule's text twice.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create unique index messages_automation_once on messages (reservation_id, message_rule_id)
    where sender = 'automation' and message_rule_id is not null`.execute(db);
}

/** Drops the once-per-rule index. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists messages_automation_once`.execute(db);
}
