// An app on startService in as few lines as apps/rest-only will need: the shared configuration, the
// database, Redis and health, and nothing of its own but one route. The tests run it as a process.
import { healthRoutes } from '@innkeep/service-runtime';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { z } from 'zod';
import {
  databaseConfig,
  databaseShape,
  metricsPortProblems,
  parseEnv,
  readConfigOrExit,
  serviceConfig,
  serviceShape,
  startService,
} from '../../src/index.ts';

const defaultPort = 3002;
const config = readConfigOrExit(() => {
  const parsed = parseEnv(z.object({ ...databaseShape, ...serviceShape(defaultPort) }), process.env, {
    extraProblems: metricsPortProblems(process.env, defaultPort),
    secretVariables: new Set(['DATABASE_URL', 'REDIS_URL']),
    subject: "The minimal service's configuration",
  });
  return { ...serviceConfig(parsed), database: databaseConfig(parsed, '.data') };
});

await startService({
  name: 'The minimal service',
  config,
  buildApp: ({ database, redis, isDraining }) => {
    const app = Fastify({ logger: { level: config.logLevel } });
    app.register(healthRoutes, {
      database: () => sql`select 1`.execute(database.db),
      healthDetails: () => ({ database: database.kind }),
      readinessChecks: redis === undefined ? undefined : { redis: () => redis.ping() },
      isDraining,
    });
    app.get('/hello', async () => ({ hello: 'world' }));
    return app;
  },
  announcement: [`The minimal service is running on port ${config.port}`],
});
