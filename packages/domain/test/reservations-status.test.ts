import { describe, expect, it } from 'vitest';
import { DomainError } from '../src/core/errors.ts';
import {
  isLiveStatus,
  planStatusTransition,
  type ReservationStatus,
  reservationStatuses,
  stayPhaseOn,
} from '../src/reservations/reservation-status.ts';

describe('reservation status machine', () => {
  // The machine written out by hand, independent of the table in the code.
  const legal: [ReservationStatus, ReservationStatus][] = [
    ['inquiry', 'pending'],
    ['inquiry', 'accepted'],
    ['inquiry', 'declined'],
    ['inquiry', 'expired'],
    ['inquiry', 'cancelled'],
    ['pending', 'accepted'],
    ['pending', 'declined'],
    ['pending', 'expired'],
    ['pending', 'cancelled'],
    ['accepted', 'cancelled'],
  ];

  it('allows exactly the legal moves and refuses every other pair', () => {
    for (const from of reservationStatuses) {
      for (const to of reservationStatuses) {
        const isLegal = legal.some(([a, b]) => a === from && b === to);
        if (isLegal) {
          expect(planStatusTransition(from, to)).toMatchObject({ from, to });
        } else {
          expect(() => planStatusTransition(from, to), `${from} → ${to}`).toThrow(DomainError);
        }
      }
    }
  });

  it('names the allowed moves when refusing one', () => {
    try {
      planStatusTransition('accepted', 'declined');
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({
        code: 'failed_precondition',
        details: { from: 'accepted', to: 'declined', allowed: ['cancelled'] },
      });
      expect((error as Error).message).toContain('cancelled');
    }
    expect(() => planStatusTransition('cancelled', 'accepted')).toThrow(/final/);
  });

  it('sets the timestamp of the status entered', () => {
    expect(planStatusTransition('inquiry', 'pending').timestampField).toBe('pendingAt');
    expect(planStatusTransition('pending', 'accepted').timestampField).toBe('confirmedAt');
    expect(planStatusTransition('pending', 'declined').timestampField).toBe('declinedAt');
    expect(planStatusTransition('inquiry', 'expired').timestampField).toBe('expiredAt');
    expect(planStatusTransition('accepted', 'cancelled').timestampField).toBe('cancelledAt');
  });

  it('takes the nights when a reservation goes live and frees them when it stops being live', () => {
    expect(isLiveStatus('pending')).toBe(true);
    expect(isLiveStatus('accepted')).toBe(true);
    expect(isLiveStatus('inquiry')).toBe(false);
    expect(isLiveStatus('cancelled')).toBe(false);
    expect(planStatusTransition('inquiry', 'pending').hold).toBe('acquire');
    expect(planStatusTransition('inquiry', 'accepted').hold).toBe('acquire');
    expect(planStatusTransition('pending', 'accepted').hold).toBe('keep');
    expect(planStatusTransition('pending', 'declined').hold).toBe('release');
    expect(planStatusTransition('pending', 'expired').hold).toBe('release');
    expect(planStatusTransition('accepted', 'cancelled').hold).toBe('release');
    expect(planStatusTransition('inquiry', 'declined').hold).toBe('none');
    expect(planStatusTransition('inquiry', 'cancelled').hold).toBe('none');
  });
});

describe('stay phase', () => {
  it('places a 2026-05-10 → 2026-05-13 stay relative to today', () => {
    expect(stayPhaseOn('2026-05-09', '2026-05-10', '2026-05-13')).toBe('upcoming');
    expect(stayPhaseOn('2026-05-10', '2026-05-10', '2026-05-13')).toBe('checking_in_today');
    expect(stayPhaseOn('2026-05-11', '2026-05-10', '2026-05-13')).toBe('in_house');
    expect(stayPhaseOn('2026-05-12', '2026-05-10', '2026-05-13')).toBe('in_house');
    expect(stayPhaseOn('2026-05-13', '2026-05-10', '2026-05-13')).toBe('checking_out_today');
    expect(stayPhaseOn('2026-05-14', '2026-05-10', '2026-05-13')).toBe('past');
  });

  it('handles a one-night stay', () => {
    expect(stayPhaseOn('2026-05-10', '2026-05-10', '2026-05-11')).toBe('checking_in_today');
    expect(stayPhaseOn('2026-05-11', '2026-05-10', '2026-05-11')).toBe('checking_out_today');
  });
});
