import { createHmac } from 'node:crypto';

/** Name of the HTTP header that carries a delivery's signature. */
export const webhookSignatureHeaderName = 'Webhook-Signature';

/**
 * The `Webhook-Signature` value of a delivery: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`, keyed
 * with the subscription's whole secret (`whsec_` prefix included). The timestamp is signed with the body so
 * that receivers can refuse replays of old deliveries. The help article on webhooks documents this scheme
 * for receivers; change both together.
 * @param secrets - the subscription's secret, or its new and previous secrets while a rotation overlaps.
 * @param body - the exact request body that will be sent.
 */
export function webhookSignatureHeader(
  secrets: string | readonly string[],
  body: string,
  sentAt: Date,
): string {
  const timestamp = Math.floor(sentAt.getTime() / 1000);
  // During a secret rotation both secrets sign, each as its own `v1`, so a receiver holding either verifies.
  const signatures = (typeof secrets === 'string' ? [secrets] : secrets).map(
    (secret) => `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`,
  );
  return `t=${timestamp},${signatures.join(',')}`;
}
