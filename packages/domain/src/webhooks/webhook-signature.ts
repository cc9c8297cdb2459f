import { createHmac } from 'node:crypto';

/** Name of the HTTP header that carries a delivery's signature. */
export const webhookSignatureHeaderName = 'Webhook-Signature';

/**
 * The `Webhook-Signature` value of a delivery: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`, keyed
 * with the subscription's whole secret (`whsec_` prefix included). The timestamp is signed with the body so
 * that receivers can refuse replays of old deliveries. The help article on webhooks documents this scheme
 * for receivers; change both together.
 * @param body - the exact request body that will be sent.
 */
export function webhookSignatureHeader(secret: string, body: string, sentAt: Date): string {
  const timestamp = Math.floor(sentAt.getTime() / 1000);
  const signature = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${signature}`;
}
