// Starts the REST API alone: `pnpm --filter @innkeep/rest-only start`. Reads the environment once, brings
// the shared database up to date (safe beside the Innkeep server doing the same), and listens until SIGINT
// or SIGTERM, then finishes the requests in flight and stops (see startService).
import { systemClock } from '@innkeep/domain';
import { migrateDatabase, readConfigOrExit, startService } from '@innkeep/service-host';
import { buildRestOnlyApp } from './app.ts';
import { loadRestOnlyConfig } from './config.ts';

const config = readConfigOrExit(() => loadRestOnlyConfig(process.env));

await startService({
  name: 'The REST server',
  config: { ...config, database: { kind: 'postgres', url: config.databaseUrl } },
  buildApp: ({ database, redis, metrics, isDraining, authNotifications }) =>
    buildRestOnlyApp({
      database,
      clock: systemClock,
      logLevel: config.logLevel,
      baseUrl: config.baseUrl,
      trustProxy: config.trustProxy,
      redis,
      rateLimits: { perCredential: config.restRateLimit, withApiKey: config.restPartnerRateLimit },
      isDraining,
      metrics,
      // Revocations, role and subscription changes made through the Innkeep server reach this cache too.
      authNotifications,
    }),
  prepare: async (app, { database }) => {
    const migrations = await migrateDatabase(database.db);
    if (migrations.length > 0) app.log.info({ migrations }, 'Applied database migrations');
  },
  announcement: [`Innkeep's REST server is running for ${config.baseUrl}/api`],
});
