import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { coerceQuery } from '../src/query-coercion.ts';

const schema = z.object({
  limit: z.number().int().min(1).default(50),
  enabled: z.boolean().optional(),
  statuses: z.array(z.enum(['accepted', 'cancelled'])).optional(),
  pickupDays: z.array(z.union([z.literal(1), z.literal(7), z.literal(30)])).optional(),
  window: z.literal([7, 30]).optional(),
  query: z.string().optional(),
});

describe('coerceQuery', () => {
  it('turns query text into the types of the operation’s fields', () => {
    expect(
      coerceQuery(schema, {
        limit: '20',
        enabled: 'false',
        statuses: 'accepted,cancelled',
        pickupDays: ['1', '7,30'],
        window: '30',
        query: '42',
      }),
    ).toEqual({
      limit: 20,
      enabled: false,
      statuses: ['accepted', 'cancelled'],
      pickupDays: [1, 7, 30],
      window: 30,
      query: '42',
    });
  });

  it('passes values that do not convert on as sent, for the schema to name', () => {
    const coerced = coerceQuery(schema, { limit: 'many', enabled: 'yes', pickupDays: '7,soon' });
    expect(coerced).toEqual({ limit: 'many', enabled: 'yes', pickupDays: [7, 'soon'] });
    expect(schema.safeParse(coerced).success).toBe(false);
  });

  it('keeps fields the operation does not know as text, and takes the last of repeated single values', () => {
    expect(coerceQuery(schema, { other: '1', limit: ['5', '6'] })).toEqual({ other: '1', limit: 6 });
  });
});
