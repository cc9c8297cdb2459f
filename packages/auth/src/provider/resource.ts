import { allScopes, type Scope } from '@innkeep/domain';

/** The OpenID scopes oidc-provider knows itself; everything else is a resource scope of `/mcp` and `/api`. */
export const openIdScopes: readonly string[] = ['openid', 'offline_access'];

/** The protected resources Innkeep serves under BASE_URL: the MCP endpoint and the REST API. */
export type ResourceName = 'mcp' | 'api';

/** Every {@link ResourceName}, in the order the authorization server names them. */
export const resourceNames: readonly ResourceName[] = ['mcp', 'api'];

/**
 * The scopes each resource's operations use, in catalogue order: what its protected resource metadata lists
 * as `scopes_supported`, and all that consent offers and tokens carry for it.
 */
export type ResourceScopes = Readonly<Record<ResourceName, readonly Scope[]>>;

/**
 * {@link ResourceScopes} from what the app that composes the resources says each uses (any order, repeats
 * allowed); a resource it says nothing about uses every scope.
 */
export function resourceScopesOf(used: Partial<Record<ResourceName, Iterable<Scope>>> = {}): ResourceScopes {
  const scopesOf = (name: ResourceName) => {
    const given = used[name];
    if (given === undefined) return allScopes;
    const names = new Set(given);
    return allScopes.filter((scope) => names.has(scope));
  };
  return { mcp: scopesOf('mcp'), api: scopesOf('api') };
}

/**
 * The scopes a token bound to `audience` may carry: those the resource it names uses, or for `baseUrl`
 * itself (valid on every resource) those any resource uses; undefined for an audience Innkeep does not serve.
 */
export function scopesUsedAt(
  baseUrl: string,
  audience: string,
  resourceScopes: ResourceScopes,
): readonly Scope[] | undefined {
  const served = resourceNames.filter(
    (name) => audience === resourceUrl(baseUrl, name) || audience === baseUrl.replace(/\/+$/, ''),
  );
  if (served.length === 0) return undefined;
  const used = new Set(served.flatMap((name) => resourceScopes[name]));
  return allScopes.filter((scope) => used.has(scope));
}

/** The resource indicator, and token audience, of the resource `name`: `${baseUrl}/<name>`. */
export function resourceUrl(baseUrl: string, name: ResourceName): string {
  return `${baseUrl.replace(/\/+$/, '')}/${name}`;
}

/** The MCP endpoint's resource indicator and token audience: `${baseUrl}/mcp`. */
export function mcpResourceUrl(baseUrl: string): string {
  return resourceUrl(baseUrl, 'mcp');
}

/**
 * The audiences a resource server accepts for `resource` (`{base}/<name>`): tokens bound to it, and tokens
 * bound to `{base}` itself, which is what a client gets that asked with no resource indicator (PRODUCT.md:
 * such a token works on `/mcp` and on `/api`). One marker rather than an audience array, because
 * oidc-provider gives a token one audience, and so the verifier compares one string.
 */
export function acceptedAudiences(resource: string): readonly string[] {
  return [resource, resource.replace(/\/[^/]*$/, '')];
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
