// Starts the tool server alone: `pnpm --filter @innkeep/mcp-only start`. Reads the environment once, brings
// the shared database up to date (safe beside the Innkeep server doing the same), and listens until SIGINT
// or SIGTERM, then finishes the requests in flight and stops (see startService).
import { systemClock } from '@innkeep/domain';
import { migrateDatabase, readConfigOrExit, startService } from '@innkeep/service-host';
import { buildMcpOnlyApp } from './app.ts';
import { loadMcpOnlyConfig } from './config.ts';

const config = readConfigOrExit(() => loadMcpOnlyConfig(process.env));

await startService({
  name: 'The tool server',
  config: { ...config, database: { kind: 'postgres', url: config.databaseUrl } },
  buildApp: ({ database, redis, metrics, isDraining, authNotifications }) =>
    buildMcpOnlyApp({
      database,
      clock: systemClock,
      logLevel: config.logLevel,
      baseUrl: config.baseUrl,
      trustProxy: config.trustProxy,
      redis,
      mcpAllowedOrigins: config.mcpAllowedOrigins,
      rateLimit: { max: config.mcpRateLimit, timeWindow: 60_000 },
      isDraining,
      metrics,
      // Revocations, role and subscription changes made through the Innkeep server reach this cache too.
      authNotifications,
    }),
  prepare: async (app, { database }) => {
    const migrations = await migrateDatabase(database.db);
    if (migrations.length > 0) app.log.info({ migrations }, 'Applied database migrations');
  },
  announcement: [`Innkeep's tool server is running for ${config.baseUrl}/mcp`],
});
