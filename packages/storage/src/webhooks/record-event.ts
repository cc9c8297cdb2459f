import { newId, type WebhookEventRecord } from '@innkeep/domain';
import type { Executor } from '../database.ts';

/**
 * Appends webhook events to the outbox inside the write's own transaction: they commit with the change they
 * describe, or roll back with it, so no committed change goes unannounced and no undone one is announced.
 * Each event is stamped with its transaction's time and a new `evt_…` id, the one receivers deduplicate on.
 */
export async function recordEvents(trx: Executor, events: readonly WebhookEventRecord[]): Promise<void> {
  if (events.length === 0) return;
  await trx
    .insertInto('webhook_events')
    .values(
      events.map(({ accountId, event, data }) => ({
        id: newId('webhookEvent'),
        account_id: accountId,
        event,
        data: JSON.stringify(data),
      })),
    )
    .execute();
}

/** {@link recordEvents} for a write that records a single event. */
export async function recordEvent(trx: Executor, event: WebhookEventRecord): Promise<void> {
  await recordEvents(trx, [event]);
}
