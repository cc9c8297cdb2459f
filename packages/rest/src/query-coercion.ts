import type { z } from 'zod';

/** The JSON type a query value should become, read from the operation's input field. */
type QueryValueType = 'number' | 'boolean' | 'string' | { readonly arrayOf: QueryValueType };

/**
 * The query string as the operation's input expects it: numbers and booleans where its fields are numbers
 * and booleans, arrays from repeated or comma-separated values. Query strings carry only text, and the
 * operation's schema (shared with MCP, where arguments are JSON) is deliberately not coercing; a value that
 * does not convert is passed on as sent, so the schema names it in its `invalid_argument` answer.
 */
export function coerceQuery(
  schema: z.ZodObject,
  query: Readonly<Record<string, string | string[] | undefined>>,
): Record<string, unknown> {
  return queryCoercion(schema)(query);
}

/**
 * {@link coerceQuery} for one schema, with the type of each of its fields read once: a route builds it when
 * it is registered rather than walking the schema's wrappers on every request.
 */
export function queryCoercion(
  schema: z.ZodObject,
): (query: Readonly<Record<string, string | string[] | undefined>>) => Record<string, unknown> {
  const fieldTypes = new Map<string, QueryValueType>(
    Object.entries(schema.shape).map(([name, field]) => [name, valueType(field as z.ZodType)]),
  );
  return (query) => {
    const coerced: Record<string, unknown> = {};
    for (const [name, raw] of Object.entries(query)) {
      if (raw === undefined) continue;
      coerced[name] = coerceValue(fieldTypes.get(name) ?? 'string', raw);
    }
    return coerced;
  };
}

function coerceValue(type: QueryValueType, raw: string | string[]): unknown {
  if (typeof type === 'object') {
    return (Array.isArray(raw) ? raw : [raw])
      .flatMap((part) => part.split(','))
      .filter((part) => part !== '')
      .map((part) => coerceValue(type.arrayOf, part));
  }
  const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
  if (value === undefined) return undefined;
  if (type === 'number') {
    const number = Number(value);
    return value.trim() !== '' && Number.isFinite(number) ? number : value;
  }
  if (type === 'boolean') {
    if (value === 'true') return true;
    if (value === 'false') return false;
    return value;
  }
  return value;
}

/** Looks through optional, nullable, default and pipe wrappers to the type a field finally accepts. */
function valueType(schema: z.ZodType): QueryValueType {
  let current: z.ZodType = schema;
  for (;;) {
    const def = current._zod.def as {
      type: string;
      innerType?: z.ZodType;
      in?: z.ZodType;
      element?: z.ZodType;
      values?: readonly unknown[];
      options?: readonly z.ZodType[];
    };
    if (def.innerType !== undefined) {
      current = def.innerType;
    } else if (def.type === 'pipe' && def.in !== undefined) {
      current = def.in;
    } else if (def.type === 'number' || def.type === 'int') {
      return 'number';
    } else if (def.type === 'boolean') {
      return 'boolean';
    } else if (def.type === 'array' && def.element !== undefined) {
      return { arrayOf: valueType(def.element) };
    } else if (def.type === 'literal' && def.values !== undefined) {
      return sameType(def.values.map(literalType));
    } else if (def.type === 'union' && def.options !== undefined) {
      return sameType(def.options.map(valueType));
    } else {
      return 'string';
    }
  }
}

/** The type of a literal value (`z.literal(7)` takes the number 7). */
function literalType(value: unknown): QueryValueType {
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  return 'string';
}

/** The one type all of `types` are, else text: a union of numbers takes a number, a mixed one is left as sent. */
function sameType(types: readonly QueryValueType[]): QueryValueType {
  const [first] = types;
  return first !== undefined && typeof first === 'string' && types.every((type) => type === first)
    ? first
    : 'string';
}
