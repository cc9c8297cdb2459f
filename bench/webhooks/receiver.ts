import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhookSignature } from '@innkeep/webhook-delivery';

/** One POST the receiver took in. */
export interface Arrival {
  /** The `Webhook-Id` header: the event id receivers deduplicate on. */
  readonly eventId: string;
  /** `data.reservationId` of the body, when it has one. */
  readonly reservationId: string | undefined;
  /** When the whole body had arrived, in ms since the Unix epoch (sub-millisecond, this process's clock). */
  readonly arrivedAt: number;
  readonly body: string;
  /** Whether `Webhook-Signature` verified against the secret in force when it arrived. */
  readonly signatureValid: boolean;
}

/** A loopback webhook receiver that answers 204 at once and keeps every arrival. */
export interface Receiver {
  /** The URL to subscribe (http://127.0.0.1:<port>/webhooks). */
  readonly url: string;
  /** The signing secret deliveries are verified with from now on. */
  setSecret(secret: string): void;
  /** Every arrival since the last call, oldest first; the receiver then starts a new list. */
  take(): Arrival[];
  /** How many arrivals are waiting to be taken. */
  readonly pending: number;
  close(): Promise<void>;
}

/**
 * Starts the receiver on an ephemeral loopback port. The arrival time is stamped when the body is complete
 * and the 204 is sent before anything else is done with it, as a receiver that queues its work would; the
 * signature is checked right after, on every arrival.
 */
export async function startReceiver(): Promise<Receiver> {
  let secret = '';
  let arrivals: Arrival[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const arrivedAt = performance.timeOrigin + performance.now();
      response.writeHead(204).end();
      const body = Buffer.concat(chunks).toString('utf8');
      const signature = request.headers['webhook-signature'];
      arrivals.push({
        eventId: String(request.headers['webhook-id'] ?? ''),
        reservationId: reservationIdOf(body),
        arrivedAt,
        body,
        signatureValid: typeof signature === 'string' && verifyWebhookSignature(secret, signature, body),
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    setSecret(next) {
      secret = next;
    },
    take() {
      const taken = arrivals;
      arrivals = [];
      return taken;
    },
    get pending() {
      return arrivals.length;
    },
    close: () =>
      new Promise((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** `data.reservationId` of a delivery body, or undefined when the body is not one. */
function reservationIdOf(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { data?: { reservationId?: unknown } };
    const id = parsed.data?.reservationId;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}
