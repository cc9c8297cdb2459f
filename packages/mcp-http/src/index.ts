// The public surface of @innkeep/mcp-http: the /mcp route (Streamable HTTP), guarded by @innkeep/auth's
// resource server, which also serves its protected resource metadata.

export type { McpRouteOptions } from './mcp-route.ts';
export { mcpRoute, mcpRouteScopes } from './mcp-route.ts';
export type { McpServiceOptions } from './mcp-service.ts';
export { mcpService } from './mcp-service.ts';
export type { OriginPolicy } from './origin.ts';
export { createOriginPolicy } from './origin.ts';
