import { allScopes } from '@innkeep/domain';

/** The OpenID scopes oidc-provider knows itself; everything else is a resource scope of `/mcp`. */
export const openIdScopes: readonly string[] = ['openid', 'offline_access'];

/** The MCP endpoint, which is also the audience of every access token: `${baseUrl}/mcp`. */
export function mcpResourceUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/mcp`;
}

/**
 * The canonical form of a resource indicator (RFC 8707, MCP "canonical server URI"): lower-case scheme
 * and host, no default port, no trailing slash after a path. Clients disagree on `…/mcp` vs `…/mcp/`,
 * and oidc-provider compares resources as strings, so both ends of the flow canonicalise. A value that is
 * not an absolute URL is returned unchanged for the provider to reject.
 */
export function canonicalResource(value: string): string {
  const url = URL.parse(value);
  if (url === null) return value;
  if (url.pathname.length > 1) url.pathname = url.pathname.replace(/\/+$/, '');
  const href = url.href;
  // URL keeps "https://host/" for an empty path; the canonical form has no slash there either.
  return url.pathname === '/' && url.search === '' && url.hash === '' ? href.slice(0, -1) : href;
}

/**
 * The scope an authorization request should carry: the request's own, or every Innkeep scope when it
 * names none of them. MCP clients often send no scope, or only `openid`/`offline_access`; they still want
 * the tool server, and the consent page lets the person untick what they do not want to give.
 */
export function authorizationScope(requested: string | null): string {
  const names = (requested ?? '').split(' ').filter((name) => name.length > 0);
  if (names.some((name) => !openIdScopes.includes(name))) return names.join(' ');
  return [...names, ...allScopes].join(' ');
}
