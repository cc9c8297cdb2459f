// The public surface of @innkeep/service-runtime: what every Innkeep process wraps around its routes.

export type { DrainState, GracefulShutdownOptions, ShutdownStep } from './graceful-shutdown.ts';
export {
  createDrainState,
  gracefulServerOptions,
  shutdownSignals,
  stopOnSignals,
} from './graceful-shutdown.ts';
export type { HealthCheck, HealthRoutesOptions } from './health-routes.ts';
export { healthRoutes } from './health-routes.ts';
export { observeHttpRequests } from './http-metrics.ts';
export type { MetricsServerOptions } from './metrics-server.ts';
export { startMetricsServer } from './metrics-server.ts';
export type { JobRunOutcome, PoolStats, ServiceMetrics, ToolCallOutcome } from './service-metrics.ts';
export { createServiceMetrics, unmatchedRoute } from './service-metrics.ts';
