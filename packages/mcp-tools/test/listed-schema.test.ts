import { localDateSchema } from '@innkeep/domain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { listedInputSchema, listedOutputSchema, outputSchemaAllowance } from '../src/server/listed-schema.ts';

describe('listedInputSchema', () => {
  const input = z.object({
    listingId: z.string().min(1).max(64).describe('Listing id.'),
    startDate: localDateSchema.describe('First night.'),
    limit: z.number().int().min(1).max(100).default(20).describe('Page size.'),
    nights: z.number().int().describe('Any whole number.'),
    body: z.string().min(1).max(5000).describe('The message.'),
    phone: z.string().min(3).max(40).describe('A phone number.'),
    nickname: z.string().max(100).nullable().describe('Null clears it.'),
    price: z.number().min(0).max(10_000_000).describe('Per night.'),
    status: z.enum(['open', 'closed']).describe('Open takes bookings.'),
  });
  const listed = listedInputSchema(input);
  const fields = listed.properties as Record<string, Record<string, unknown>>;

  it('refuses unknown arguments at the root, and keeps what is required', () => {
    expect(listed).toMatchObject({ type: 'object', additionalProperties: false });
    expect(listed.required).toEqual([
      'listingId',
      'startDate',
      'nights',
      'body',
      'phone',
      'nickname',
      'price',
      'status',
    ]);
  });

  it('lists a date by its format, without the pattern zod writes for it', () => {
    expect(fields.startDate).toEqual({ type: 'string', format: 'date' });
  });

  it('leaves out the description of a field the server instructions explain for every tool', () => {
    expect(fields.startDate).not.toHaveProperty('description');
    expect(fields.listingId).toEqual({ type: 'string' });
    expect(fields.body?.description).toBe('The message.');
  });

  it('drops the safe-integer bounds and service limits, and keeps real bounds and defaults', () => {
    expect(fields.nights).toEqual({ type: 'integer', description: 'Any whole number.' });
    expect(fields.limit).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    expect(fields.price).toEqual({ type: 'number', minimum: 0, description: 'Per night.' });
  });

  it('drops length limits, and the minimum length of ids and codes', () => {
    expect(fields.phone).toEqual({ type: 'string', description: 'A phone number.' });
    expect(fields.body).toEqual({ type: 'string', description: 'The message.' });
  });

  it('lists an enum of strings without the type its values already say', () => {
    expect(fields.status).toEqual({ enum: ['open', 'closed'], description: 'Open takes bookings.' });
  });

  it('lists a nullable field as single-type anyOf branches, never a type array', () => {
    expect(fields.nickname).toEqual({
      description: 'Null clears it.',
      anyOf: [{ type: 'string' }, { type: 'null' }],
    });
    expect(JSON.stringify(listed)).not.toMatch(/"type":\[/);
  });
});

describe('listedOutputSchema', () => {
  it('lists a small output in full, structure only: no descriptions, bounds or patterns', () => {
    const output = z.object({
      id: z.string().min(1).max(64).describe('The id.'),
      day: localDateSchema,
      nights: z.number().int().min(0),
      status: z.enum(['open', 'closed']),
      note: z.string().nullable(),
    });
    expect(listedOutputSchema(output)).toEqual({
      type: 'object',
      properties: {
        id: { type: 'string' },
        day: { type: 'string', format: 'date' },
        nights: { type: 'integer' },
        status: { type: 'string', enum: ['open', 'closed'] },
        note: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      },
      required: ['id', 'day', 'nights', 'status', 'note'],
    });
  });

  it('lists a deep output down to the deepest level that fits, deeper objects as their bare type', () => {
    const kpi = z.object({
      value: z.number().nullable(),
      previous: z.object({ value: z.number().nullable(), change: z.number().nullable() }),
    });
    const output = z.object({ occupancy: kpi, items: z.array(kpi) });
    const listed = listedOutputSchema(output);
    expect(listed).toEqual({
      type: 'object',
      properties: {
        occupancy: {
          type: 'object',
          properties: {
            value: { anyOf: [{ type: 'number' }, { type: 'null' }] },
            previous: { type: 'object' },
          },
          required: ['value', 'previous'],
        },
        items: { type: 'array', items: { type: 'object' } },
      },
      required: ['occupancy', 'items'],
    });
    // One level more (the previous figures, the items' fields) would not fit.
    expect(JSON.stringify(listed).length).toBeLessThanOrEqual(outputSchemaAllowance);
  });

  it('names the fields of an output too big for its allowance, optional ones with their type', () => {
    const wide = Object.fromEntries(Array.from({ length: 30 }, (_, index) => [`field${index}`, z.string()]));
    const output = z.object({ ...wide, extra: z.number().optional() });
    expect(listedOutputSchema(output)).toEqual({
      type: 'object',
      properties: { extra: { type: 'number' } },
      required: Object.keys(wide),
    });
  });

  it('refuses a recursive schema, which the listing rules cannot follow', () => {
    const tree: z.ZodObject = z.object({ name: z.string(), children: z.array(z.lazy(() => tree)) });
    expect(() => listedOutputSchema(tree)).toThrow(/must be inline/);
  });
});
