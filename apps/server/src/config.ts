import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateSigningKey, parseSigningKey, type SigningKey } from '@innkeep/auth';
import { defaultCalendarImportIntervalMinutes } from '@innkeep/domain';
import {
  ConfigError,
  cleaned,
  type DatabaseConfig,
  databaseConfig,
  databaseShape,
  type LogLevel,
  metricsPortProblems,
  originListSchema,
  parseEnv,
  perMinuteLimitSchema,
  publicUrlSchema,
  type ServiceConfig,
  serviceConfig,
  serviceShape,
} from '@innkeep/service-host';
import { defaultWebhookEventRetentionDays } from '@innkeep/storage';
import { z } from 'zod';

export { ConfigError };

/** What the CLI needs: the database and how much to say. */
export interface DataConfig {
  readonly database: DatabaseConfig;
  readonly logLevel: LogLevel;
  /**
   * Whether messages to direct guests are emailed (SMTP_URL is set): written `queued` for the delivery job,
   * by the server and by CLI commands alike; otherwise `not_delivered`.
   */
  readonly emailDelivery: boolean;
}

/**
 * Keys for signing and encrypting (cookies, tokens); the first signs, all verify, so a new key can be put in
 * front while the old one still verifies. `source` says where they came from, for the startup log.
 */
export type SecretKeys =
  | { readonly keys: readonly string[]; readonly source: 'environment' }
  | {
      readonly keys: readonly string[];
      /** `created` when this start generated them, `data-dir` when an earlier start did. */
      readonly source: 'created' | 'data-dir';
      readonly file: string;
    };

/**
 * The private key that signs ID tokens (RS256). `source` says where it came from, for the startup log:
 * OIDC_SIGNING_KEY, or a file in DATA_DIR that this start `created` or an earlier one did (`data-dir`).
 */
export type OidcSigningKey =
  | { readonly key: SigningKey; readonly source: 'environment' }
  | { readonly key: SigningKey; readonly source: 'created' | 'data-dir'; readonly file: string };

/** The server's whole configuration, read from the environment once at start. */
export interface Config extends DataConfig, ServiceConfig {
  /** The public address clients use, without a trailing slash. */
  readonly baseUrl: string;
  /** Seed the demo account on the first start. */
  readonly demoData: boolean;
  readonly secretKeys: SecretKeys;
  readonly oidcSigningKey: OidcSigningKey;
  /**
   * MCP_ALLOWED_ORIGINS: browser origins besides BASE_URL's that may call /mcp (e.g. a web-based MCP
   * client). Empty by default; with a loopback BASE_URL any loopback origin may anyway.
   */
  readonly mcpAllowedOrigins: readonly string[];
  /** MCP_RATE_LIMIT: requests a minute one access token may send to /mcp (default 300, the seed's). */
  readonly mcpRateLimit: number;
  /** REST_RATE_LIMIT: requests a minute one authToken or access token may send to /api (default 120). */
  readonly restRateLimit: number;
  /**
   * REST_PARTNER_RATE_LIMIT: requests a minute one authToken may send to /api together with a partner's
   * apiKey (default 1,200).
   */
  readonly restPartnerRateLimit: number;
  /**
   * OAUTH_REGISTRATION_RATE_LIMIT per OAUTH_REGISTRATION_RATE_WINDOW_MINUTES: dynamic client registrations
   * allowed from one client address (default 3,000 per 10 minutes), counted across instances with REDIS_URL.
   */
  readonly registrationRateLimit: { readonly max: number; readonly timeWindowMs: number };
  /**
   * MESSAGE_RULES: send hosts' automated messages when they come due (`on`, the default). `off` is for
   * instances that should only serve requests; with several instances one of them at a time sends anyway.
   */
  readonly messageRules: boolean;
  /**
   * WEBHOOKS: deliver webhook events to the subscriptions' receivers (`on`, the default). Any number of
   * instances may deliver at once; each attempt is made by one of them. `off` is for instances that should
   * only serve requests.
   */
  readonly webhooks: boolean;
  /**
   * WEBHOOK_ALLOW_PRIVATE: also deliver over http and to loopback, private and link-local addresses (default
   * false). Only for tests and local development: otherwise a subscription could reach the host's own network.
   */
  readonly webhookAllowPrivate: boolean;
  /**
   * CALENDAR_IMPORTS: poll the channel calendars hosts gave their listings' channel links (`on`, the default).
   * Any number of instances may poll at once; each link is polled by one of them. `off` is for instances that
   * should only serve requests.
   */
  readonly calendarImports: boolean;
  /** CALENDAR_IMPORT_INTERVAL_MINUTES: minutes between two polls of one channel calendar (default 15, 1–1440). */
  readonly calendarImportIntervalMinutes: number;
  /**
   * CALENDAR_IMPORT_ALLOW_PRIVATE: also fetch calendars over http and from loopback, private and link-local
   * addresses (default false). Only for tests and local development, as for webhooks.
   */
  readonly calendarImportAllowPrivate: boolean;
  /**
   * WEBHOOK_EVENT_RETENTION_DAYS: how many days a webhook event whose deliveries have all finished is kept,
   * with its delivery log, before the housekeeping job removes it (default 30, from 1 to 3650).
   */
  readonly webhookEventRetentionDays: number;
  /**
   * Email delivery of messages to direct guests: set when SMTP_URL is, and then the message delivery job
   * runs and such messages are stored `queued`; without it every message is stored `not_delivered`.
   */
  readonly mail: MailConfig | undefined;
}

