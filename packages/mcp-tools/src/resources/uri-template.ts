/** A compiled RFC 6570 level-1 URI template: the variable names, and a matcher for concrete URIs. */
export interface UriTemplateMatcher {
  readonly template: string;
  readonly variables: readonly string[];
  /** The decoded variables when `uri` is an expansion of the template; null otherwise. */
  match(uri: string): Record<string, string> | null;
}

const variablePattern = /\{([A-Za-z0-9_]+)\}/g;

/**
 * Compiles a level-1 template (`{name}` simple string expansion only). A level-1 expansion percent-encodes
 * every reserved character, so a variable never spans `/`, `?` or `#`; an empty value is not accepted
 * because no Innkeep id or date is empty.
 */
export function compileUriTemplate(template: string): UriTemplateMatcher {
  const variables: string[] = [];
  let pattern = '^';
  let last = 0;
  for (const found of template.matchAll(variablePattern)) {
    pattern += `${escapeRegExp(template.slice(last, found.index))}([^/?#]+)`;
    variables.push(found[1] ?? '');
    last = found.index + found[0].length;
  }
  pattern += `${escapeRegExp(template.slice(last))}$`;
  const regExp = new RegExp(pattern);
  return {
    template,
    variables,
    match(uri) {
      const found = regExp.exec(normalizeUri(uri));
      if (found === null) return null;
      const values: Record<string, string> = {};
      for (const [index, name] of variables.entries()) {
        const decoded = decodeComponent(found[index + 1] ?? '');
        if (decoded === null) return null;
        values[name] = decoded;
      }
      return values;
    },
  };
}

/**
 * Lower-cases the scheme and authority, which RFC 3986 makes case-insensitive, so `SERVICE://User` names
 * the same resource as `service://user`. The path stays as sent: ids are case-sensitive.
 */
export function normalizeUri(uri: string): string {
  const found = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*)(.*)$/s.exec(uri);
  if (found === null) return uri;
  return (found[1] ?? '').toLowerCase() + (found[2] ?? '');
}

function decodeComponent(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    // Malformed percent-encoding names nothing.
    return null;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
