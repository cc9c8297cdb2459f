import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { generateSigningKey, parseSigningKey } from '@innkeep/auth';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, loadDataConfig } from '../src/config.ts';

const key = 'k'.repeat(32);
const signingKey = generateSigningKey();
const signingKeyJson = JSON.stringify(signingKey);
// Both keys from the environment, so a test writes no key files into the repository's default DATA_DIR.
const keys = { SECRET_KEYS: key, OIDC_SIGNING_KEY: signingKeyJson };
const otherKey = 'z'.repeat(40);
const postgresUrl = 'postgres://innkeep:s3cret-password@db.internal:5432/innkeep';

const tempDirs: string[] = [];
function tempDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'innkeep-config-'));
  tempDirs.push(dir);
  return join(dir, 'pglite');
}

afterEach(() => {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function problemsOf(env: NodeJS.ProcessEnv): readonly string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('defaults to port 3000 on 127.0.0.1, the embedded database in the repository, and demo data', () => {
    const config = loadConfig(keys);
    expect(config).toEqual({
      port: 3000,
      host: '127.0.0.1',
      baseUrl: 'http://localhost:3000',
      database: { kind: 'pglite', dataDir: resolve(import.meta.dirname, '../../../.data') },
      redisUrl: undefined,
      demoData: true,
      secretKeys: { keys: [key], source: 'environment' },
      oidcSigningKey: { key: signingKey, source: 'environment' },
      trustProxy: false,
      mcpAllowedOrigins: [],
      mcpRateLimit: 300,
      restRateLimit: 120,
      restPartnerRateLimit: 1_200,
      registrationRateLimit: { max: 3_000, timeWindowMs: 600_000 },
      messageRules: true,
      webhooks: true,
      webhookAllowPrivate: false,
      webhookEventRetentionDays: 30,
      calendarImports: true,
      calendarImportIntervalMinutes: 15,
      calendarImportAllowPrivate: false,
      emailDelivery: false,
      metricsPort: undefined,
      shutdownDrainMs: 10_000,
      logLevel: 'info',
    });
  });

  it('reads METRICS_PORT as a port other than PORT, and SHUTDOWN_DRAIN_MS as whole milliseconds', () => {
    expect(loadConfig({ ...keys, METRICS_PORT: '9464', SHUTDOWN_DRAIN_MS: '2500' })).toMatchObject({
      metricsPort: 9464,
      shutdownDrainMs: 2500,
    });
    expect(problemsOf({ ...keys, PORT: '8080', METRICS_PORT: '8080' })).toEqual([
      'METRICS_PORT: must differ from PORT, so the metrics are never served on the public port',
    ]);
    expect(problemsOf({ ...keys, METRICS_PORT: '3000' })).toHaveLength(1);
    expect(problemsOf({ ...keys, METRICS_PORT: 'x', SHUTDOWN_DRAIN_MS: '10s' })).toEqual([
      'METRICS_PORT: must be a port number from 1 to 65535 (got "x")',
      'SHUTDOWN_DRAIN_MS: must be a whole number of milliseconds, from 0 to 9999999 (got "10s")',
    ]);
  });

  it('reads MESSAGE_RULES as on or off', () => {
    expect(loadConfig({ ...keys, MESSAGE_RULES: 'off' }).messageRules).toBe(false);
    expect(loadConfig({ ...keys, MESSAGE_RULES: 'on' }).messageRules).toBe(true);
    expect(problemsOf({ ...keys, MESSAGE_RULES: 'yes' })).toEqual([
      'MESSAGE_RULES: must be on or off (got "yes")',
    ]);
  });

  it('reads WEBHOOKS as on or off and WEBHOOK_ALLOW_PRIVATE as true or false', () => {
    expect(loadConfig({ ...keys, WEBHOOKS: 'off' }).webhooks).toBe(false);
    expect(loadConfig({ ...keys, WEBHOOKS: 'on' }).webhooks).toBe(true);
    expect(loadConfig({ ...keys, WEBHOOK_ALLOW_PRIVATE: 'true' }).webhookAllowPrivate).toBe(true);
    expect(loadConfig({ ...keys, WEBHOOK_ALLOW_PRIVATE: 'false' }).webhookAllowPrivate).toBe(false);
    expect(problemsOf({ ...keys, WEBHOOKS: 'yes', WEBHOOK_ALLOW_PRIVATE: 'sometimes' })).toEqual([
      'WEBHOOKS: must be on or off (got "yes")',
      'WEBHOOK_ALLOW_PRIVATE: must be true or false (got "sometimes")',
    ]);
  });

  it('reads CALENDAR_IMPORTS, CALENDAR_IMPORT_INTERVAL_MINUTES (1–1440) and CALENDAR_IMPORT_ALLOW_PRIVATE', () => {
    expect(loadConfig({ ...keys, CALENDAR_IMPORTS: 'off' }).calendarImports).toBe(false);
    expect(loadConfig({ ...keys, CALENDAR_IMPORT_INTERVAL_MINUTES: '1' }).calendarImportIntervalMinutes).toBe(
      1,
    );
    expect(
      loadConfig({ ...keys, CALENDAR_IMPORT_INTERVAL_MINUTES: '1440' }).calendarImportIntervalMinutes,
    ).toBe(1_440);
    expect(loadConfig({ ...keys, CALENDAR_IMPORT_ALLOW_PRIVATE: 'true' }).calendarImportAllowPrivate).toBe(
      true,
    );
    for (const value of ['0', '1441', '-5', '2.5', '015', 'hourly']) {
      expect(problemsOf({ ...keys, CALENDAR_IMPORT_INTERVAL_MINUTES: value })).toEqual([
        `CALENDAR_IMPORT_INTERVAL_MINUTES: must be a whole number of minutes, from 1 to 1440 (got "${value}")`,
      ]);
    }
    expect(problemsOf({ ...keys, CALENDAR_IMPORTS: 'yes', CALENDAR_IMPORT_ALLOW_PRIVATE: 'maybe' })).toEqual([
      'CALENDAR_IMPORTS: must be on or off (got "yes")',
      'CALENDAR_IMPORT_ALLOW_PRIVATE: must be true or false (got "maybe")',
    ]);
  });

  it('reads WEBHOOK_EVENT_RETENTION_DAYS as whole days from 1 to 3650, 30 by default', () => {
    expect(loadConfig(keys).webhookEventRetentionDays).toBe(30);
    expect(loadConfig({ ...keys, WEBHOOK_EVENT_RETENTION_DAYS: '1' }).webhookEventRetentionDays).toBe(1);
    expect(loadConfig({ ...keys, WEBHOOK_EVENT_RETENTION_DAYS: '3650' }).webhookEventRetentionDays).toBe(
      3_650,
    );
    for (const value of ['0', '3651', '-1', '7.5', '030', 'month']) {
      expect(problemsOf({ ...keys, WEBHOOK_EVENT_RETENTION_DAYS: value })).toEqual([
        `WEBHOOK_EVENT_RETENTION_DAYS: must be a whole number of days, from 1 to 3650 (got "${value}")`,
      ]);
    }
  });

  it('reads MCP_RATE_LIMIT as whole requests a minute', () => {
    expect(loadConfig({ ...keys, MCP_RATE_LIMIT: '1200' }).mcpRateLimit).toBe(1200);
    for (const value of ['0', '-5', '1.5', 'lots']) {
      expect(problemsOf({ ...keys, MCP_RATE_LIMIT: value })).toEqual([
        `MCP_RATE_LIMIT: must be a whole number of requests a minute, at least 1 (got "${value}")`,
      ]);
    }
  });

  it('reads REST_RATE_LIMIT and REST_PARTNER_RATE_LIMIT as whole requests a minute', () => {
    expect(loadConfig({ ...keys, REST_RATE_LIMIT: '600', REST_PARTNER_RATE_LIMIT: '6000' })).toMatchObject({
      restRateLimit: 600,
      restPartnerRateLimit: 6_000,
    });
    expect(problemsOf({ ...keys, REST_RATE_LIMIT: '1.5', REST_PARTNER_RATE_LIMIT: '0' })).toEqual([
      'REST_RATE_LIMIT: must be a whole number of requests a minute, at least 1 (got "1.5")',
      'REST_PARTNER_RATE_LIMIT: must be a whole number of requests a minute, at least 1 (got "0")',
    ]);
  });

  it('reads OAUTH_REGISTRATION_RATE_LIMIT per OAUTH_REGISTRATION_RATE_WINDOW_MINUTES', () => {
    expect(
      loadConfig({
        ...keys,
        OAUTH_REGISTRATION_RATE_LIMIT: '10000',
        OAUTH_REGISTRATION_RATE_WINDOW_MINUTES: '60',
      }).registrationRateLimit,
    ).toEqual({ max: 10_000, timeWindowMs: 3_600_000 });
    expect(
      loadConfig({ ...keys, OAUTH_REGISTRATION_RATE_WINDOW_MINUTES: '1440' }).registrationRateLimit,
    ).toEqual({
      max: 3_000,
      timeWindowMs: 86_400_000,
    });
    expect(
      problemsOf({
        ...keys,
        OAUTH_REGISTRATION_RATE_LIMIT: '0',
        OAUTH_REGISTRATION_RATE_WINDOW_MINUTES: '1441',
      }),
    ).toEqual([
      'OAUTH_REGISTRATION_RATE_LIMIT: must be a whole number of registrations, at least 1 (got "0")',
      'OAUTH_REGISTRATION_RATE_WINDOW_MINUTES: must be a whole number of minutes, from 1 to 1440 (got "1441")',
    ]);
    for (const value of ['0', '1.5', '10m', '-1']) {
      expect(problemsOf({ ...keys, OAUTH_REGISTRATION_RATE_WINDOW_MINUTES: value })).toEqual([
        `OAUTH_REGISTRATION_RATE_WINDOW_MINUTES: must be a whole number of minutes, from 1 to 1440 (got "${value}")`,
      ]);
    }
  });

  it('reads MCP_ALLOWED_ORIGINS as a list of origins, and refuses anything that is not one', () => {
    expect(
      loadConfig({ ...keys, MCP_ALLOWED_ORIGINS: 'https://a.example.com, http://localhost:6274' })
        .mcpAllowedOrigins,
    ).toEqual(['https://a.example.com', 'http://localhost:6274']);
    for (const value of [
      'https://a.example.com/',
      'https://a.example.com/app',
      'ftp://a.example.com',
      'nonsense',
    ]) {
      expect(problemsOf({ ...keys, MCP_ALLOWED_ORIGINS: value })).toEqual([
        'MCP_ALLOWED_ORIGINS: must be a comma-separated list of origins such as https://assistant.example.com ' +
          `(no path or trailing slash) (got "${value}")`,
      ]);
    }
  });

  it('derives the default BASE_URL from PORT and drops a trailing slash from an explicit one', () => {
    expect(loadConfig({ ...keys, PORT: '8080' }).baseUrl).toBe('http://localhost:8080');
    const behindProxy = loadConfig({ ...keys, BASE_URL: 'https://stays.example.com/innkeep/' });
    expect(behindProxy.baseUrl).toBe('https://stays.example.com/innkeep');
  });

  it('uses PostgreSQL when DATABASE_URL is set, and then seeds no demo data unless asked', () => {
    const config = loadConfig({
      DATABASE_URL: postgresUrl,
      ...keys,
      REDIS_URL: 'redis://cache:6379',
    });
    expect(config.database).toEqual({ kind: 'postgres', url: postgresUrl });
    expect(config.demoData).toBe(false);
    expect(config.redisUrl).toBe('redis://cache:6379');
    expect(loadConfig({ DATABASE_URL: postgresUrl, ...keys, DEMO_DATA: 'true' }).demoData).toBe(true);
    expect(loadConfig({ ...keys, DEMO_DATA: 'false' }).demoData).toBe(false);
  });

  it('treats empty variables as unset', () => {
    const config = loadConfig({ ...keys, PORT: '', DATABASE_URL: ' ', LOG_LEVEL: '' });
    expect(config).toMatchObject({ port: 3000, logLevel: 'info', database: { kind: 'pglite' } });
  });

  it.each(['abc', '0', '65536', '80.5', '-1'])('refuses PORT=%s', (port) => {
    expect(problemsOf({ ...keys, PORT: port })).toEqual([
      `PORT: must be a port number from 1 to 65535 (got "${port}")`,
    ]);
  });

  it('lists every bad variable at once and never echoes secret values', () => {
    const problems = problemsOf({
      PORT: 'http',
      BASE_URL: 'ftp://example.com',
      DATABASE_URL: 'mysql://root:hunter2@db/innkeep',
      REDIS_URL: 'http://cache',
      DEMO_DATA: 'maybe',
      LOG_LEVEL: 'loud',
      ...keys,
    });
    expect(problems.map((problem) => problem.split(':')[0])).toEqual([
      'DATABASE_URL',
      'LOG_LEVEL',
      'PORT',
      'BASE_URL',
      'REDIS_URL',
      'DEMO_DATA',
    ]);
    expect(problems.join('\n')).not.toContain('hunter2');
    expect(problems).toContain('DEMO_DATA: must be true or false (got "maybe")');
  });

  it('puts every problem in the error message, one per line', () => {
    expect(() => loadConfig({ PORT: 'x', LOG_LEVEL: 'loud', ...keys })).toThrow(
      /configuration is invalid:\n {2}- LOG_LEVEL: .*\n {2}- PORT: /,
    );
  });

  describe('SECRET_KEYS', () => {
    it('is a comma-separated list whose first key signs', () => {
      const config = loadConfig({ ...keys, SECRET_KEYS: ` ${key} , ${otherKey}` });
      expect(config.secretKeys).toEqual({ keys: [key, otherKey], source: 'environment' });
    });

    it('refuses keys shorter than 32 characters without echoing them', () => {
      const problems = problemsOf({ ...keys, SECRET_KEYS: `${key},short-key` });
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(/^SECRET_KEYS: .*at least 32 characters/);
      expect(problems[0]).not.toContain('short-key');
    });

    it('is required with DATABASE_URL, because all instances must share the keys', () => {
      const problems = problemsOf({
        DATABASE_URL: postgresUrl,
        PORT: 'nope',
        OIDC_SIGNING_KEY: signingKeyJson,
      });
      expect(problems).toHaveLength(2);
      expect(problems[0]).toMatch(/^PORT: /);
      expect(problems[1]).toMatch(/^SECRET_KEYS: required when DATABASE_URL is set/);
    });

    it('is generated once for the embedded database, stored with mode 0600, and reused', () => {
      const dataDir = tempDataDir();
      const first = loadConfig({ DATA_DIR: dataDir });
      const file = join(dataDir, 'secret-keys.json');
      expect(first.secretKeys).toMatchObject({ source: 'created', file });
      expect(first.secretKeys.keys).toHaveLength(1);
      expect(first.secretKeys.keys[0]?.length).toBeGreaterThanOrEqual(32);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ keys: first.secretKeys.keys });

      const second = loadConfig({ DATA_DIR: dataDir });
      expect(second.secretKeys).toEqual({ keys: first.secretKeys.keys, source: 'data-dir', file });
    });

    it('prefers SECRET_KEYS over a stored key file', () => {
      const dataDir = tempDataDir();
      loadConfig({ DATA_DIR: dataDir });
      expect(loadConfig({ DATA_DIR: dataDir, ...keys }).secretKeys).toEqual({
        keys: [key],
        source: 'environment',
      });
    });

    it('refuses a damaged key file instead of replacing it', () => {
      const dataDir = tempDataDir();
      loadConfig({ DATA_DIR: dataDir });
      const file = join(dataDir, 'secret-keys.json');
      writeFileSync(file, '{"keys": ["too short"]}');
      const problems = problemsOf({ DATA_DIR: dataDir });
      expect(problems).toHaveLength(1);
      expect(problems[0]).toContain(`${file} is not a valid key file`);
      expect(readFileSync(file, 'utf8')).toBe('{"keys": ["too short"]}');
    });
  });
  describe('OIDC_SIGNING_KEY', () => {
    it('is a private RSA JWK in JSON; a missing kid becomes its thumbprint', () => {
      const { kid, ...withoutKid } = signingKey;
      const config = loadConfig({ ...keys, OIDC_SIGNING_KEY: JSON.stringify(withoutKid) });
      expect(config.oidcSigningKey).toEqual({ key: { ...withoutKid, kid }, source: 'environment' });
    });

    it.each([
      ['not JSON', '{"kty": "RSA",'],
      ['a public key', JSON.stringify({ ...signingKey, d: undefined })],
      ['an EC key', JSON.stringify({ kty: 'EC', crv: 'P-256', x: 'eA', y: 'eQ', d: 'ZA' })],
    ])('refuses %s without echoing it', (_case, value) => {
      const problems = problemsOf({ SECRET_KEYS: key, OIDC_SIGNING_KEY: value });
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(
        /^OIDC_SIGNING_KEY: must be a private RSA JWK as JSON \(.+\); generate one with: node -e/,
      );
      expect(problems[0]).not.toContain(signingKey.n.slice(0, 16));
      expect(problems[0]).not.toContain('{"kty"');
    });

    it('is required with DATABASE_URL, because all instances must sign ID tokens alike', () => {
      const problems = problemsOf({ DATABASE_URL: postgresUrl, SECRET_KEYS: key });
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(/^OIDC_SIGNING_KEY: required when DATABASE_URL is set/);
    });

    it('is generated once for the embedded database, stored with mode 0600, and reused', () => {
      const dataDir = tempDataDir();
      const first = loadConfig({ DATA_DIR: dataDir, SECRET_KEYS: key });
      const file = join(dataDir, 'oidc-signing-key.json');
      expect(first.oidcSigningKey).toMatchObject({ source: 'created', file });
      expect(first.oidcSigningKey.key).toMatchObject({ kty: 'RSA', alg: 'RS256' });
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(parseSigningKey(JSON.parse(readFileSync(file, 'utf8')))).toEqual(first.oidcSigningKey.key);

      const second = loadConfig({ DATA_DIR: dataDir, SECRET_KEYS: key });
      expect(second.oidcSigningKey).toEqual({ key: first.oidcSigningKey.key, source: 'data-dir', file });
      expect(loadConfig({ DATA_DIR: dataDir, ...keys }).oidcSigningKey).toEqual({
        key: signingKey,
        source: 'environment',
      });
    });

    it('refuses a damaged key file instead of replacing it', () => {
      const dataDir = tempDataDir();
      loadConfig({ DATA_DIR: dataDir, SECRET_KEYS: key });
      const file = join(dataDir, 'oidc-signing-key.json');
      writeFileSync(file, '{"kty": "RSA"}');
      const problems = problemsOf({ DATA_DIR: dataDir, SECRET_KEYS: key });
      expect(problems).toHaveLength(1);
      expect(problems[0]).toContain(`${file} is not a valid signing key`);
      expect(readFileSync(file, 'utf8')).toBe('{"kty": "RSA"}');
    });
  });

  describe('SMTP_URL, MAIL_FROM and MAIL_REPLY_TO', () => {
    it('leave email delivery off unless SMTP_URL is set', () => {
      expect(loadConfig(keys).mail).toBeUndefined();
      expect(loadConfig({ ...keys, MAIL_FROM: 'stays@example.com' }).mail).toBeUndefined();
    });

    it('turn it on with an smtp:// or smtps:// URL and a sender, the reply address optional', () => {
      expect(
        loadConfig({ ...keys, SMTP_URL: 'smtp://mail.example.com:587', MAIL_FROM: 'stays@example.com' }),
      ).toMatchObject({
        emailDelivery: true,
        mail: { smtpUrl: 'smtp://mail.example.com:587', from: 'stays@example.com', replyTo: undefined },
      });
      expect(
        loadConfig({
          ...keys,
          SMTP_URL: 'smtps://stays:s3cret@mail.example.com',
          MAIL_FROM: '"Harbor Stays" <stays@example.com>',
          MAIL_REPLY_TO: 'Olivia <olivia@example.com>',
        }).mail,
      ).toEqual({
        smtpUrl: 'smtps://stays:s3cret@mail.example.com',
        from: '"Harbor Stays" <stays@example.com>',
        replyTo: 'Olivia <olivia@example.com>',
      });
    });

    it('refuses another scheme or a URL without a host, without echoing it', () => {
      for (const url of ['https://stays:hunter2@mail.example.com', 'smtp://', 'mail.example.com:587']) {
        const problems = problemsOf({ ...keys, SMTP_URL: url, MAIL_FROM: 'stays@example.com' });
        expect(problems).toEqual([
          'SMTP_URL: must be an smtp:// or smtps:// URL with a host, e.g. smtps://user:password@mail.example.com:465',
        ]);
      }
    });

    it('require MAIL_FROM with SMTP_URL, and refuse addresses that are not one', () => {
      expect(problemsOf({ ...keys, SMTP_URL: 'smtp://mail.example.com' })).toEqual([
        'MAIL_FROM: required when SMTP_URL is set: the address guests get messages from, e.g. stays@example.com',
      ]);
      expect(
        problemsOf({
          ...keys,
          SMTP_URL: 'smtp://mail.example.com',
          MAIL_FROM: 'stays',
          MAIL_REPLY_TO: 'a b@c',
        }),
      ).toEqual([
        'MAIL_FROM: must be an email address, e.g. stays@example.com or Harbor Stays <stays@example.com> (got "stays")',
        'MAIL_REPLY_TO: must be an email address, e.g. stays@example.com or Harbor Stays <stays@example.com> (got "a b@c")',
      ]);
    });
  });

  describe('TRUST_PROXY', () => {
    it('is off unless set to true', () => {
      expect(loadConfig(keys).trustProxy).toBe(false);
      expect(loadConfig({ ...keys, TRUST_PROXY: 'true' }).trustProxy).toBe(true);
      expect(problemsOf({ ...keys, TRUST_PROXY: 'sometimes' })).toEqual([
        'TRUST_PROXY: must be true or false (got "sometimes")',
      ]);
    });
  });
});

