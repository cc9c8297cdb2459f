import {
  ConfigError,
  metricsPortProblems,
  originListSchema,
  parseEnv,
  perMinuteLimitSchema,
  publicUrlSchema,
  type ServiceConfig,
  serviceConfig,
  serviceShape,
} from '@innkeep/service-host';
import { z } from 'zod';

export { ConfigError };

/** The tool server's configuration, read from the environment once at start. */
export interface McpOnlyConfig extends ServiceConfig {
  /**
   * The deployment's public address, the same as the Innkeep server's BASE_URL: tokens are bound to
   * `${baseUrl}/mcp`, and the load balancer sends `/mcp` and its metadata here.
   */
  readonly baseUrl: string;
  /** The deployment's PostgreSQL database, where the Innkeep server keeps accounts and tokens. */
  readonly databaseUrl: string;
  /** Browser origins besides BASE_URL's that may call /mcp. */
  readonly mcpAllowedOrigins: readonly string[];
  /** Requests a minute one access token may send (default 300, the seed's). */
  readonly mcpRateLimit: number;
}

const defaultPort = 3001;
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
  MCP_ALLOWED_ORIGINS: originListSchema(),
  MCP_RATE_LIMIT: perMinuteLimitSchema(300),
  METRICS_PORT,
  SHUTDOWN_DRAIN_MS,
};

// Values of these may hold passwords, so problems with them never echo the value.
const secretVariables = new Set(['DATABASE_URL', 'REDIS_URL']);

/**
 * Reads and validates the configuration. BASE_URL and DATABASE_URL are required: this process serves the
 * tokens that the Innkeep server at the same BASE_URL issues, from the database both share.
 *
 * @throws {@link ConfigError} naming every bad variable.
 */
export function loadMcpOnlyConfig(env: NodeJS.ProcessEnv): McpOnlyConfig {
  const parsed = parseEnv(z.object(shape), env, {
    extraProblems: metricsPortProblems(env, defaultPort),
    secretVariables,
    subject: "The tool server's configuration",
  });
  return {
    ...serviceConfig(parsed),
    baseUrl: parsed.BASE_URL.replace(/\/+$/, ''),
    databaseUrl: parsed.DATABASE_URL,
    mcpAllowedOrigins: parsed.MCP_ALLOWED_ORIGINS,
    mcpRateLimit: parsed.MCP_RATE_LIMIT,
  };
}
