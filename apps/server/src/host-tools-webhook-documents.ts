import {
  type Actor,
  type Clock,
  DomainError,
  type InnkeepDomain,
  notFound,
  webhookEventDataSchemas,
} from '@innkeep/domain';
import { getReservationWithMessagesOperation, type OperationContext } from '@innkeep/operations';
import { type HostToolsReservationDetail, toHostToolsReservationDetail } from '@innkeep/rest';
import type { HostToolsBodyReader, HostToolsWebhookBody } from '@innkeep/webhook-delivery';

/** Options of {@link hostToolsWebhookDocuments}. */
export interface HostToolsWebhookDocumentsOptions {
  /** Where the documents are read, as any request of the account would read them. */
  readonly domain: InnkeepDomain;
  readonly clock: Clock;
}

/**
 * The sender's `hostToolsBody`: reads the `{type, document}` a reservation or message delivery carries to
 * the Host Tools URL, when the attempt is made. `reservation`: the reservation as `GET /api/getReservation`
 * answers it now (the same record mapping), which is what Host Tools receivers expect: they read what
 * changed from the record. `message`: the new post as that answer's `posts` show it, with its
 * `reservationID`. Rejects with `not_found` when the record is gone.
 */
export function hostToolsWebhookDocuments(options: HostToolsWebhookDocumentsOptions): HostToolsBodyReader {
  const { domain, clock } = options;
  return async (delivery): Promise<HostToolsWebhookBody> => {
    const actor = documentReader(delivery.accountId);
    switch (delivery.event) {
      case 'reservation.created':
      case 'reservation.updated':
      case 'reservation.cancelled': {
        const { reservationId } = webhookEventDataSchemas[delivery.event].parse(delivery.data);
        return {
          type: 'reservation',
          document: await reservationDocument({ actor, domain, clock }, reservationId),
        };
      }
      case 'message.created': {
        const { reservationId, messageId } = webhookEventDataSchemas[delivery.event].parse(delivery.data);
        const { posts } = await reservationDocument({ actor, domain, clock }, reservationId);
        const post = posts.find((candidate) => candidate._id === messageId);
        if (post === undefined) throw notFound('message', messageId);
        return { type: 'message', document: { ...post, reservationID: reservationId } };
      }
      default:
        throw new DomainError(
          'failed_precondition',
          `A Host Tools URL is not sent ${delivery.event} events: its body has no document for them.`,
        );
    }
  };
}

/** Who reads a delivery's document: the system acting in the delivery's account, with no user, read-only. */
function documentReader(accountId: string): Actor {
  return { accountId, userId: null, role: 'viewer', via: 'system', clientId: null };
}

/** The reservation with its money lines and whole conversation, as getReservation reads and maps it. */
async function reservationDocument(
  context: OperationContext,
  reservationId: string,
): Promise<HostToolsReservationDetail> {
  const reservation = await getReservationWithMessagesOperation.run({ reservationId }, context);
  return toHostToolsReservationDetail(reservation, reservation.messages, context.actor.accountId);
}
