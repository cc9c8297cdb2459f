import { testDatabaseKinds } from '@innkeep/storage/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolsByName } from '../src/catalogue.ts';
import type { ToolAnnotations, ToolDefinition } from '../src/tool-definition.ts';
import { writeTools } from '../src/tools/write-tools.ts';
import {
  errorOf,
  latestAuditId,
  listingNamed,
  openWriteWorld,
  reservationsFrom,
  type WriteWorld,
} from './write-tools-support.ts';

const write = (destructive: boolean, idempotent: boolean, openWorld = false): ToolAnnotations => ({
  readOnlyHint: false,
  destructiveHint: destructive,
  idempotentHint: idempotent,
  openWorldHint: openWorld,
});

/** The contract of each write tool, written out by hand from PRODUCT.md and the tool copy rules. */
const expected: readonly {
  name: string;
  scopes: string[];
  annotations: ToolAnnotations;
  readFirst: string;
  warns: boolean;
}[] = [
  {
    name: 'send_message',
    scopes: ['messages:write'],
    annotations: write(false, false, true),
    readFirst: 'get_message_thread',
    warns: true,
  },
  {
    name: 'set_prices',
    scopes: ['calendar:write'],
    annotations: write(true, true),
    readFirst: 'get_calendar',
    warns: false,
  },
  {
    name: 'set_availability',
    scopes: ['calendar:write'],
    annotations: write(true, true),
    readFirst: 'get_calendar',
    warns: false,
  },
  {
    name: 'create_reservation',
    scopes: ['reservations:write'],
    annotations: write(false, false),
    readFirst: 'get_quote',
    warns: false,
  },
  {
    name: 'update_reservation',
    scopes: ['reservations:write'],
    annotations: write(true, true),
    readFirst: 'get_reservation',
    warns: false,
  },
  {
    name: 'cancel_reservation',
    scopes: ['reservations:write'],
    annotations: write(true, true),
    readFirst: 'get_reservation',
    warns: true,
  },
  {
    name: 'update_listing',
    scopes: ['listings:write'],
    annotations: write(true, true),
    readFirst: 'get_listing',
    warns: false,
  },
  {
    name: 'create_message_rule',
    scopes: ['messageRules:write'],
    annotations: write(false, false, true),
    readFirst: 'get_message_rules',
    warns: false,
  },
  {
    name: 'pause_message_rule',
    scopes: ['messageRules:write'],
    annotations: write(false, true, true),
    readFirst: 'get_message_rules',
    warns: false,
  },
  {
    name: 'create_pricing_rule',
    scopes: ['pricing:write'],
    annotations: write(true, false),
    readFirst: 'get_pricing_rules',
    warns: true,
  },
];

describe('write tool declarations', () => {
  it('lists the ten write tools in order, each in the catalogue under its name', () => {
    expect(writeTools.map((tool) => tool.name)).toEqual(expected.map((tool) => tool.name));
    for (const tool of writeTools) expect(toolsByName.get(tool.name)).toBe(tool);
  });

  it.each(expected)('$name needs exactly its scope and carries honest annotations', (contract) => {
    const tool = writeTools.find((candidate) => candidate.name === contract.name);
    expect(tool?.scopes).toEqual(contract.scopes);
    expect(tool?.annotations).toEqual(contract.annotations);
  });

  it.each(expected)('$name tells the model what to read first and what it changes', (contract) => {
    const tool = writeTools.find((candidate) => candidate.name === contract.name);
    const description = tool?.description ?? '';
    expect(description).toContain(contract.readFirst);
    expect(description).toContain('What changes: ');
    expect(description).toContain('Returns ');
    expect(description.includes('⚠️')).toBe(contract.warns);
    expect(tool?.title.length).toBeGreaterThan(0);
  });

  it('converts every input and output schema to JSON Schema objects for tools/list', () => {
    for (const tool of writeTools) {
      const input = z.toJSONSchema(tool.input, { io: 'input' });
      const output = z.toJSONSchema(tool.output, { io: 'output' });
      expect(input.type, tool.name).toBe('object');
      expect(output.type, tool.name).toBe('object');
    }
  });

  it('pause_message_rule pauses by default and can resume', () => {
    const tool = toolsByName.get('pause_message_rule');
    expect(tool?.input.parse({ ruleId: 'mru_x' })).toEqual({ ruleId: 'mru_x', paused: true });
    expect(tool?.input.parse({ ruleId: 'mru_x', paused: false })).toEqual({ ruleId: 'mru_x', paused: false });
    expect(tool?.description).toContain('resume');
  });
});

