import type { FastifyInstance, FastifyPluginAsync } from 'fastify';

/** One year, subdomains included: what browsers' HSTS guidance asks for before anything else. */
export const strictTransportSecurityValue = 'max-age=31536000; includeSubDomains';

/** What {@link strictTransportSecurity} needs. */
export interface StrictTransportSecurityOptions {
  /** The public address (BASE_URL); the header is sent only when it is https. */
  readonly baseUrl: string;
}

async function addStrictTransportSecurity(
  app: FastifyInstance,
  options: StrictTransportSecurityOptions,
): Promise<void> {
  // Over plain http the header means nothing to browsers, and a development setup must stay reachable.
  if (new URL(options.baseUrl).protocol !== 'https:') return;
  app.addHook('onRequest', async (_request, reply) => {
    // Set on the raw response: the OAuth routes hand it to oidc-provider, which writes its own headers
    // and never sees the ones Fastify holds until it sends.
    reply.raw.setHeader('strict-transport-security', strictTransportSecurityValue);
  });
}

/**
 * Fastify plugin sending `Strict-Transport-Security: max-age=31536000; includeSubDomains` on every response
 * of the context it is registered in and its children — pages, OAuth endpoints, `/mcp`, errors and 404s —
 * when `baseUrl` is https, so browsers never again try the site over plain http. Register it on the root.
 */
export const strictTransportSecurity: FastifyPluginAsync<StrictTransportSecurityOptions> = Object.assign(
  addStrictTransportSecurity,
  {
    // What fastify-plugin sets: the hook applies to the registering context instead of a private child.
    [Symbol.for('skip-override')]: true,
    [Symbol.for('fastify.display-name')]: 'innkeep-strict-transport-security',
  },
);
