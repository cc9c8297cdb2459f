import {
  ConfigError,
  metricsPortProblems,
  parseEnv,
  perMinuteLimitSchema,
  publicUrlSchema,
  type ServiceConfig,
  serviceConfig,
  serviceShape,
} from '@innkeep/service-host';
import { z } from 'zod';

export { ConfigError };

/** The REST server's configuration, read from the environment once at start. */
export interface RestOnlyConfig extends ServiceConfig {
  /**
   * The deployment's public address, the same as the Innkeep server's BASE_URL: Bearer tokens are bound to
   * `${baseUrl}/api` (or to `${baseUrl}`), and the load balancer sends `/api` and its metadata here.
   */
  readonly baseUrl: string;
  /** The deployment's PostgreSQL database, where the Innkeep server keeps accounts, tokens and data. */
  readonly databaseUrl: string;
  /** REST_RATE_LIMIT: requests a minute one authToken or access token may send (default 120). */
  readonly restRateLimit: number;
  /** REST_PARTNER_RATE_LIMIT: requests a minute one authToken may send with a partner's apiKey (default 1,200). */
  readonly restPartnerRateLimit: number;
}

const defaultPort = 3002;
const { PORT, HOST, REDIS_URL, LOG_LEVEL, TRUST_PROXY, METRICS_PORT, SHUTDOWN_DRAIN_MS } =
  serviceShape(defaultPort);

const shape = {
  PORT,
  HOST,
  BASE_URL: publicUrlSchema(
    "must be the deployment's public http:// or https:// address, as the Innkeep server has it",
  ),
  DATABASE_URL: z.url({
    protocol: /^postgres(ql)?$/,
    error: "must be the postgres:// URL of the Innkeep server's database",
  }),
  REDIS_URL,
  LOG_LEVEL,
  TRUST_PROXY,
  REST_RATE_LIMIT: perMinuteLimitSchema(120),
  REST_PARTNER_RATE_LIMIT: perMinuteLimitSchema(1_200),
  METRICS_PORT,
  SHUTDOWN_DRAIN_MS,
};

// Values of these may hold passwords, so problems with them never echo the value.
const secretVariables = new Set(['DATABASE_URL', 'REDIS_URL']);

/**
 * Reads and validates the configuration. BASE_URL and DATABASE_URL are required: this process serves the
 * accounts, authTokens and access tokens of the Innkeep server at the same BASE_URL, from the database both
 * share.
 *
 * @throws {@link ConfigError} naming every bad variable.
 */
export function loadRestOnlyConfig(env: NodeJS.ProcessEnv): RestOnlyConfig {
  const parsed = parseEnv(z.object(shape), env, {
    extraProblems: metricsPortProblems(env, defaultPort),
    secretVariables,
    subject: "The REST server's configuration",
  });
  return {
    ...serviceConfig(parsed),
    baseUrl: parsed.BASE_URL.replace(/\/+$/, ''),
    databaseUrl: parsed.DATABASE_URL,
    restRateLimit: parsed.REST_RATE_LIMIT,
    restPartnerRateLimit: parsed.REST_PARTNER_RATE_LIMIT,
  };
}