describe.each(testDatabaseKinds)('write tools refuse a viewer (%s)', (kind) => {
  let world: WriteWorld;

  beforeAll(async () => {
    world = await openWriteWorld(kind);
  }, 120_000);

  afterAll(async () => {
    await world?.close();
  });

  it('answers permission_denied to every write tool and writes nothing', async () => {
    const { domain } = world.context;
    const listing = await listingNamed(world, 'Blue Heron');
    const direct = (
      await reservationsFrom(world, '2026-07-01', { listingId: listing.id, statuses: ['accepted'] })
    ).find((reservation) => reservation.channel === 'direct');
    if (direct === undefined) throw new Error('the demo has no future direct booking at Blue Heron');
    const rule = (await domain.messageRules.list(world.owner, {})).items.find(
      (candidate) => !candidate.paused,
    );
    if (rule === undefined) throw new Error('the demo has no active message rule');
    const before = {
      audit: await latestAuditId(world),
      listing: await domain.listings.get(world.owner, listing.id),
      reservation: await domain.reservations.get(world.owner, direct.id),
      calendar: await domain.calendar.get(world.owner, {
        listingId: listing.id,
        startDate: '2027-10-01',
        endDate: '2027-10-10',
      }),
      rules: await domain.messageRules.list(world.owner, { limit: 500 }),
      pricingRules: await domain.pricing.listRules(world.owner, { limit: 500 }),
      thread: await domain.messages.getThread(world.owner, { reservationId: direct.id, limit: 500 }),
    };

    const calls: [ToolDefinition | undefined, Record<string, unknown>][] = [
      [toolsByName.get('send_message'), { reservationId: direct.id, body: 'Hello from a viewer' }],
      [
        toolsByName.get('set_prices'),
        { listingId: listing.id, prices: [{ date: '2027-10-05', price: 999 }] },
      ],
      [
        toolsByName.get('set_availability'),
        { listingId: listing.id, startDate: '2027-10-01', endDate: '2027-10-03', available: false },
      ],
      [
        toolsByName.get('create_reservation'),
        {
          listingId: listing.id,
          startDate: '2027-10-06',
          endDate: '2027-10-09',
          guest: { firstName: 'Vera', lastName: 'Viewer' },
          adults: 2,
          guestPrice: 900,
        },
      ],
      [toolsByName.get('update_reservation'), { reservationId: direct.id, notes: 'changed by a viewer' }],
      [toolsByName.get('cancel_reservation'), { reservationId: direct.id }],
      [toolsByName.get('update_listing'), { listingId: listing.id, basePrice: 1 }],
      [
        toolsByName.get('create_message_rule'),
        { name: 'Viewer rule', trigger: 'check_out', body: 'Bye {{guest_first_name}}' },
      ],
      [toolsByName.get('pause_message_rule'), { ruleId: rule.id }],
      [
        toolsByName.get('create_pricing_rule'),
        { name: 'Viewer rule', adjustment: { kind: 'percent', amount: -50 } },
      ],
    ];
    expect(calls.map(([tool]) => tool?.name)).toEqual(expected.map((tool) => tool.name));
    for (const [tool, args] of calls) {
      if (tool === undefined) throw new Error('a write tool is missing');
      const error = errorOf(await world.call(tool, args, world.viewer));
      expect(error.code, tool.name).toBe('permission_denied');
      expect(error.message).toContain('Viewers');
    }

    expect(await latestAuditId(world)).toBe(before.audit);
    expect(await domain.listings.get(world.owner, listing.id)).toEqual(before.listing);
    expect(await domain.reservations.get(world.owner, direct.id)).toEqual(before.reservation);
    expect(
      await domain.calendar.get(world.owner, {
        listingId: listing.id,
        startDate: '2027-10-01',
        endDate: '2027-10-10',
      }),
    ).toEqual(before.calendar);
    expect(await domain.messageRules.list(world.owner, { limit: 500 })).toEqual(before.rules);
    expect(await domain.pricing.listRules(world.owner, { limit: 500 })).toEqual(before.pricingRules);
    expect(await domain.messages.getThread(world.owner, { reservationId: direct.id, limit: 500 })).toEqual(
      before.thread,
    );
  });
});
