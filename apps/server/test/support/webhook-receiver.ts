import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { findConnectionOwner } from './connection-owner.ts';

/** One request the receiver got. */
export interface ReceivedWebhook {
  /** The `Webhook-Id` header: the event id. */
  readonly webhookId: string;
  /** The `Webhook-Signature` header. */
  readonly signature: string;
  readonly body: string;
  /** The process that sent it, among the receiver's `senderPids`; undefined when it was none of them. */
  readonly senderPid: number | undefined;
  /** The status the receiver answered. */
  readonly status: number;
}

/** Options of {@link startWebhookReceiver}. */
export interface WebhookReceiverOptions {
  /**
   * The status to answer a request with, told the request and the ones received before it (oldest first).
   */
  readonly status: (webhookId: string, earlier: readonly ReceivedWebhook[]) => number;
  /** Milliseconds to wait before answering each request; default none. */
  readonly delayMs?: () => number;
  /** The server processes that may send; each request's sender is looked up among them. */
  readonly senderPids: () => readonly number[];
}

/** A real HTTP server on loopback that records every webhook request and answers as the test says. */
export interface WebhookReceiver {
  /** Where it listens: `http://127.0.0.1:<port>/hooks`. */
  readonly url: string;
  /** Every request so far, in the order they were answered. */
  readonly received: readonly ReceivedWebhook[];
  /** The most requests it held open at the same time. */
  mostAtOnce(): number;
  close(): Promise<void>;
}

/** Starts a {@link WebhookReceiver} on a free loopback port. */
export async function startWebhookReceiver(options: WebhookReceiverOptions): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  let open = 0;
  let mostAtOnce = 0;
  const server = createServer((request, response) => {
    open += 1;
    mostAtOnce = Math.max(mostAtOnce, open);
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      // The sender is looked up before the answer: it closes the connection once answered. Where that cannot
      // be done (no /proc), the sender stays unknown and a test that needs it fails on that.
      const senderPid = await findConnectionOwner(
        request.socket.remotePort ?? 0,
        request.socket.localPort ?? 0,
        options.senderPids(),
      ).catch(() => undefined);
      const delayMs = options.delayMs?.() ?? 0;
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      const webhookId = String(request.headers['webhook-id'] ?? '');
      const status = options.status(webhookId, received);
      received.push({
        webhookId,
        signature: String(request.headers['webhook-signature'] ?? ''),
        body: Buffer.concat(chunks).toString('utf8'),
        senderPid,
        status,
      });
      open -= 1;
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    mostAtOnce: () => mostAtOnce,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
