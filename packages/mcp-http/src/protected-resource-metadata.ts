import { mcpResourceUrl, protectedResourceMetadataUrl } from '@innkeep/auth';
import { allScopes } from '@innkeep/domain';
import type { FastifyInstance } from 'fastify';

/** What {@link mcpProtectedResourceMetadata} is built from. */
export interface McpProtectedResourceMetadataOptions {
  /** The deployment's public address (BASE_URL): `${baseUrl}/mcp` is the resource and token audience. */
  readonly baseUrl: string;
  /** The authorization server's issuer; defaults to `baseUrl`, where Innkeep's runs. */
  readonly authorizationServer?: string | undefined;
}

/**
 * The Protected Resource Metadata of `/mcp` (RFC 9728), for a process that serves `/mcp` without the
 * authorization server (apps/mcp-only); the authorization server plugin serves the same document itself.
 * Routes: `/.well-known/oauth-protected-resource/mcp`, the root variant, and the variant under BASE_URL's
 * path, CORS open, cacheable for an hour.
 */
export async function mcpProtectedResourceMetadata(
  app: FastifyInstance,
  options: McpProtectedResourceMetadataOptions,
): Promise<void> {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const document = {
    resource: mcpResourceUrl(baseUrl),
    authorization_servers: [(options.authorizationServer ?? baseUrl).replace(/\/+$/, '')],
    scopes_supported: [...allScopes],
    bearer_methods_supported: ['header'],
    resource_name: 'Innkeep',
  };
  const paths = new Set([
    '/.well-known/oauth-protected-resource/mcp',
    '/.well-known/oauth-protected-resource',
    new URL(protectedResourceMetadataUrl(baseUrl)).pathname,
  ]);
  for (const url of paths) {
    app.get(url, async (_request, reply) => {
      reply.header('access-control-allow-origin', '*').header('cache-control', 'public, max-age=3600');
      return document;
    });
    app.options(url, async (_request, reply) =>
      reply
        .code(204)
        .header('access-control-allow-origin', '*')
        .header('access-control-allow-methods', 'GET')
        .header('access-control-allow-headers', 'authorization, content-type, mcp-protocol-version')
        .header('access-control-max-age', '3600')
        .send(),
    );
  }
}
