import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhookSignature } from '../src/sign-webhook.ts';

const secret = 'whsec_test_secret';
const body = '{"id":"evt_1","event":"listing.updated"}';
const t = 1_775_000_000;

describe('webhook signatures', () => {
  it('signs "t.body" with HMAC-SHA256 under the timestamp', () => {
    const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
    expect(signWebhook(secret, t, body)).toBe(`t=${t},v1=${expected}`);
  });

  it('verifies its own signature, and refuses another body, secret, a tampered or an old one', () => {
    const header = signWebhook(secret, t, body);
    expect(verifyWebhookSignature(secret, header, body, { nowSeconds: t + 10 })).toBe(true);
    expect(verifyWebhookSignature(secret, header, `${body} `, { nowSeconds: t })).toBe(false);
    expect(verifyWebhookSignature('whsec_other', header, body, { nowSeconds: t })).toBe(false);
    expect(verifyWebhookSignature(secret, header.replace(/.$/, '0'), body, { nowSeconds: t })).toBe(
      header.endsWith('0'),
    );
    expect(verifyWebhookSignature(secret, header, body, { nowSeconds: t + 301 })).toBe(false);
    expect(verifyWebhookSignature(secret, 'v1=abc', body, { nowSeconds: t })).toBe(false);
  });

  it('accepts a header signed by either secret during a rotation', () => {
    const both = signWebhook([secret, 'whsec_old'], t, body);
    expect(both.match(/v1=/g)).toHaveLength(2);
    expect(both.startsWith(signWebhook(secret, t, body))).toBe(true);
    expect(verifyWebhookSignature(secret, both, body, { nowSeconds: t })).toBe(true);
    expect(verifyWebhookSignature('whsec_old', both, body, { nowSeconds: t })).toBe(true);
  });

  it('refuses a timestamp that is not whole seconds', () => {
    expect(() => signWebhook(secret, 1.5, body)).toThrow(RangeError);
  });
});
