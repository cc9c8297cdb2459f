// The public surface of @innkeep/mcp-http: the /mcp route and, for a process serving /mcp alone, the
// protected resource metadata that tells clients where to get tokens for it.

export { bearerChallenge, bearerToken, rateLimitKey } from './bearer.ts';
export type { McpRouteOptions } from './mcp-route.ts';
export { defaultMcpRateLimit, mcpRoute } from './mcp-route.ts';
export type { McpServiceOptions } from './mcp-service.ts';
export { mcpService } from './mcp-service.ts';
export type { OriginPolicy } from './origin.ts';
export { createOriginPolicy } from './origin.ts';
export type { McpProtectedResourceMetadataOptions } from './protected-resource-metadata.ts';
export { mcpProtectedResourceMetadata } from './protected-resource-metadata.ts';
