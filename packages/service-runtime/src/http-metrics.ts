import type { FastifyInstance } from 'fastify';
import { type ServiceMetrics, unmatchedRoute } from './service-metrics.ts';

/**
 * Counts every response of `app` and times it, labelled with the route's URL template (`/oauth/auth/:uid`,
 * not the URL asked for) so the number of series stays bounded; requests no route matched share
 * {@link unmatchedRoute}. Call it on the root instance before registering plugins: hooks added there reach
 * every route, where a plugin's own hooks would reach only its routes.
 */
export function observeHttpRequests(app: FastifyInstance, metrics: ServiceMetrics): void {
  app.addHook('onResponse', async (request, reply) => {
    metrics.recordRequest({
      method: request.method,
      route: request.is404 ? unmatchedRoute : (request.routeOptions.url ?? unmatchedRoute),
      status: reply.statusCode,
      durationMs: reply.elapsedTime,
    });
  });
}
