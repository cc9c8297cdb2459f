import { createHmac, timingSafeEqual } from 'node:crypto';
import { webhookSignatureHeader } from '@innkeep/domain';

/**
 * The `Webhook-Signature` value for `body` sent at `timestampSeconds` (unix seconds):
 * `t=<unix>,v1=<hex HMAC-SHA256 of "t.body">`, keyed with the subscription's whole secret (one `v1` per
 * secret while a rotation overlaps). The scheme itself
 * lives in the domain (`webhookSignatureHeader`), which the help article for receivers documents.
 */
export function signWebhook(
  secrets: string | readonly string[],
  timestampSeconds: number,
  body: string,
): string {
  if (!Number.isInteger(timestampSeconds) || timestampSeconds < 0) {
    throw new RangeError(`timestampSeconds must be a whole number of seconds, got ${timestampSeconds}.`);
  }
  return webhookSignatureHeader(secrets, body, new Date(timestampSeconds * 1000));
}

/** Options of {@link verifyWebhookSignature}. */
export interface VerifyWebhookSignatureOptions {
  /** The receiver's time in unix seconds; default the current time. */
  readonly nowSeconds?: number;
  /** How far the signed time may be from `nowSeconds`, so an old delivery cannot be replayed; default 300. */
  readonly toleranceSeconds?: number;
}

/**
 * What a receiver does with a delivery: true when `header` carries a `v1` signature of `body` by `secret` at a
 * time within the tolerance. Several `v1` values (both secrets during a rotation) are each tried; the
 * comparison takes the same time whatever the bytes, so it leaks nothing about the right signature.
 */
export function verifyWebhookSignature(
  secret: string,
  header: string,
  body: string,
  options: VerifyWebhookSignatureOptions = {},
): boolean {
  const parts = header.split(',').map((part) => part.trim());
  const timestamp = parts.find((part) => part.startsWith('t='))?.slice(2);
  if (timestamp === undefined || !/^\d+$/.test(timestamp)) return false;
  const nowSeconds = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(nowSeconds - Number(timestamp)) > (options.toleranceSeconds ?? 300)) return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest();
  return parts
    .filter((part) => part.startsWith('v1='))
    .some((part) => {
      const given = Buffer.from(part.slice(3), 'hex');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}
