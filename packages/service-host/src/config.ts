import { z } from 'zod';

/** Log levels, most to least severe; `silent` logs nothing. */
const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
/** One of {@link logLevels}. */
export type LogLevel = (typeof logLevels)[number];

/** What every Innkeep app reads from the environment besides its own variables. */
export interface ServiceConfig {
  readonly port: number;
  readonly host: string;
  /** Shared rate-limit counters; unset, each instance counts alone. */
  readonly redisUrl: string | undefined;
  readonly logLevel: LogLevel;
  /**
   * TRUST_PROXY: believe X-Forwarded-For from the proxy in front (client addresses for rate limits and
   * logs). Off by default, since a client could otherwise pick its own address.
   */
  readonly trustProxy: boolean;
  /** METRICS_PORT: serve Prometheus metrics at `/metrics` on this port of HOST, never the public PORT. */
  readonly metricsPort: number | undefined;
  /** SHUTDOWN_DRAIN_MS: on SIGTERM or SIGINT, how long requests in flight may take to finish (default 10 000). */
  readonly shutdownDrainMs: number;
}

/** The environment is unusable; `problems` has one line per bad variable, all of them at once. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly problems: readonly string[];

  /** @param subject whose configuration it is, as the message starts: "Innkeep's configuration". */
  constructor(problems: readonly string[], subject = "Innkeep's configuration") {
    super(`${subject} is invalid:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.problems = problems;
  }
}

const portMessage = 'must be a port number from 1 to 65535';

/** A TCP port, 1 to 65535. */
const portSchema = z
  .string()
  .regex(/^\d{1,5}$/, portMessage)
  .transform(Number)
  .refine((port) => port >= 1 && port <= 65_535, portMessage);

/** The variables of {@link ServiceConfig}; `defaultPort` is the app's own PORT default. */
export function serviceShape(defaultPort: number) {
  return {
    PORT: portSchema.default(defaultPort),
    HOST: z.string().default('127.0.0.1'),
    REDIS_URL: z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' }).optional(),
    LOG_LEVEL: z.enum(logLevels, { error: `must be one of ${logLevels.join(', ')}` }).default('info'),
    TRUST_PROXY: z.stringbool({ error: 'must be true or false' }).default(false),
    METRICS_PORT: portSchema.optional(),
    SHUTDOWN_DRAIN_MS: z
      .string()
      .regex(/^\d{1,7}$/, 'must be a whole number of milliseconds, from 0 to 9999999')
      .transform(Number)
      .default(10_000),
  };
}

/** The {@link ServiceConfig} of an environment parsed with {@link serviceShape}. */
export function serviceConfig(parsed: z.output<z.ZodObject<ReturnType<typeof serviceShape>>>): ServiceConfig {
  return {
    port: parsed.PORT,
    host: parsed.HOST,
    redisUrl: parsed.REDIS_URL,
    logLevel: parsed.LOG_LEVEL,
    trustProxy: parsed.TRUST_PROXY,
    metricsPort: parsed.METRICS_PORT,
    shutdownDrainMs: parsed.SHUTDOWN_DRAIN_MS,
  };
}

/**
 * A public http(s) address such as BASE_URL, without a query or a fragment; `error` says what it must be.
 */
export function publicUrlSchema(error: string) {
  return z
    .url({ protocol: /^https?$/, error })
    .refine((url) => !url.includes('?') && !url.includes('#'), 'must not have a query or a fragment');
}

/**
 * A comma-separated list of http(s) origins (scheme, host, optional port; no path), each as a browser sends
 * it in `Origin`; empty by default.
 */
export function originListSchema() {
  return z
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
    .default([]);
}

/** A rate limit in whole requests a minute, at least 1; `defaultLimit` when unset. */
export function perMinuteLimitSchema(defaultLimit: number) {
  return z
    .string()
    .regex(/^[1-9]\d{0,8}$/, 'must be a whole number of requests a minute, at least 1')
    .transform(Number)
    .default(defaultLimit);
}

/**
 * The problem of a METRICS_PORT equal to PORT (`defaultPort` when PORT is unset), checked before parsing
 * so it is listed with all the others.
 */
export function metricsPortProblems(env: NodeJS.ProcessEnv, defaultPort: number): string[] {
  const metricsPort = cleaned(env.METRICS_PORT);
  return metricsPort !== undefined && Number(metricsPort) === Number(cleaned(env.PORT) ?? defaultPort)
    ? ['METRICS_PORT: must differ from PORT, so the metrics are never served on the public port']
    : [];
}

/** How {@link parseEnv} reports. */
export interface ParseEnvOptions {
  /** Problems found across variables before parsing, listed after the parsed ones. */
  readonly extraProblems?: readonly string[] | undefined;
  /** Variables whose values may hold passwords or keys, so a problem with one never echoes the value. */
  readonly secretVariables: ReadonlySet<string>;
  /** Whose configuration it is, for {@link ConfigError}'s message. */
  readonly subject?: string | undefined;
}

/**
 * Reads the variables of `schema` from `env`; empty and blank ones count as unset (`PORT=` in an .env file
 * means "use the default").
 *
 * @throws {@link ConfigError} naming every bad variable at once, and the extra problems.
 */
export function parseEnv<Shape extends z.ZodRawShape>(
  schema: z.ZodObject<Shape>,
  env: NodeJS.ProcessEnv,
  options: ParseEnvOptions,
): z.output<z.ZodObject<Shape>> {
  const raw = Object.fromEntries(Object.keys(schema.shape).map((name) => [name, cleaned(env[name])]));
  const result = schema.safeParse(raw);
  const problems = result.success
    ? []
    : result.error.issues.map((issue) => {
        const name = String(issue.path[0]);
        const value = raw[name];
        const got = value === undefined || options.secretVariables.has(name) ? '' : ` (got "${value}")`;
        return `${name}: ${value === undefined ? 'is required; it ' : ''}${issue.message}${got}`;
      });
  problems.push(...(options.extraProblems ?? []));
  if (!result.success || problems.length > 0) throw new ConfigError(problems, options.subject);
  return result.data;
}

/** `value` trimmed, or undefined when it is empty or blank. */
export function cleaned(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === '' ? undefined : trimmed;
}
