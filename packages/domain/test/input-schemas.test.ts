import { describe, expect, it } from 'vitest';
import { createReservationInputSchema } from '../src/reservations/reservations.ts';

describe('input schemas', () => {
  // Zod 4 runs an object's refinements even when a field failed; they must not throw on impossible dates.
  it('report an impossible date as a field issue instead of throwing', () => {
    const result = createReservationInputSchema.safeParse({
      listingId: 'lst_x',
      startDate: '2027-13-01',
      endDate: '2027-01-05',
      guest: { firstName: 'Ada', lastName: 'Guest' },
      adults: 2,
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toContain('startDate');
  });
});
