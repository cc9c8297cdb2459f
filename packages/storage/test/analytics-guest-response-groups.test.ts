import { describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../src/testing.ts';
import { useGuestWorld } from './support/analytics-guest-world.ts';

const march = { startDate: '2026-03-01', endDate: '2026-03-31' };

// The breakdown reads each small dimension's percentiles by position from one sort of the answered times of
// all its groups, so a group without answers sits between groups with some: it must get no times of theirs.
describe.each(testDatabaseKinds)('response-time groups without answers on %s', (kind) => {
  const world = useGuestWorld(kind);

  it('gives an hour whose only wait is unanswered no times, between hours with answers', async () => {
    const breakdown = await world.domain.analytics.getResponseTimeBreakdown(
      world.fixture.account.owner,
      march,
    );
    // 06:00 holds a single wait, unanswered; 01:00 before it and 08:00 after it have answers (see the fixture).
    expect(breakdown.byHour[6]).toMatchObject({
      waits: 1,
      answered: 0,
      medianMinutes: null,
      meanMinutes: null,
      p90Minutes: null,
      nullReasons: expect.objectContaining({ medianMinutes: 'no_responses', p90Minutes: 'no_responses' }),
    });
    expect(breakdown.byHour[1]).toMatchObject({ waits: 1, answered: 1, medianMinutes: 45, p90Minutes: 45 });
    expect(breakdown.byHour[8]).toMatchObject({ waits: 2, answered: 2 });
    expect(breakdown.byHour[8]?.medianMinutes).not.toBeNull();
  });
});
