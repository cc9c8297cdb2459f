import { allScopes } from '@innkeep/domain';
import { mcpResourceUrl } from './resource.ts';

/** The OAuth Protected Resource Metadata document (RFC 9728) of the tool server. */
export interface ProtectedResourceMetadata {
  readonly resource: string;
  readonly authorization_servers: readonly string[];
  readonly scopes_supported: readonly string[];
  readonly bearer_methods_supported: readonly string[];
  readonly resource_name: string;
}

/** The path-inserted metadata URL for `/mcp`, which `/mcp` names in its `WWW-Authenticate` challenges. */
export function protectedResourceMetadataUrl(baseUrl: string): string {
  const base = new URL(baseUrl.replace(/\/+$/, ''));
  const path = base.pathname.replace(/\/+$/, '');
  return `${base.origin}/.well-known/oauth-protected-resource${path}/mcp`;
}

/**
 * What an MCP client reads first: `/mcp` is protected by the authorization server at BASE_URL, with
 * these scopes, and takes tokens only in the Authorization header.
 */
export function protectedResourceMetadata(baseUrl: string): ProtectedResourceMetadata {
  return {
    resource: mcpResourceUrl(baseUrl),
    authorization_servers: [baseUrl.replace(/\/+$/, '')],
    scopes_supported: [...allScopes],
    bearer_methods_supported: ['header'],
    resource_name: 'Innkeep',
  };
}
