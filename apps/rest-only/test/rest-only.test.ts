import { spawn } from 'node:child_process';
import { authorizationServer, generateSigningKey, withAuthTables } from '@innkeep/auth';
import { freePort, obtainAccessToken, openAuthTestDatabase } from '@innkeep/auth/testing';
import { systemClock } from '@innkeep/domain';
import { createIdentityUseCases, createOperatorUseCases } from '@innkeep/storage';
import type { TestDatabase } from '@innkeep/storage/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRestOnlyApp } from '../src/app.ts';
import { ConfigError, loadRestOnlyConfig } from '../src/config.ts';

const databaseUrl = 'postgres://innkeep:secret@db.internal:5432/innkeep';

function problemsOf(env: NodeJS.ProcessEnv): readonly string[] {
  try {
    loadRestOnlyConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadRestOnlyConfig', () => {
  it('needs BASE_URL and DATABASE_URL, and never echoes the database URL', () => {
    const problems = problemsOf({ DATABASE_URL: 'mysql://root:hunter2@db/innkeep' });
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^BASE_URL: is required/);
    expect(problems[1]).toMatch(/^DATABASE_URL: must be the postgres/);
    expect(problems.join('\n')).not.toContain('hunter2');
  });

  it('defaults to port 3002 on 127.0.0.1, 120 and 1,200 requests a minute, and drops a trailing slash', () => {
    expect(loadRestOnlyConfig({ BASE_URL: 'https://stays.example.com/', DATABASE_URL: databaseUrl })).toEqual(
      {
        port: 3002,
        host: '127.0.0.1',
        baseUrl: 'https://stays.example.com',
        databaseUrl,
        redisUrl: undefined,
        logLevel: 'info',
        trustProxy: false,
        restRateLimit: 120,
        restPartnerRateLimit: 1_200,
        metricsPort: undefined,
        shutdownDrainMs: 10_000,
      },
    );
  });

  it('reads REST_RATE_LIMIT and REST_PARTNER_RATE_LIMIT as whole requests a minute', () => {
    const env = { BASE_URL: 'https://stays.example.com', DATABASE_URL: databaseUrl };
    expect(
      loadRestOnlyConfig({ ...env, REST_RATE_LIMIT: '600', REST_PARTNER_RATE_LIMIT: '6000' }),
    ).toMatchObject({ restRateLimit: 600, restPartnerRateLimit: 6_000 });
    expect(problemsOf({ ...env, REST_RATE_LIMIT: '0', REST_PARTNER_RATE_LIMIT: 'lots' })).toEqual([
      'REST_RATE_LIMIT: must be a whole number of requests a minute, at least 1 (got "0")',
      'REST_PARTNER_RATE_LIMIT: must be a whole number of requests a minute, at least 1 (got "lots")',
    ]);
  });

  it('keeps the metrics off the public port', () => {
    const env = { BASE_URL: 'https://stays.example.com', DATABASE_URL: databaseUrl };
    expect(problemsOf({ ...env, METRICS_PORT: '3002' })).toEqual([
      'METRICS_PORT: must differ from PORT, so the metrics are never served on the public port',
    ]);
  });

  it('stops the process with every problem when started without a configuration', async () => {
    const child = spawn(process.execPath, ['src/main.ts'], {
      cwd: new URL('..', import.meta.url),
      env: { PATH: process.env.PATH ?? '' },
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain("The REST server's configuration is invalid");
    expect(stderr).toContain('BASE_URL: is required');
    expect(stderr).toContain('DATABASE_URL: is required');
  });
});

describe('the REST server beside the Innkeep server', () => {
  let database: TestDatabase;
  let authServer: FastifyInstance;
  let restServer: FastifyInstance;
  let baseUrl: string;
  let restOrigin: string;
  let authToken: string;
  const owner = { email: 'olivia@example.test', password: 'correct horse battery' };

  beforeAll(async () => {
    database = await openAuthTestDatabase('pglite');
    const db = withAuthTables(database.db);
    const operator = createOperatorUseCases({ db, clock: systemClock });
    await operator.createOwnerAccount({
      accountName: 'Harbour Stays',
      ...owner,
      firstName: 'Olivia',
      lastName: 'Owner',
      timeZone: 'Europe/Lisbon',
      currency: 'EUR',
      subscriptionStatus: 'active',
    });
    // What `npm run innkeep -- new-auth-token` and the settings page both do.
    ({ authToken } = await operator.issueAuthToken({ email: owner.email }));

    // The authorization server answers at BASE_URL; the REST server is another process of the same
    // deployment, reached here directly (behind a load balancer it would share the address).
    const authPort = await freePort();
    baseUrl = `http://127.0.0.1:${authPort}`;
    authServer = Fastify({ logger: false });
    await authServer.register(authorizationServer, {
      db,
      baseUrl,
      secretKeys: ['rest-only-test-key-0123456789abcdefghij'],
      signingKeys: [generateSigningKey()],
      identity: createIdentityUseCases({ db, clock: systemClock }),
      clock: systemClock,
    });
    await authServer.listen({ port: authPort, host: '127.0.0.1' });

    const restPort = await freePort();
    restOrigin = `http://127.0.0.1:${restPort}`;
    restServer = buildRestOnlyApp({
      database,
      clock: systemClock,
      logLevel: 'silent',
      baseUrl,
      trustProxy: false,
      rateLimits: { perCredential: 50, withApiKey: 500 },
    });
    await restServer.listen({ port: restPort, host: '127.0.0.1' });
  }, 180_000);

  afterAll(async () => {
    await restServer?.close();
    await authServer?.close();
    await database?.close();
  });

  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${restOrigin}${path}`, { headers: { accept: 'application/json', ...headers } });

  it('serves GET /api/getUser to an authToken the operator issued, with RateLimit headers', async () => {
    const response = await get('/api/getUser', { authToken });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ email: owner.email });
    expect(response.headers.get('ratelimit-limit')).toBe('50');
  });

  it('refuses a request without credentials with JSON and a challenge naming the metadata', async () => {
    const response = await get('/api/getUser');
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: 'unauthenticated' });
    expect(response.headers.get('www-authenticate')).toContain(
      `resource_metadata="${baseUrl}/.well-known/oauth-protected-resource/api"`,
    );
  });

  it('serves the protected resource metadata of /api, naming the authorization server at BASE_URL', async () => {
    const response = await get('/.well-known/oauth-protected-resource/api');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      resource: `${baseUrl}/api`,
      authorization_servers: [baseUrl],
    });
  });

  it('serves a Bearer token that the Innkeep server issued for BASE_URL/api', async () => {
    const { accessToken } = await obtainAccessToken({
      baseUrl,
      ...owner,
      resource: 'api',
      scopes: ['user:read'],
    });
    const response = await get('/api/getuser/', { authorization: `Bearer ${accessToken}` });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ email: owner.email });
  });

  it('shows whole calendar export URLs at BASE_URL, where the Innkeep server serves the feeds', async () => {
    const { id: accountId } = await database.db.selectFrom('accounts').select('id').executeTakeFirstOrThrow();
    await database.db
      .insertInto('listings')
      .values({
        id: 'lst_rest_only',
        account_id: accountId,
        name: 'Harbour Loft',
        property_type: 'apartment',
        address: '1 Rua do Cais',
        city: 'Lisbon',
        region: null,
        country_code: 'PT',
        postal_code: null,
        latitude: null,
        longitude: null,
        time_zone: 'Europe/Lisbon',
        currency: 'EUR',
        bedrooms: 1,
        bathrooms: 1,
        max_guests: 2,
        base_price_minor: 10_000,
        min_price_minor: null,
      })
      .execute();
    await database.db
      .insertInto('channel_accounts')
      .values({
        id: 'cha_rest_only',
        account_id: accountId,
        channel: 'vrbo',
        external_account_id: null,
        display_name: 'Vrbo',
        email: null,
        connection_type: 'ical',
        status: 'connected',
        last_sync_at: null,
        last_error: null,
      })
      .execute();
    await database.db
      .insertInto('listing_channel_links')
      .values({
        listing_id: 'lst_rest_only',
        channel_account_id: 'cha_rest_only',
        external_listing_id: 'V-1',
        url: null,
      })
      .execute();
    const response = await get('/api/getListingDetails/lst_rest_only', { authToken });
    expect(response.status).toBe(200);
    const { channels } = (await response.json()) as { channels: { calendarExportUrl: string }[] };
    const exportUrl = channels[0]?.calendarExportUrl ?? '';
    expect(exportUrl).toMatch(new RegExp(`^${baseUrl}/ical/[0-9a-f]{64}\\.ics$`));
    // The load balancer sends /ical to the Innkeep server: this app has no such route.
    expect((await get(exportUrl.slice(baseUrl.length))).status).toBe(404);
  });

  it('answers unknown /api paths with a JSON 404 and serves /health', async () => {
    const missing = await get('/api/nope', { authToken });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 'not_found' });
    expect(await (await get('/health')).json()).toEqual({ status: 'ok', database: 'pglite' });
  });
});
