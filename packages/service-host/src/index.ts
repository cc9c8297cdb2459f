// The public surface of @innkeep/service-host: how every Innkeep app reads its environment and starts.

export type { LogLevel, ParseEnvOptions, ServiceConfig } from './config.ts';
export {
  ConfigError,
  cleaned,
  metricsPortProblems,
  originListSchema,
  parseEnv,
  perMinuteLimitSchema,
  publicUrlSchema,
  serviceConfig,
  serviceShape,
} from './config.ts';
export { DataDirInUseError } from './data-dir-lock.ts';
export type { DatabaseConfig, DatabasePreparation, OpenDatabaseOptions } from './database.ts';
export {
  databaseConfig,
  databaseShape,
  explainDatabaseError,
  migrateDatabase,
  openConfiguredDatabase,
  prepareDatabase,
} from './database.ts';
export { readConfigOrExit } from './read-config.ts';
export type { HostedServiceConfig, ServiceResources, StartServiceOptions } from './start-service.ts';
export { startService } from './start-service.ts';
