/** What an input names when text it holds cannot be stored; the path joins keys and indexes with dots. */
export interface UnstorableText {
  /** `listingId`, `prices.0.note`, or `(input)` for the input itself. */
  readonly path: string;
  readonly message: string;
}

const nul = '\u0000';
const unstorableMessage = 'must not contain the NUL character (U+0000), which Innkeep cannot store';

/**
 * The first string in `value` (a value, or a key or value of its arrays and plain objects, at any depth)
 * that holds U+0000, or undefined when there is none. PostgreSQL's text and jsonb types cannot hold that
 * character: a query carrying one fails inside the driver, which would surface as an unexplained
 * `internal` error instead of a refusal naming the field.
 */
export function findUnstorableText(value: unknown): UnstorableText | undefined {
  const path = nulPath(value, []);
  if (path === undefined) return undefined;
  return { path: path.length === 0 ? '(input)' : path.join('.'), message: unstorableMessage };
}

function nulPath(value: unknown, path: readonly string[]): readonly string[] | undefined {
  if (typeof value === 'string') return value.includes(nul) ? path : undefined;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = nulPath(item, [...path, String(index)]);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (!isPlainObject(value)) return undefined;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes(nul)) return [...path, key];
    const found = nulPath(item, [...path, key]);
    if (found !== undefined) return found;
  }
  return undefined;
}

// Dates, buffers and class instances hold no text a caller typed; only JSON-shaped data is walked. Parsed
// query strings and forms (fast-querystring) are objects whose prototype has no prototype.
function isPlainObject(value: unknown): value is Readonly<Record<string, unknown>> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: object | null = Object.getPrototypeOf(value);
  return prototype === null || prototype === Object.prototype || Object.getPrototypeOf(prototype) === null;
}
