import { z } from 'zod';

/** Log levels, most to least severe; `silent` logs nothing. */
export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
/** One of {@link logLevels}. */
export type LogLevel = (typeof logLevels)[number];

/** The tool server's configuration, read from the environment once at start. */
export interface McpOnlyConfig {
  readonly port: number;
  readonly host: string;
  /**
   * The deployment's public address, the same as the Innkeep server's BASE_URL: tokens are bound to
   * `${baseUrl}/mcp`, and the load balancer sends `/mcp` and its metadata here.
   */
  readonly baseUrl: string;
  /** The deployment's PostgreSQL database, where the Innkeep server keeps accounts and tokens. */
  readonly databaseUrl: string;
  /** Shared rate-limit counters; without it each instance counts alone. */
  readonly redisUrl: string | undefined;
  readonly logLevel: LogLevel;
  /** Believe X-Forwarded-For from the proxy in front (client addresses in logs). */
  readonly trustProxy: boolean;
  /** Browser origins besides BASE_URL's that may call /mcp. */
  readonly mcpAllowedOrigins: readonly string[];
  /** Requests a minute one access token may send (default 300, the seed's). */
  readonly mcpRateLimit: number;
  /** METRICS_PORT: serve Prometheus metrics at `/metrics` on this port of HOST; unset keeps none. */
  readonly metricsPort: number | undefined;
  /** SHUTDOWN_DRAIN_MS: how long requests in flight may take to finish on SIGTERM (default 10 000). */
  readonly shutdownDrainMs: number;
}

/** The environment is unusable; `problems` has one line per bad variable, all of them at once. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(
      `The tool server's configuration is invalid:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`,
    );
    this.problems = problems;
  }
}

const portMessage = 'must be a port number from 1 to 65535';
const portSchema = z
  .string()
  .regex(/^\d{1,5}$/, portMessage)
  .transform(Number)
  .refine((port) => port >= 1 && port <= 65_535, portMessage);

const shape = {
  PORT: portSchema.default(3001),
  HOST: z.string().default('127.0.0.1'),
  BASE_URL: z
    .url({
      protocol: /^https?$/,
      error: "must be the deployment's public http:// or https:// address, as the Innkeep server has it",
    })
    .refine((url) => !url.includes('?') && !url.includes('#'), 'must not have a query or a fragment'),
  DATABASE_URL: z.url({
    protocol: /^postgres(ql)?$/,
    error: "must be the postgres:// URL of the Innkeep server's database",
  }),
  REDIS_URL: z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' }).optional(),
  LOG_LEVEL: z.enum(logLevels, { error: `must be one of ${logLevels.join(', ')}` }).default('info'),
  TRUST_PROXY: z.stringbool({ error: 'must be true or false' }).default(false),
  MCP_ALLOWED_ORIGINS: z
    .string()
    .transform((list) =>
      list
        .split(',')
        .map((origin) => origin.trim())
        .filter((origin) => origin !== ''),
    )
    .refine(
      (origins) =>
        origins.every((origin) => {
          const url = URL.parse(origin);
          return url !== null && /^https?:$/.test(url.protocol) && url.origin === origin;
        }),
      'must be a comma-separated list of origins such as https://assistant.example.com (no path or trailing slash)',
    )
    .default([]),
  MCP_RATE_LIMIT: z
    .string()
    .regex(/^[1-9]\d{0,8}$/, 'must be a whole number of requests a minute, at least 1')
    .transform(Number)
    .default(300),
  METRICS_PORT: portSchema.optional(),
  SHUTDOWN_DRAIN_MS: z
    .string()
    .regex(/^\d{1,7}$/, 'must be a whole number of milliseconds, from 0 to 9999999')
    .transform(Number)
    .default(10_000),
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
  const raw = Object.fromEntries(Object.keys(shape).map((name) => [name, cleaned(env[name])]));
  const result = z.object(shape).safeParse(raw);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => {
        const name = String(issue.path[0]);
        const value = raw[name];
        const got = value === undefined || secretVariables.has(name) ? '' : ` (got "${value}")`;
        return `${name}: ${value === undefined ? 'is required; it ' : ''}${issue.message}${got}`;
      }),
    );
  }
  const parsed = result.data;
  if (parsed.METRICS_PORT === parsed.PORT) {
    throw new ConfigError([
      'METRICS_PORT: must differ from PORT, so the metrics are never served on the public port',
    ]);
  }
  return {
    port: parsed.PORT,
    host: parsed.HOST,
    baseUrl: parsed.BASE_URL.replace(/\/+$/, ''),
    databaseUrl: parsed.DATABASE_URL,
    redisUrl: parsed.REDIS_URL,
    logLevel: parsed.LOG_LEVEL,
    trustProxy: parsed.TRUST_PROXY,
    mcpAllowedOrigins: parsed.MCP_ALLOWED_ORIGINS,
    mcpRateLimit: parsed.MCP_RATE_LIMIT,
    metricsPort: parsed.METRICS_PORT,
    shutdownDrainMs: parsed.SHUTDOWN_DRAIN_MS,
  };
}

// Empty and blank variables count as unset.
function cleaned(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === '' ? undefined : trimmed;
}
