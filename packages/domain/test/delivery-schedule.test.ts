import { describe, expect, it } from 'vitest';
import {
  afterFailedAttempt,
  failingSubscriptionReason,
  webhookGiveUpAfterMs,
  webhookRetryBaseMs,
  webhookRetryCapMs,
  webhookRetryDelayMs,
} from '../src/webhooks/delivery-schedule.ts';
import { subscriptionReceives } from '../src/webhooks/webhook-deliveries.ts';

const second = 1000;
const hour = 3_600_000;

describe('the retry delay', () => {
  it('starts at 5–10 s and doubles its range with each failed attempt', () => {
    expect(webhookRetryBaseMs).toBe(10 * second);
    expect(webhookRetryDelayMs(1, 0)).toBe(5 * second);
    expect(webhookRetryDelayMs(1, 0.5)).toBe(7.5 * second);
    expect(webhookRetryDelayMs(2, 0)).toBe(10 * second);
    expect(webhookRetryDelayMs(3, 0)).toBe(20 * second);
    expect(webhookRetryDelayMs(3, 0.999_999_999)).toBe(40 * second);
  });

  it('stays within 30–60 minutes once the doubling passes the cap, however many attempts', () => {
    expect(webhookRetryCapMs).toBe(hour);
    for (const attempt of [10, 11, 40, 1_000_000]) {
      expect(webhookRetryDelayMs(attempt, 0)).toBe(hour / 2);
      expect(webhookRetryDelayMs(attempt, 0.999_999_999)).toBe(hour);
    }
    // 10 s × 2^8 = 42 min 40 s is the last ceiling under the cap.
    expect(webhookRetryDelayMs(9, 0)).toBe(1280 * second);
  });

  it('refuses an attempt that is not a whole number from 1 and a random outside [0, 1)', () => {
    for (const attempt of [0, -1, 1.5, Number.NaN]) {
      expect(() => webhookRetryDelayMs(attempt, 0.5)).toThrow(RangeError);
    }
    for (const random of [1, -0.1, Number.NaN]) {
      expect(() => webhookRetryDelayMs(1, random)).toThrow(RangeError);
    }
  });
});

describe('retrying and giving up', () => {
  const firstAttemptAt = new Date('2026-04-01T12:00:00.000Z');
  const after = (ms: number) => new Date(firstAttemptAt.getTime() + ms);

  it('retries until the first attempt failed 24 hours ago, then gives up', () => {
    expect(webhookGiveUpAfterMs).toBe(24 * hour);
    expect(afterFailedAttempt({ attempts: 1, firstAttemptAt, now: firstAttemptAt, random: 0 })).toEqual({
      kind: 'retry',
      nextAttemptAt: after(5 * second),
    });
    expect(afterFailedAttempt({ attempts: 30, firstAttemptAt, now: after(24 * hour), random: 0 })).toEqual({
      kind: 'retry',
      nextAttemptAt: after(24.5 * hour),
    });
    expect(
      afterFailedAttempt({ attempts: 30, firstAttemptAt, now: after(24 * hour + 1), random: 0 }),
    ).toEqual({
      kind: 'give-up',
    });
  });

  it.each([0, 0.5, 0.999_999_999])(
    'keeps a delivery that always fails trying for over 24 hours and gives up within 25 (random %s)',
    (random) => {
      let now = firstAttemptAt;
      let attempts = 1;
      let next = afterFailedAttempt({ attempts, firstAttemptAt, now, random });
      while (next.kind === 'retry') {
        now = next.nextAttemptAt;
        attempts += 1;
        next = afterFailedAttempt({ attempts, firstAttemptAt, now, random });
      }
      const triedFor = now.getTime() - firstAttemptAt.getTime();
      expect(triedFor).toBeGreaterThan(24 * hour);
      expect(triedFor).toBeLessThanOrEqual(25 * hour);
      // Short gaps early, about two an hour later: some 30 to 60 attempts in all, not thousands.
      expect(attempts).toBeGreaterThan(25);
      expect(attempts).toBeLessThan(60);
    },
  );
});

describe('the reason a failing subscription was disabled', () => {
  it('quotes the last status and error, or the error alone when nothing answered', () => {
    expect(failingSubscriptionReason({ statusCode: 500, error: 'Internal Server Error' })).toBe(
      'Every delivery failed for 24 hours; last: HTTP 500: Internal Server Error. ' +
        'Set active to true to resume deliveries.',
    );
    expect(failingSubscriptionReason({ error: 'Timed out after 10 s' })).toContain(
      'last: Timed out after 10 s.',
    );
  });

  it('shortens a long error to 200 characters', () => {
    const reason = failingSubscriptionReason({ statusCode: 502, error: 'x'.repeat(5000) });
    expect(reason).toContain(`HTTP 502: ${'x'.repeat(199)}…. Set active`);
    expect(reason.length).toBeLessThan(300);
  });
});

describe('which subscriptions receive an event', () => {
  it('those that asked for it', () => {
    const subscription = { events: ['reservation.created', 'calendar.updated'], format: 'innkeep' };
    expect(subscriptionReceives(subscription, 'calendar.updated')).toBe(true);
    expect(subscriptionReceives(subscription, 'reservation.updated')).toBe(false);
  });

  it('the Host Tools URL only for events its body can describe, whatever its row lists', () => {
    const hostTools = { events: ['reservation.created', 'calendar.updated'], format: 'hosttools' };
    expect(subscriptionReceives(hostTools, 'reservation.created')).toBe(true);
    expect(subscriptionReceives(hostTools, 'calendar.updated')).toBe(false);
  });
});
