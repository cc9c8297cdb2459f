import Fastify, { type FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';

/** Where {@link startMetricsServer} listens and what it serves. */
export interface MetricsServerOptions {
  readonly registry: Registry;
  /** The service's HOST: the metrics listen beside it, on their own port. */
  readonly host: string;
  /** METRICS_PORT. */
  readonly port: number;
}

/**
 * Serves `GET /metrics` (Prometheus text format) on a listener of its own, so the public port never shows
 * them and a firewall or a Kubernetes port list decides who may scrape. Close it after the service.
 */
export async function startMetricsServer(options: MetricsServerOptions): Promise<FastifyInstance> {
  // No request logging: a scrape every few seconds would drown the service's own lines.
  const server = Fastify({ logger: false });
  server.get('/metrics', async (_request, reply) => {
    reply.header('content-type', options.registry.contentType).header('cache-control', 'no-store');
    return options.registry.metrics();
  });
  await server.listen({ host: options.host, port: options.port });
  return server;
}
