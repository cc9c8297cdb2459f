import type { FastifyInstance } from 'fastify';

/** A dependency check: resolves when the dependency answers, rejects (or never settles) when it does not. */
export type HealthCheck = () => Promise<unknown>;

/** What {@link healthRoutes} checks and reports. */
export interface HealthRoutesOptions {
  /** The database check (`select 1`), for `/health` and `/health/ready`. */
  readonly database: HealthCheck;
  /** The fields of `/health`'s 200 body besides `status`, e.g. the database kind and the uptime. */
  readonly healthDetails: () => Readonly<Record<string, unknown>>;
  /** Further dependencies `/health/ready` needs, by name (e.g. `redis` when REDIS_URL is set). */
  readonly readinessChecks?: Readonly<Record<string, HealthCheck>> | undefined;
  /** True once the process is shutting down: `/health/ready` then answers 503 at once. */
  readonly isDraining: () => boolean;
  /** How long a check may take before it counts as failed; default 3000 ms. */
  readonly timeoutMs?: number | undefined;
}

// A load balancer gives up on a check after a few seconds; answering 503 before that tells it why,
// instead of leaving it to guess from a timeout (a `pg` pool waits forever for an unreachable server).
const defaultTimeoutMs = 3000;

/**
 * Fastify plugin of the health routes, all `cache-control: no-store`:
 *
 * - `GET /health` → 200 `{status: 'ok', ...healthDetails()}` when the database answers, else 503
 *   `{status: 'unavailable'}`. The check Innkeep has always had; it ignores shutdown.
 * - `GET /health/live` → 200 `{status: 'ok'}` while the process answers at all (a liveness probe: restart
 *   the process when it stops).
 * - `GET /health/ready` → 200 `{status: 'ok'}` when the database and every readiness check answer; 503
 *   `{status: 'draining'}` once shutdown began; 503 `{status: 'unavailable', failing: [names]}` otherwise
 *   (a readiness probe: send traffic elsewhere meanwhile).
 *
 * Why a check failed goes to the log, never to the caller: driver messages can name hosts and users.
 * Once the server closes, Fastify itself answers every new request 503, these included.
 */
export async function healthRoutes(app: FastifyInstance, options: HealthRoutesOptions): Promise<void> {
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  const checks: Readonly<Record<string, HealthCheck>> = {
    database: options.database,
    ...options.readinessChecks,
  };

  app.get('/health', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    try {
      await withTimeout(options.database(), timeoutMs);
    } catch (error) {
      request.log.error({ err: error }, 'Health check failed: the database did not answer');
      return reply.code(503).send({ status: 'unavailable' });
    }
    return { status: 'ok', ...options.healthDetails() };
  });

  app.get('/health/live', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' };
  });

  app.get('/health/ready', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    if (options.isDraining()) return reply.code(503).send({ status: 'draining' });
    const results = await Promise.allSettled(
      Object.entries(checks).map(async ([name, check]) => {
        try {
          await withTimeout(check(), timeoutMs);
        } catch (error) {
          request.log.error({ err: error, check: name }, `Readiness check failed: ${name} did not answer`);
          throw error;
        }
      }),
    );
    const names = Object.keys(checks);
    const failing = names.filter((_, index) => results[index]?.status === 'rejected');
    if (failing.length > 0) return reply.code(503).send({ status: 'unavailable', failing });
    return { status: 'ok' };
  });
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`No answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