describe('loadDataConfig', () => {
  it('reads only where the data lives, so the CLI needs neither PORT nor SECRET_KEYS', () => {
    const dataDir = tempDataDir();
    expect(loadDataConfig({ DATA_DIR: dataDir, PORT: 'not a port' })).toEqual({
      database: { kind: 'pglite', dataDir },
      logLevel: 'info',
      emailDelivery: false,
    });
    expect(loadDataConfig({ DATABASE_URL: postgresUrl, LOG_LEVEL: 'debug' })).toEqual({
      database: { kind: 'postgres', url: postgresUrl },
      logLevel: 'debug',
      emailDelivery: false,
    });
  });

  it('says whether guest messages are emailed, so CLI commands write them as the server would', () => {
    const dataDir = tempDataDir();
    expect(loadDataConfig({ DATA_DIR: dataDir, SMTP_URL: 'smtp://mail.example.com:587' }).emailDelivery).toBe(
      true,
    );
    expect(loadDataConfig({ DATA_DIR: dataDir, SMTP_URL: ' ' }).emailDelivery).toBe(false);
  });

  it('refuses a DATABASE_URL that is not PostgreSQL', () => {
    expect(() => loadDataConfig({ DATABASE_URL: 'sqlite:///tmp/x.db' })).toThrow(
      'DATABASE_URL: must be a postgres:// or postgresql:// URL',
    );
  });
});
