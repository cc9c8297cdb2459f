import type { JsonSchema } from './json-schemas.ts';

/**
 * Which properties an example object fills: every one, only those the schema requires, or those plus one
 * more at the top (for inputs that must name at least one optional field and refuse some pairs of them).
 */
export type ExampleFields = 'all' | 'required' | { readonly requiredAnd: string };

/** How an example reads `$ref`s: the document's component of that address. */
export type SchemaResolver = (ref: string) => JsonSchema | undefined;

/** An address for fields named `…url`, which carry no format of their own: example.com is for examples. */
const exampleUrl = 'https://example.com/innkeep';

/** The first stay date examples use; each further date field is a few days later, so ranges are ordered. */
const firstExampleDay = Date.UTC(2026, 6, 1);
const daysBetweenExampleDates = 3;
const msPerDay = 86_400_000;

/** What follows the prefix of an example id (`lst_` + this): 16 characters of Innkeep's id alphabet. */
const exampleIdBody = 'x7k2m9p4q8r3t6v1';

/** Deepest nesting an example follows; past it the schema is recursive and the example stops. */
const maxExampleDepth = 8;

/** Where in the example a value goes: how deep, under which property name, filling which fields. */
interface ExamplePlace {
  readonly depth: number;
  readonly fields: ExampleFields;
  readonly name?: string;
}

/**
 * Writes example values for the reference page: the schema's own example, default, constant or first
 * choice where it has one; for ids, currencies and time zones the value its description gives after
 * "e.g."; dates a few days apart, in the order they are written, so that one writer filling a request
 * gives its ranges in order; the smallest number allowed. The caller checks the result against the zod
 * schema before publishing it, because refinements (a value other than 0, one of two fields) are not in
 * the JSON.
 */
export class ExampleWriter {
  private datesGiven = 0;
  private readonly resolve: SchemaResolver;

  /** @param resolve - reads the `$ref`s of the schemas it is given. */
  constructor(resolve: SchemaResolver) {
    this.resolve = resolve;
  }

  /** A value that fits `schema`, filling `fields`; undefined when some required part has no such value. */
  example(schema: JsonSchema, fields: ExampleFields): unknown | undefined {
    return this.valueOf(schema, { depth: 0, fields });
  }

  private valueOf(schema: JsonSchema, place: ExamplePlace): unknown | undefined {
    if (place.depth > maxExampleDepth) return undefined;
    // A reference or a choice stands for the schema it leads to, in the same place.
    const same = { ...place, depth: place.depth + 1 };
    if (typeof schema.$ref === 'string') {
      const target = this.resolve(schema.$ref);
      return target === undefined ? undefined : this.valueOf(target, same);
    }
    if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
    if ('const' in schema) return schema.const;
    if ('default' in schema) return schema.default;
    if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
    const choices = (schema.anyOf ?? schema.oneOf ?? schema.allOf) as JsonSchema[] | undefined;
    if (Array.isArray(choices)) {
      const choice = choices.find((option) => option.type !== 'null') ?? choices[0];
      return choice === undefined ? undefined : this.valueOf(choice, same);
    }
    switch (typeOf(schema)) {
      case 'string':
        return this.stringFor(schema, place.name);
      case 'number':
      case 'integer':
        return numberFor(schema);
      case 'boolean':
        return true;
      case 'null':
        return null;
      case 'array':
        return this.arrayFor(schema, place);
      case 'object':
        return this.objectFor(schema, place);
      default:
        return undefined;
    }
  }

  private stringFor(schema: JsonSchema, name: string | undefined): string {
    switch (schema.format) {
      case 'date':
        return this.nextDate();
      case 'date-time':
        return `${this.nextDate()}T15:00:00Z`;
      case 'time':
        return '15:00:00';
      case 'email':
        return 'guest@example.com';
      case 'uri':
      case 'url':
        return exampleUrl;
      case 'uuid':
        return '5f0c6f2e-8a3b-4c1d-9e7f-2b6a4d8c0e13';
      default:
        break;
    }
    if (name !== undefined && /url$/i.test(name)) return exampleUrl;
    const hint = describedExample(schema);
    if (hint !== undefined) return hint.endsWith('…') ? `${hint.slice(0, -1)}${exampleIdBody}` : hint;
    const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
    return 'example'.padEnd(minLength, 'x');
  }

  private nextDate(): string {
    const day = firstExampleDay + this.datesGiven * daysBetweenExampleDates * msPerDay;
    this.datesGiven += 1;
    return new Date(day).toISOString().slice(0, 10);
  }

  private arrayFor(schema: JsonSchema, place: ExamplePlace): unknown[] | undefined {
    const inside = { depth: place.depth + 1, fields: nestedFields(place.fields) };
    if (Array.isArray(schema.prefixItems)) {
      const values = (schema.prefixItems as JsonSchema[]).map((item) => this.valueOf(item, inside));
      return values.includes(undefined) ? undefined : values;
    }
    const items = schema.items as JsonSchema | undefined;
    if (items === undefined) return [];
    const item = this.valueOf(items, inside);
    if (item !== undefined) return [item];
    return typeof schema.minItems === 'number' && schema.minItems > 0 ? undefined : [];
  }

  private objectFor(schema: JsonSchema, place: ExamplePlace): Record<string, unknown> | undefined {
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((schema.required ?? []) as string[]);
    const { fields } = place;
    const value: Record<string, unknown> = {};
    for (const [name, property] of Object.entries(properties)) {
      const wanted =
        fields === 'all' || required.has(name) || (typeof fields === 'object' && fields.requiredAnd === name);
      if (!wanted) continue;
      const inside = { depth: place.depth + 1, fields: nestedFields(fields), name };
      const propertyValue = this.valueOf(property, inside);
      if (propertyValue !== undefined) value[name] = propertyValue;
      else if (required.has(name)) return undefined;
    }
    return value;
  }
}

/** What objects inside the top one fill: the extra field of `requiredAnd` names a top-level one. */
function nestedFields(fields: ExampleFields): ExampleFields {
  return typeof fields === 'object' ? 'all' : fields;
}

/** The schema's type, the first that is not `null` when it allows several. */
function typeOf(schema: JsonSchema): string | undefined {
  const type = schema.type;
  if (Array.isArray(type)) return (type as string[]).find((name) => name !== 'null') ?? 'null';
  if (typeof type === 'string') return type;
  return schema.properties === undefined ? undefined : 'object';
}

/** The number the description gives after "e.g.", else the smallest the bounds allow (1 when unbounded). */
function numberFor(schema: JsonSchema): number {
  const hinted = Number(describedExample(schema));
  if (Number.isFinite(hinted)) return hinted;
  const step = schema.type === 'integer' ? 1 : 0.5;
  let value = 1;
  if (typeof schema.minimum === 'number' && value < schema.minimum) value = schema.minimum;
  if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum) {
    value = schema.exclusiveMinimum + step;
  }
  if (typeof schema.maximum === 'number' && value > schema.maximum) value = schema.maximum;
  return value;
}

/** The word after "e.g." in the schema's description (`Listing id, e.g. lst_…` → `lst_…`). */
function describedExample(schema: JsonSchema): string | undefined {
  if (typeof schema.description !== 'string') return undefined;
  const word = /\be\.g\. (\S+)/.exec(schema.description)?.[1];
  // Sentence punctuation after the word is not part of it; the ellipsis of an id prefix is.
  return word?.replace(/[.,;:)]+$/, '') || undefined;
}
