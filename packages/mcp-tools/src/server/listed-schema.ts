import type { z } from 'zod';
import { type ObjectJsonSchema, objectJsonSchema } from './json-schema.ts';
import { fieldsExplainedByInstructions } from './server-instructions.ts';

type JsonSchema = Record<string, unknown>;

// The bounds zod writes for every z.number().int(): JavaScript's safe integers. They constrain nothing a
// model would send.
const safeIntegerBounds = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);
// A string of at most this many characters is an id, a code or a phone number: a value that exists or not,
// so its minimum length tells a model nothing either.
const maxOpaqueChars = 64;
// Upper bounds from here on guard the service (a price of ten million, an hour of text) rather than say
// anything a model would get near.
const minServiceBound = 1_000_000;
// Keywords that only annotate: a nullable type keeps them beside its `anyOf`, not inside a branch.
const annotationKeywords = new Set(['description', 'default', 'title', 'examples']);
// What an output schema lists: the keywords a client validates with and a model plans with. Bounds,
// patterns, defaults and descriptions are left out: the server produced the value, and the tool's
// description says what the result holds.
const outputKeywords = new Set([
  'type',
  'properties',
  'required',
  'items',
  'additionalProperties',
  'anyOf',
  'oneOf',
  'enum',
  'const',
  'format',
]);
/**
 * The most an output schema may take in tools/list, in characters of JSON, before it is listed with less
 * detail; the whole list must stay near 10,000 tokens (issue 16).
 */
export const outputSchemaAllowance = 300;

/**
 * A tool's input schema as tools/list shows it: the zod schema's JSON Schema (2020-12) without what tells a
 * model nothing, and with `additionalProperties: false` at the root, since the server refuses arguments a
 * tool does not take. The zod schema still validates every call, server-side, with clear errors.
 *
 * Left out: zod's `pattern` where a `format` (date, email) says the same; the ±2^53 bounds of every
 * integer and upper bounds of a million or more; `minLength: 1` and `minItems: 1`, which any value a model
 * means to send meets; string lengths and array sizes, which a model stays well within and the server names
 * when it does not; `type: 'string'` beside an `enum` of strings; the description of a field the server
 * instructions explain for every tool ({@link fieldsExplainedByInstructions}). A `type` array becomes an
 * `anyOf` of single-type branches, which clients that map schemas to a single-type dialect (Gemini's) need.
 */
export function listedInputSchema(input: z.ZodObject): ObjectJsonSchema {
  const schema = compact(inlineJsonSchema(input), { side: 'input', depth: 0, fullDepth: Infinity });
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  return {
    ...schema,
    ...(properties === undefined ? {} : { properties: withoutExplainedDescriptions(properties) }),
    type: 'object',
    additionalProperties: false,
  };
}

/** `properties` with the descriptions of the fields the instructions explain (and of their items) left out. */
function withoutExplainedDescriptions(properties: Record<string, JsonSchema>): Record<string, JsonSchema> {
  return Object.fromEntries(
    Object.entries(properties).map(([name, field]) => {
      if (!fieldsExplainedByInstructions.has(name)) return [name, field];
      const { description: _explained, ...rest } = field;
      if (!isSchema(rest.items)) return [name, rest];
      const { description: _item, ...items } = rest.items;
      return [name, { ...rest, items }];
    }),
  );
}

/**
 * A tool's output schema as tools/list shows it: enough for a client to validate `structuredContent` and for
 * a model to see what comes back, within {@link outputSchemaAllowance} characters.
 *
 * It lists structure only (`type`, `properties`, `required`, `items`, `additionalProperties`, `anyOf`,
 * `oneOf`, `enum`, `const`, `format`), as deep as fits the allowance: all of it when it fits, else the
 * fields and theirs down to the deepest level that fits, each object or array below that level as its bare
 * type. When not even the top-level fields with their types fit, it names them: the required ones in
 * `required`, the optional ones (which `required` cannot name) as typed properties. No description is listed:
 * field names say what they hold, and the tool's description says what the result means.
 */
export function listedOutputSchema(output: z.ZodObject): ObjectJsonSchema {
  const root = inlineJsonSchema(output);
  let listed = namesOnly(root);
  for (let fullDepth = 0; fullDepth <= maxDepthOf(root); fullDepth += 1) {
    const detailed = compact(root, { side: 'output', depth: 0, fullDepth });
    if (JSON.stringify(detailed).length > outputSchemaAllowance) break;
    listed = detailed;
  }
  return { ...listed, type: 'object' };
}

/** The zod schema's JSON Schema, refused when it refers to itself or to `$defs`: the rules walk a tree. */
function inlineJsonSchema(schema: z.ZodObject): JsonSchema {
  const json = objectJsonSchema(schema);
  if (JSON.stringify(json).includes('"$ref":')) {
    throw new Error('A tool schema must be inline: a registered or recursive zod schema cannot be listed.');
  }
  return json;
}

