import { allScopes, type Scope } from '@innkeep/domain';
import { type ResourceName, resourceUrl } from './resource.ts';

/** The OAuth Protected Resource Metadata document (RFC 9728) of one resource server. */
export interface ProtectedResourceMetadata {
  readonly resource: string;
  readonly authorization_servers: readonly string[];
  readonly scopes_supported: readonly string[];
  readonly bearer_methods_supported: readonly string[];
  readonly resource_name: string;
}

/**
 * The path-inserted metadata URL of the resource `name` (RFC 9728 §3.1), which that resource names in its
 * `WWW-Authenticate` challenges: `{origin}/.well-known/oauth-protected-resource{basePath}/<name>`.
 */
export function protectedResourceMetadataUrl(baseUrl: string, name: ResourceName = 'mcp'): string {
  const base = new URL(baseUrl.replace(/\/+$/, ''));
  const path = base.pathname.replace(/\/+$/, '');
  return `${base.origin}/.well-known/oauth-protected-resource${path}/${name}`;
}

/**
 * What a client reads first: the resource `name` is protected by the authorization server at
 * `authorizationServer` (BASE_URL unless given), takes tokens only in the Authorization header, and uses
 * `scopes` (default every Innkeep scope; never `offline_access`, which is the authorization server's).
 */
export function protectedResourceMetadata(
  baseUrl: string,
  name: ResourceName = 'mcp',
  scopes: readonly Scope[] = allScopes,
  authorizationServer: string = baseUrl,
): ProtectedResourceMetadata {
  return {
    resource: resourceUrl(baseUrl, name),
    authorization_servers: [authorizationServer.replace(/\/+$/, '')],
    scopes_supported: [...scopes],
    bearer_methods_supported: ['header'],
    resource_name: 'Innkeep',
  };
}