/** Where and as whom messages to guests are emailed. */
export interface MailConfig {
  /** SMTP_URL: `smtp://[user:password@]host[:port]` (STARTTLS when the server offers it) or `smtps://…`. */
  readonly smtpUrl: string;
  /** MAIL_FROM: the `From` of every email, e.g. `"Harbor Stays" <stays@example.com>`. */
  readonly from: string;
  /** MAIL_REPLY_TO: where guests' answers go, when not to MAIL_FROM. */
  readonly replyTo: string | undefined;
}

// apps/server/src → the repository root, wherever the checkout is and whatever the working directory.
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const defaultDataDir = join(repoRoot, '.data');
const secretKeysFileName = 'secret-keys.json';
const signingKeyFileName = 'oidc-signing-key.json';
const minSecretKeyLength = 32;
const keyAdvice = 'generate one with: openssl rand -base64 48';
const signingKeyAdvice =
  "generate one with: node -e \"console.log(JSON.stringify(require('node:crypto').generateKeyPairSync('rsa', " +
  "{modulusLength: 2048}).privateKey.export({format: 'jwk'})))\"";

/** An address, bare or with a display name: `stays@example.com`, `Harbor Stays <stays@example.com>`. */
const mailAddressPattern = /^(?:[^<>@\r\n]*<[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+)$/;

const mailAddressSchema = z
  .string()
  .trim()
  .regex(
    mailAddressPattern,
    'must be an email address, e.g. stays@example.com or Harbor Stays <stays@example.com>',
  );

const smtpUrlSchema = z.string().refine((value) => {
  try {
    const url = new URL(value);
    return (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname !== '';
  } catch {
    return false;
  }
}, 'must be an smtp:// or smtps:// URL with a host, e.g. smtps://user:password@mail.example.com:465');

const defaultPort = 3000;
const { LOG_LEVEL, PORT, HOST, REDIS_URL, TRUST_PROXY, METRICS_PORT, SHUTDOWN_DRAIN_MS } =
  serviceShape(defaultPort);

const dataShape = { ...databaseShape, LOG_LEVEL };

const serverShape = {
  ...dataShape,
  PORT,
  HOST,
  BASE_URL: publicUrlSchema(
    'must be an http:// or https:// URL, e.g. https://innkeep.example.com',
  ).optional(),
  REDIS_URL,
  DEMO_DATA: z.stringbool({ error: 'must be true or false' }).optional(),
  SECRET_KEYS: z
    .string()
    .transform((list) => list.split(',').map((key) => key.trim()))
    .refine(
      (keys) => keys.every((key) => key.length >= minSecretKeyLength),
      `must be a comma-separated list of keys of at least ${minSecretKeyLength} characters each; ${keyAdvice}`,
    )
    .optional(),
  OIDC_SIGNING_KEY: z
    .string()
    .transform((json, context) => {
      try {
        return parseSigningKey(JSON.parse(json));
      } catch (error) {
        const reason =
          error instanceof SyntaxError ? 'not JSON' : error instanceof Error ? error.message : '';
        context.addIssue({
          code: 'custom',
          message: `must be a private RSA JWK as JSON (${reason}); ${signingKeyAdvice}`,
        });
        return z.NEVER;
      }
    })
    .optional(),
  TRUST_PROXY,
  MCP_ALLOWED_ORIGINS: originListSchema(),
  MCP_RATE_LIMIT: perMinuteLimitSchema(300),
  REST_RATE_LIMIT: perMinuteLimitSchema(120),
  REST_PARTNER_RATE_LIMIT: perMinuteLimitSchema(1_200),
  // Behind a load balancer not trusted for X-Forwarded-For, every client has one address: a hosted
  // assistant registering a client per user for 1,000 users in 10 minutes must fit, a loop must not.
  OAUTH_REGISTRATION_RATE_LIMIT: z
    .string()
    .regex(/^[1-9]\d{0,8}$/, 'must be a whole number of registrations, at least 1')
    .transform(Number)
    .default(3_000),
  OAUTH_REGISTRATION_RATE_WINDOW_MINUTES: z
    .string()
    .regex(/^[1-9]\d{0,3}$/, 'must be a whole number of minutes, from 1 to 1440')
    .transform(Number)
    .refine((minutes) => minutes <= 1_440, 'must be a whole number of minutes, from 1 to 1440')
    .default(10),
  MESSAGE_RULES: z.enum(['on', 'off'], { error: 'must be on or off' }).default('on'),
  WEBHOOKS: z.enum(['on', 'off'], { error: 'must be on or off' }).default('on'),
  WEBHOOK_ALLOW_PRIVATE: z.stringbool({ error: 'must be true or false' }).default(false),
  WEBHOOK_EVENT_RETENTION_DAYS: z
    .string()
    .regex(/^[1-9]\d{0,3}$/, 'must be a whole number of days, from 1 to 3650')
    .transform(Number)
    .refine((days) => days <= 3_650, 'must be a whole number of days, from 1 to 3650')
    .default(defaultWebhookEventRetentionDays),
  CALENDAR_IMPORTS: z.enum(['on', 'off'], { error: 'must be on or off' }).default('on'),
  CALENDAR_IMPORT_INTERVAL_MINUTES: z
    .string()
    .regex(/^[1-9]\d{0,3}$/, 'must be a whole number of minutes, from 1 to 1440')
    .transform(Number)
    .refine((minutes) => minutes <= 1_440, 'must be a whole number of minutes, from 1 to 1440')
    .default(defaultCalendarImportIntervalMinutes),
  CALENDAR_IMPORT_ALLOW_PRIVATE: z.stringbool({ error: 'must be true or false' }).default(false),
  SMTP_URL: smtpUrlSchema.optional(),
  MAIL_FROM: mailAddressSchema.optional(),
  MAIL_REPLY_TO: mailAddressSchema.optional(),
  METRICS_PORT,
  SHUTDOWN_DRAIN_MS,
};

// Values of these may hold passwords or keys, so problems with them never echo the value.
const secretVariables = new Set(['DATABASE_URL', 'REDIS_URL', 'SECRET_KEYS', 'OIDC_SIGNING_KEY', 'SMTP_URL']);

/**
 * Reads where the data lives (DATABASE_URL, or the embedded database in DATA_DIR) and LOG_LEVEL: what the CLI
 * needs, without the server's listening address and keys.
 *
 * @throws {@link ConfigError} naming every bad variable.
 */
export function loadDataConfig(env: NodeJS.ProcessEnv): DataConfig {
  const parsed = parseEnv(z.object(dataShape), env, { secretVariables });
  return {
    database: databaseConfig(parsed, defaultDataDir),
    logLevel: parsed.LOG_LEVEL,
    emailDelivery: cleaned(env.SMTP_URL) !== undefined,
  };
}

/**
 * Reads and validates the server's configuration. Call it once at start and pass the result down; nothing
 * else reads `process.env`. Without SECRET_KEYS and with the embedded database, keys are generated once and
 * kept in DATA_DIR/secret-keys.json (mode 0600), so restarts keep sessions valid; likewise the ID-token
 * signing key without OIDC_SIGNING_KEY, in DATA_DIR/oidc-signing-key.json.
 *
 * @throws {@link ConfigError} naming every bad variable, or when the key file cannot be read or written.
 */
export function loadConfig(env: NodeJS.ProcessEnv): Config {
  // Instances behind a load balancer must sign and verify with the same keys, so a shared database
  // without shared keys is refused rather than silently giving each instance its own.
  const sharedDatabase = cleaned(env.DATABASE_URL) !== undefined;
  const crossFieldProblems = [
    ...(sharedDatabase && cleaned(env.SECRET_KEYS) === undefined
      ? [
          `SECRET_KEYS: required when DATABASE_URL is set, because every instance must use the same keys; ${keyAdvice}`,
        ]
      : []),
    ...(sharedDatabase && cleaned(env.OIDC_SIGNING_KEY) === undefined
      ? [
          'OIDC_SIGNING_KEY: required when DATABASE_URL is set, because every instance must sign ID tokens ' +
            `with the same key; ${signingKeyAdvice}`,
        ]
      : []),
    ...metricsPortProblems(env, defaultPort),
    ...(cleaned(env.SMTP_URL) !== undefined && cleaned(env.MAIL_FROM) === undefined
      ? [
          'MAIL_FROM: required when SMTP_URL is set: the address guests get messages from, e.g. stays@example.com',
        ]
      : []),
  ];
  const parsed = parseEnv(z.object(serverShape), env, { extraProblems: crossFieldProblems, secretVariables });
  const database = databaseConfig(parsed, defaultDataDir);
  return {
    ...serviceConfig(parsed),
    database,
    baseUrl: (parsed.BASE_URL ?? `http://localhost:${parsed.PORT}`).replace(/\/+$/, ''),
    demoData: parsed.DEMO_DATA ?? database.kind === 'pglite',
    secretKeys:
      parsed.SECRET_KEYS !== undefined
        ? { keys: parsed.SECRET_KEYS, source: 'environment' }
        : embeddedSecretKeys(database),
    oidcSigningKey:
      parsed.OIDC_SIGNING_KEY !== undefined
        ? { key: parsed.OIDC_SIGNING_KEY, source: 'environment' }
        : embeddedSigningKey(database),
    mcpAllowedOrigins: parsed.MCP_ALLOWED_ORIGINS,
    mcpRateLimit: parsed.MCP_RATE_LIMIT,
    restRateLimit: parsed.REST_RATE_LIMIT,
    restPartnerRateLimit: parsed.REST_PARTNER_RATE_LIMIT,
    registrationRateLimit: {
      max: parsed.OAUTH_REGISTRATION_RATE_LIMIT,
      timeWindowMs: parsed.OAUTH_REGISTRATION_RATE_WINDOW_MINUTES * 60_000,
    },
    messageRules: parsed.MESSAGE_RULES === 'on',
    webhooks: parsed.WEBHOOKS === 'on',
    webhookAllowPrivate: parsed.WEBHOOK_ALLOW_PRIVATE,
    webhookEventRetentionDays: parsed.WEBHOOK_EVENT_RETENTION_DAYS,
    calendarImports: parsed.CALENDAR_IMPORTS === 'on',
    calendarImportIntervalMinutes: parsed.CALENDAR_IMPORT_INTERVAL_MINUTES,
    calendarImportAllowPrivate: parsed.CALENDAR_IMPORT_ALLOW_PRIVATE,
    emailDelivery: parsed.SMTP_URL !== undefined,
    mail:
      parsed.SMTP_URL === undefined || parsed.MAIL_FROM === undefined
        ? undefined
        : { smtpUrl: parsed.SMTP_URL, from: parsed.MAIL_FROM, replyTo: parsed.MAIL_REPLY_TO },
  };
}

function embeddedSecretKeys(database: DatabaseConfig): SecretKeys {
  // Unreachable through loadConfig (DATABASE_URL without SECRET_KEYS is refused), but the type allows it.
  if (database.kind !== 'pglite') throw new ConfigError(['SECRET_KEYS: required when DATABASE_URL is set']);
  const file = join(database.dataDir, secretKeysFileName);
  const keys = [randomBytes(48).toString('base64url')];
  try {
    mkdirSync(database.dataDir, { recursive: true, mode: 0o700 });
    // `wx` fails when the file exists, so two processes starting at once cannot overwrite each other's keys.
    writeFileSync(file, `${JSON.stringify({ keys }, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    return { keys, source: 'created', file };
  } catch (error) {
    if (!(error instanceof Error && 'code' in error && error.code === 'EEXIST')) {
      throw new ConfigError([`DATA_DIR: cannot create ${file} (${describeFsError(error)})`]);
    }
  }
  return { keys: readSecretKeysFile(file), source: 'data-dir', file };
}

function embeddedSigningKey(database: DatabaseConfig): OidcSigningKey {
  // Unreachable through loadConfig (DATABASE_URL without OIDC_SIGNING_KEY is refused), but the type allows it.
  if (database.kind !== 'pglite')
    throw new ConfigError(['OIDC_SIGNING_KEY: required when DATABASE_URL is set']);
  const file = join(database.dataDir, signingKeyFileName);
  const key = generateSigningKey();
  try {
    mkdirSync(database.dataDir, { recursive: true, mode: 0o700 });
    writeFileSync(file, `${JSON.stringify(key, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    return { key, source: 'created', file };
  } catch (error) {
    if (!(error instanceof Error && 'code' in error && error.code === 'EEXIST')) {
      throw new ConfigError([`DATA_DIR: cannot create ${file} (${describeFsError(error)})`]);
    }
  }
  let content: unknown;
  try {
    content = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError([`DATA_DIR: cannot read ${file} (${describeFsError(error)})`]);
  }
  try {
    return { key: parseSigningKey(content), source: 'data-dir', file };
  } catch (error) {
    throw new ConfigError([
      `DATA_DIR: ${file} is not a valid signing key (${describeFsError(error)}). ` +
        'Fix it, or delete it to generate a new one (ID tokens signed with the old key then fail to verify).',
    ]);
  }
}

const secretKeysFileSchema = z.object({ keys: z.array(z.string().min(minSecretKeyLength)).min(1) });

function readSecretKeysFile(file: string): string[] {
  let content: unknown;
  try {
    content = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError([`DATA_DIR: cannot read ${file} (${describeFsError(error)})`]);
  }
  const result = secretKeysFileSchema.safeParse(content);
  if (!result.success) {
    throw new ConfigError([
      `DATA_DIR: ${file} is not a valid key file; expected {"keys": ["<at least ${minSecretKeyLength} characters>", …]}. ` +
        'Fix it, or delete it to generate new keys (sessions signed with the old keys then end).',
    ]);
  }
  return result.data.keys;
}

function describeFsError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
