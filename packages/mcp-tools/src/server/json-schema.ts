import { z } from 'zod';

/** A JSON Schema object whose root describes an object, as MCP requires of tool input and output schemas. */
export type ObjectJsonSchema = { type: 'object' } & Record<string, unknown>;

/**
 * The JSON Schema of a zod object schema, as a client sees the data on the wire: `io: 'input'` (defaults
 * make a field optional; tool outputs are sent as the handler produced them, before any parsing). The
 * `$schema` key is left out, so MCP's default dialect, JSON Schema 2020-12, applies: it is what zod emits.
 *
 * @throws when the schema holds something JSON Schema cannot express (a transform, a date), so a tool
 *   declared that way fails at start, in tests, rather than listing a wrong schema.
 */
export function objectJsonSchema(schema: z.ZodObject): ObjectJsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: 'input' });
  return { ...rest, type: 'object' };
}
