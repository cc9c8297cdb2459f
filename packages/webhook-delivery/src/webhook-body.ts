import { DomainError, type DueWebhookDelivery, webhookTestEvent } from '@innkeep/domain';

/**
 * What the Host Tools URL receives: `{type, document}`, Host Tools' own webhook body. `reservation`: the
 * reservation as getReservation answers it; `message`: the new post as getReservation's `posts` show it,
 * with its `reservationID`; `test`: a test the host sent, its document the event's data.
 */
export interface HostToolsWebhookBody {
  readonly type: 'reservation' | 'message' | 'test';
  readonly document: Readonly<Record<string, unknown>>;
}

/**
 * Reads the Host Tools body of a reservation or message delivery, as the document is when the attempt is
 * made (Host Tools receivers read the change from the record itself). Rejects when it cannot: a
 * `DomainError` (the record is gone) is shown in the delivery log as it is; any other error only as a failed
 * read, so the caller should log its cause.
 */
export type HostToolsBodyReader = (delivery: DueWebhookDelivery) => Promise<HostToolsWebhookBody>;

/**
 * The JSON body of a delivery to an `innkeep` subscription: `{id, event, created, data}`, `id` being the event
 * id receivers deduplicate on.
 */
export function webhookBody(delivery: DueWebhookDelivery): string {
  return JSON.stringify({
    id: delivery.eventId,
    event: delivery.event,
    created: delivery.created.toISOString(),
    data: delivery.data,
  });
}

/** A delivery's body, or why it could not be built. */
export type BuiltWebhookBody =
  | { readonly ok: true; readonly body: string }
  | { readonly ok: false; readonly error: string };

/**
 * The body `delivery` is sent with, by its subscription's format: the envelope ({@link webhookBody}) for
 * `innkeep`, `{type, document}` for `hosttools` (a test's document is its data; the others are read by
 * `readHostToolsBody`). A Host Tools body that cannot be read is an error for the delivery log, never the
 * envelope instead: a Host Tools receiver could not read it.
 */
export async function buildWebhookBody(
  delivery: DueWebhookDelivery,
  readHostToolsBody: HostToolsBodyReader,
): Promise<BuiltWebhookBody> {
  if (delivery.format === 'innkeep') return { ok: true, body: webhookBody(delivery) };
  if (delivery.event === webhookTestEvent) {
    return { ok: true, body: JSON.stringify({ type: 'test', document: delivery.data }) };
  }
  try {
    const { type, document } = await readHostToolsBody(delivery);
    return { ok: true, body: JSON.stringify({ type, document }) };
  } catch (error) {
    // A domain error says which record is gone, for the host; any other may carry internals, so it stays out.
    const why = error instanceof DomainError ? error.message : 'reading its document failed.';
    return { ok: false, error: `The Host Tools body could not be built: ${why}` };
  }
}
