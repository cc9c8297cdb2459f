import { z } from 'zod';

/** A JSON Schema (draft 2020-12, OpenAPI 3.1's dialect) as the document holds it. */
export type JsonSchema = { [keyword: string]: unknown };

/** Whether a schema describes what a client sends (`input`: defaults optional) or what it receives. */
export type SchemaDirection = 'input' | 'output';

/** Where the document keeps named schemas. */
export const schemaComponentsPath = '#/components/schemas/';

/** A schema's JSON Schema plus the definitions it refers to, with every `$ref` pointing into the document. */
export interface ConvertedSchema {
  readonly schema: JsonSchema;
  /** Named definitions to add to `components.schemas` (cycles, schemas with an `id`). */
  readonly definitions: Readonly<Record<string, JsonSchema>>;
}

/** Several schemas converted together, by component name, plus the definitions they refer to. */
export interface ConvertedSchemas {
  readonly schemas: Readonly<Record<string, JsonSchema>>;
  /** Named definitions to add to `components.schemas` (cycles). */
  readonly definitions: Readonly<Record<string, JsonSchema>>;
}

/** The settings every conversion shares: JSON Schema 2020-12, and anything zod cannot express left open. */
function conversionSettings(direction: SchemaDirection) {
  return { target: 'draft-2020-12', io: direction, unrepresentable: 'any' } as const;
}

/**
 * Converts each schema of `named` (by its component name) in one pass, so that a schema that also appears
 * inside another becomes a `$ref` to its own component instead of a second copy. Definitions zod extracts
 * on its own (cycles) are returned as `<sharedPrefix>_<name>`.
 */
export function convertNamedSchemas(
  named: ReadonlyMap<string, z.ZodType>,
  direction: SchemaDirection,
  sharedPrefix: string,
): ConvertedSchemas {
  const registry = z.registry<{ id: string }>();
  for (const [name, schema] of named) registry.add(schema, { id: name });
  const sharedUri = 'shared:';
  const converted = z.toJSONSchema(registry, {
    ...conversionSettings(direction),
    // zod refers to what it extracts itself as `<uri of "__shared">#/$defs/<name>`.
    uri: (id) => (id === '__shared' ? sharedUri : `${schemaComponentsPath}${id}`),
  }).schemas as Record<string, JsonSchema>;
  const sharedRef = `${sharedUri}#/$defs/`;
  const rewrite = (ref: string) =>
    ref.startsWith(sharedRef)
      ? `${schemaComponentsPath}${definitionName(sharedPrefix, ref.slice(sharedRef.length))}`
      : ref;
  const { __shared: shared, ...own } = converted;
  const schemas: Record<string, JsonSchema> = {};
  for (const [name, schema] of Object.entries(own)) schemas[name] = withRefs(withoutDialect(schema), rewrite);
  const definitions: Record<string, JsonSchema> = {};
  const sharedDefinitions = (shared?.$defs ?? {}) as Record<string, JsonSchema>;
  for (const [name, schema] of Object.entries(sharedDefinitions)) {
    definitions[definitionName(sharedPrefix, name)] = withRefs(schema, rewrite);
  }
  return { schemas, definitions };
}

/**
 * Converts one schema on its own. Its own definitions (cycles inside it) are returned as
 * `<prefix>_<name>`; a schema that contains itself refers to itself at `rootRef`, the component it will be.
 *
 * @throws Error for a schema that contains itself when no `rootRef` is given (one used inline).
 */
export function convertSchema(
  schema: z.ZodType,
  direction: SchemaDirection,
  prefix: string,
  rootRef?: string,
): ConvertedSchema {
  const converted = withoutDialect(z.toJSONSchema(schema, conversionSettings(direction)) as JsonSchema);
  const { $defs: own, ...root } = converted;
  const rewrite = (ref: string) => {
    if (ref.startsWith('#/$defs/')) {
      return `${schemaComponentsPath}${definitionName(prefix, ref.slice('#/$defs/'.length))}`;
    }
    if (ref !== '#') return ref;
    // Only a schema that contains itself refers to its root; an inline one has no address to point at.
    if (rootRef === undefined) throw new Error(`${prefix}: a schema that contains itself cannot be inline`);
    return rootRef;
  };
  const definitions: Record<string, JsonSchema> = {};
  for (const [name, definition] of Object.entries((own ?? {}) as Record<string, JsonSchema>)) {
    definitions[definitionName(prefix, name)] = withRefs(definition, rewrite);
  }
  return { schema: withRefs(root, rewrite), definitions };
}

/** The component name of a definition zod extracted (`schema0`, `__schema0`), after whose it is. */
function definitionName(prefix: string, name: string): string {
  return `${prefix}_${name.replace(/^_+/, '')}`;
}

/**
 * The schema without `$schema` and `$id`: the document declares the dialect once for all of them, and a
 * component is addressed by where it sits (zod's registry would set `$id` to that address, which JSON
 * Schema forbids: an `$id` carries no fragment).
 */
function withoutDialect(schema: JsonSchema): JsonSchema {
  const { $schema: _dialect, $id: _address, ...rest } = schema;
  return rest;
}

/** A deep copy of `value` with every `$ref` passed through `rewrite`. */
function withRefs<T>(value: T, rewrite: (ref: string) => string): T {
  if (Array.isArray(value)) return value.map((item) => withRefs(item, rewrite)) as T;
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    copy[key] = key === '$ref' && typeof item === 'string' ? rewrite(item) : withRefs(item, rewrite);
  }
  return copy as T;
}
