import { describe, expect, it } from 'vitest';
import {
  channelReservationReason,
  decideMessageDelivery,
  messageEmailRetryDelaysMs,
  nextMessageEmailAttemptAt,
  notDeliveredReasons,
} from './message-delivery.ts';

describe('decideMessageDelivery', () => {
  const direct = { channel: 'direct', guestEmail: 'grace@example.test', emailDelivery: true } as const;

  it('queues only a message to a direct guest with an address, on a server that emails', () => {
    expect(decideMessageDelivery(direct)).toEqual({ deliveryStatus: 'queued', deliveryError: null });
  });

  it('names a channel reservation first, then the server, then the guest', () => {
    for (const channel of ['airbnb', 'vrbo', 'booking'] as const) {
      expect(decideMessageDelivery({ channel, guestEmail: null, emailDelivery: false })).toEqual({
        deliveryStatus: 'not_delivered',
        deliveryError: channelReservationReason(channel),
      });
    }
    expect(decideMessageDelivery({ ...direct, guestEmail: null, emailDelivery: false })).toEqual({
      deliveryStatus: 'not_delivered',
      deliveryError: 'Email delivery is not configured on this server',
    });
    for (const guestEmail of [null, ' ']) {
      expect(decideMessageDelivery({ ...direct, guestEmail })).toEqual({
        deliveryStatus: 'not_delivered',
        deliveryError: notDeliveredReasons.guestHasNoEmail,
      });
    }
  });

  it('tells the host where to send a channel message instead', () => {
    expect(channelReservationReason('booking')).toBe(
      "Booking.com reservations need a channel connector, which this build does not have: send it from the channel's inbox",
    );
  });
});

describe('nextMessageEmailAttemptAt', () => {
  const now = new Date('2026-04-01T12:00:00Z');

  it('waits the scheduled delay give or take a quarter', () => {
    const first = messageEmailRetryDelaysMs[0];
    expect(nextMessageEmailAttemptAt(1, now, 0.5)?.getTime()).toBe(now.getTime() + first);
    expect(nextMessageEmailAttemptAt(1, now, 0)?.getTime()).toBe(now.getTime() + first * 0.75);
    expect(nextMessageEmailAttemptAt(1, now, 0.999_999)?.getTime()).toBeCloseTo(
      now.getTime() + first * 1.25,
      -3,
    );
  });

  it('gives up once every retry was made, about a day after the first attempt', () => {
    const attempts = messageEmailRetryDelaysMs.length;
    expect(nextMessageEmailAttemptAt(attempts, now, 0.5)).not.toBeNull();
    expect(nextMessageEmailAttemptAt(attempts + 1, now, 0.5)).toBeNull();
    const total = messageEmailRetryDelaysMs.reduce((sum, delay) => sum + delay, 0);
    expect(total / 3_600_000).toBeGreaterThan(20);
    expect(total / 3_600_000).toBeLessThan(28);
  });
});
