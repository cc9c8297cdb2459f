import {
  analyticsConventions,
  attributionBases,
  metricDefinitionIds,
  metricDefinitions,
  metricDefinitionsResultSchema,
  nullReasons,
} from '@innkeep/domain/analytics';
import { describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../src/testing.ts';
import { useGuestWorld } from './support/analytics-guest-world.ts';

describe('the metric definitions catalogue', () => {
  it('defines every id results cite, once each and in catalogue order', () => {
    expect(metricDefinitions.map((definition) => definition.id)).toEqual([...metricDefinitionIds]);
    expect(() =>
      metricDefinitionsResultSchema.parse({
        definitions: metricDefinitions,
        conventions: analyticsConventions,
      }),
    ).not.toThrow();
    for (const definition of metricDefinitions) {
      expect(definition.formula.length, definition.id).toBeGreaterThan(20);
      // A ratio names both sides; anything else names neither or only what it adds up.
      if (definition.denominator !== null) expect(definition.numerator, definition.id).not.toBeNull();
    }
  });

  it('explains every null reason and attribution basis a result can carry', () => {
    expect(analyticsConventions.nullReasons.map((entry) => entry.reason)).toEqual([...nullReasons]);
    expect(analyticsConventions.attributionBases.map((entry) => entry.basis)).toEqual([...attributionBases]);
    const cited = new Set(metricDefinitions.flatMap((definition) => definition.nullPolicy.reasons));
    for (const reason of nullReasons) expect(cited.has(reason), reason).toBe(true);
  });

  it('states the conventions the other tools rely on', () => {
    expect(analyticsConventions).toMatchObject({
      soldStatuses: ['accepted'],
      calendarHoldingStatuses: ['pending', 'accepted'],
      blockReasonsOutOfSupply: ['owner', 'maintenance', 'manual', 'channel'],
      weekendNights: ['Friday', 'Saturday'],
      ratioDecimals: 4,
    });
    expect(analyticsConventions.revenueBases.map((entry) => entry.basis)).toEqual([
      'accommodation',
      'fees',
      'total',
      'channel_fees',
      'net',
      'payout',
    ]);
    expect(analyticsConventions.rules.join(' ')).toMatch(/Feb 29 → 28/);
  });
});

describe.each(testDatabaseKinds)('definitions and listing groups on %s', (kind) => {
  const world = useGuestWorld(kind);

  it('returns all definitions, or only the ones asked for, always with the conventions', async () => {
    const owner = world.fixture.account.owner;
    expect((await world.domain.analytics.getMetricDefinitions(owner, {})).definitions).toHaveLength(
      metricDefinitionIds.length,
    );
    const some = await world.domain.analytics.getMetricDefinitions(owner, { ids: ['revpar', 'adr'] });
    expect(some.definitions.map((definition) => definition.id)).toEqual(['adr', 'revpar']);
    expect(some.conventions).toEqual(analyticsConventions);
    await expect(
      world.domain.analytics.getMetricDefinitions(owner, { ids: ['occupancy'] as never }),
    ).rejects.toMatchObject({ code: 'invalid_argument' });
  });

  it('lists listing groups by name with their sizes and first members, paged', async () => {
    const owner = world.fixture.account.owner;
    const first = await world.domain.analytics.listListingGroups(owner, { limit: 2, membersListed: 1 });
    expect(first.items).toEqual([
      {
        id: world.fixture.groups.cities,
        name: 'Cities',
        ownerName: null,
        memberCount: 2,
        // By name: Berlin Loft before Boston House.
        members: [{ id: world.fixture.listings.berlin, name: 'Berlin Loft' }],
        membersTruncated: true,
      },
      {
        id: world.fixture.groups.empty,
        name: 'Empty',
        ownerName: null,
        memberCount: 0,
        members: [],
        membersTruncated: false,
      },
    ]);
    expect(first.hasMore).toBe(true);
    const second = await world.domain.analytics.listListingGroups(owner, {
      limit: 2,
      cursor: first.nextCursor ?? '',
    });
    expect(second).toEqual({
      items: [
        {
          id: world.fixture.groups.lisbon,
          name: 'Lisbon',
          ownerName: 'Ana Costa',
          memberCount: 1,
          members: [{ id: world.fixture.listings.lisbon, name: 'Lisbon Flat' }],
          membersTruncated: false,
        },
      ],
      nextCursor: null,
      hasMore: false,
    });
    await expect(
      world.domain.analytics.listListingGroups(owner, { cursor: 'nonsense' }),
    ).rejects.toMatchObject({
      code: 'invalid_argument',
    });
  });
});
