import type { Clock } from '@innkeep/domain';
import type { DatabaseHandle } from '@innkeep/domain/postgres';
import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { LogLevel } from './config.ts';

/** Everything the HTTP app is built from; `main.ts` makes them from the configuration, tests make their own. */
export interface AppDeps {
  readonly database: Pick<DatabaseHandle, 'db' | 'kind'>;
  readonly clock: Clock;
  readonly logLevel: LogLevel;
}

// A load balancer gives up on a check after a few seconds; answering 503 before that tells it why,
// instead of leaving it to guess from a timeout (a `pg` pool waits forever for an unreachable server).
const healthCheckTimeoutMs = 3000;

/**
 * Builds the Innkeep HTTP app without listening, so tests can `inject()` requests and `main.ts` decides
 * where to listen.
 *
 * Routes: `GET /health` → 200 `{status: 'ok', database, uptimeSeconds}` when the database answers, else 503
 * `{status: 'unavailable'}` (the cause goes to the log, never to the caller).
 */
export function buildApp(deps: AppDeps): FastifyInstance {
  const app = Fastify({ logger: { level: deps.logLevel } });
  const startedAt = deps.clock.now().getTime();

  app.get('/health', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    try {
      await withTimeout(sql`select 1`.execute(deps.database.db), healthCheckTimeoutMs);
    } catch (error) {
      request.log.error({ err: error }, 'Health check failed: the database did not answer');
      return reply.code(503).send({ status: 'unavailable' });
    }
    const uptimeSeconds = Math.floor((deps.clock.now().getTime() - startedAt) / 1000);
    return { status: 'ok', database: deps.database.kind, uptimeSeconds };
  });

  return app;
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`No answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