/** Where a subschema sits, and how much of the tree is listed in full. */
interface Place {
  readonly side: 'input' | 'output';
  /** Levels below the root: 1 for a field of the root object or an item of a root-level array. */
  readonly depth: number;
  /** Below this depth an object or array is listed as its bare type. */
  readonly fullDepth: number;
}

function compact(node: JsonSchema, place: Place): JsonSchema {
  if (Array.isArray(node.type)) return compact(splitTypeArray(node), place);
  if (place.depth > place.fullDepth) return bareType(node);
  const listed: JsonSchema = {};
  for (const [keyword, value] of Object.entries(node)) {
    if (lists(node, keyword, place.side)) listed[keyword] = compactKeyword(keyword, value, place);
  }
  return listed;
}

function lists(node: JsonSchema, keyword: string, side: Place['side']): boolean {
  if (side === 'output') return outputKeywords.has(keyword);
  const value = node[keyword];
  switch (keyword) {
    case 'pattern':
      return node.format === undefined;
    case 'minimum':
      return !safeIntegerBounds.has(value as number);
    case 'maximum':
      return !safeIntegerBounds.has(value as number) && (value as number) < minServiceBound;
    case 'minLength':
      return value !== 1 && (typeof node.maxLength !== 'number' || node.maxLength > maxOpaqueChars);
    case 'minItems':
      return value !== 1;
    case 'maxLength':
    case 'maxItems':
      return false;
    case 'type':
      return !(value === 'string' && Array.isArray(node.enum));
    default:
      return true;
  }
}

function compactKeyword(keyword: string, value: unknown, place: Place): unknown {
  const nested = { ...place, depth: place.depth + 1 };
  switch (keyword) {
    case 'properties':
      return Object.fromEntries(
        Object.entries(value as Record<string, JsonSchema>).map(([name, field]) => [
          name,
          compact(field, nested),
        ]),
      );
    case 'items':
    case 'additionalProperties':
    case 'propertyNames':
      return isSchema(value) ? compact(value, nested) : value;
    case 'anyOf':
    case 'oneOf':
      return (value as JsonSchema[]).map((branch) => compact(branch, place));
    default:
      return value;
  }
}

/** `{type: [T, 'null'], …}` as `{anyOf: [{type: T, …}, {type: 'null'}]}`, with annotations outside. */
function splitTypeArray(node: JsonSchema): JsonSchema {
  const outside: JsonSchema = {};
  const inside: JsonSchema = {};
  for (const [keyword, value] of Object.entries(node)) {
    if (keyword !== 'type') (annotationKeywords.has(keyword) ? outside : inside)[keyword] = value;
  }
  const types = node.type as string[];
  return { ...outside, anyOf: types.map((type) => (type === 'null' ? { type } : { type, ...inside })) };
}

/** A schema reduced to its type: an object or array without its contents, a nullable one as `anyOf`. */
function bareType(node: JsonSchema): JsonSchema {
  const branches = node.anyOf ?? node.oneOf;
  if (Array.isArray(branches)) {
    const bare = new Map<string, JsonSchema>();
    for (const branch of branches as JsonSchema[]) {
      const type = bareType(branch);
      bare.set(JSON.stringify(type), type);
    }
    return bare.size === 1 ? ([...bare.values()][0] as JsonSchema) : { anyOf: [...bare.values()] };
  }
  if (node.type !== undefined) return { type: node.type };
  throw new Error(`A tool output holds a schema with no type: ${JSON.stringify(node)}.`);
}

/** The top-level fields by name: the required ones in `required`, the optional ones as typed properties. */
function namesOnly(root: JsonSchema): JsonSchema {
  const required = (root.required ?? []) as string[];
  const optional = Object.entries((root.properties ?? {}) as Record<string, JsonSchema>).filter(
    ([name]) => !required.includes(name),
  );
  return {
    ...(optional.length === 0
      ? {}
      : { properties: Object.fromEntries(optional.map(([name, field]) => [name, bareType(field)])) }),
    required,
  };
}

/** How many levels of properties and items the schema has below its root. */
function maxDepthOf(node: JsonSchema): number {
  let deepest = 0;
  const visit = (child: unknown, depth: number) => {
    if (!isSchema(child)) return;
    deepest = Math.max(deepest, depth);
    for (const field of Object.values((child.properties ?? {}) as JsonSchema)) visit(field, depth + 1);
    visit(child.items, depth + 1);
    visit(child.additionalProperties, depth + 1);
    for (const branch of [...((child.anyOf ?? []) as unknown[]), ...((child.oneOf ?? []) as unknown[])]) {
      visit(branch, depth);
    }
  };
  visit(node, 0);
  return deepest;
}

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
