import { addDays } from '@innkeep/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getPrompt } from '../src/prompts/prompt-catalogue.ts';
import { getOccupancyStatsTool } from '../src/tools/analytics/get-occupancy-stats.tool.ts';
import { openToolWorld, type ToolWorld, worldToday } from './support/tool-world.ts';

// Issue 20: pricing_review counted manual blocks as sellable while get_occupancy_stats and the analytics
// article leave every block out of the denominator, so the two told a host different occupancies.
describe('pricing_review’s occupancy', () => {
  let world: ToolWorld;

  beforeAll(async () => {
    world = await openToolWorld();
  });

  afterAll(async () => {
    await world?.close();
  });

  it('leaves every blocked night out of the denominator, as get_occupancy_stats does', async () => {
    const { actor, domain } = world.context;
    const { items } = await domain.listings.list(actor, { limit: 1 });
    const listingId = items[0]?.id ?? '';
    const range = { startDate: addDays(worldToday, 60), endDate: addDays(worldToday, 89) };
    const before = await domain.calendar.get(actor, { listingId, ...range });
    const open = before.days.filter((day) => day.status === 'available').slice(0, 2);
    expect(open).toHaveLength(2);
    for (const day of open) {
      await domain.calendar.setAvailability(actor, {
        listingId,
        startDate: day.date,
        endDate: day.date,
        available: false,
        reason: 'manual',
      });
    }

    const { days } = await domain.calendar.get(actor, { listingId, ...range });
    const booked = days.filter((day) => day.status === 'booked').length;
    const available = days.length - days.filter((day) => day.status === 'blocked').length;
    const prompt = await getPrompt('pricing_review', { listingId, ...range }, world.context);
    expect(prompt.messages[0]?.content.text).toContain(
      `Occupancy: ${booked} of ${days.length} nights booked (${Math.round((booked / available) * 100)}% of ` +
        `${available} available`,
    );

    const stats = await world.call(getOccupancyStatsTool, { ...range, listingIds: [listingId] });
    expect(stats.structuredContent).toMatchObject({ availableNights: available });
  });
});
