import { spawn } from 'node:child_process';
import { authorizationServer, generateSigningKey, withAuthTables } from '@innkeep/auth';
import { freePort, obtainAccessToken, openAuthTestDatabase } from '@innkeep/auth/testing';
import { systemClock } from '@innkeep/domain';
import { createIdentityUseCases, createOperatorUseCases } from '@innkeep/storage';
import type { TestDatabase } from '@innkeep/storage/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMcpOnlyApp } from '../src/app.ts';
import { ConfigError, loadMcpOnlyConfig } from '../src/config.ts';

const databaseUrl = 'postgres://innkeep:secret@db.internal:5432/innkeep';

describe('loadMcpOnlyConfig', () => {
  it('needs BASE_URL and DATABASE_URL, and never echoes the database URL', () => {
    let problems: readonly string[] = [];
    try {
      loadMcpOnlyConfig({ DATABASE_URL: 'mysql://root:hunter2@db/innkeep' });
    } catch (error) {
      if (error instanceof ConfigError) problems = error.problems;
    }
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^BASE_URL: is required/);
    expect(problems[1]).toMatch(/^DATABASE_URL: must be the postgres/);
    expect(problems.join('\n')).not.toContain('hunter2');
  });

  it('defaults to port 3001 on 127.0.0.1 and no Redis, and drops a trailing slash from BASE_URL', () => {
    expect(loadMcpOnlyConfig({ BASE_URL: 'https://stays.example.com/', DATABASE_URL: databaseUrl })).toEqual({
      port: 3001,
      host: '127.0.0.1',
      baseUrl: 'https://stays.example.com',
      databaseUrl,
      redisUrl: undefined,
      logLevel: 'info',
      trustProxy: false,
      mcpAllowedOrigins: [],
      mcpRateLimit: 300,
      metricsPort: undefined,
      shutdownDrainMs: 10_000,
    });
  });

  it('reads METRICS_PORT and SHUTDOWN_DRAIN_MS, and keeps the metrics off the public port', () => {
    const env = { BASE_URL: 'https://stays.example.com', DATABASE_URL: databaseUrl };
    expect(loadMcpOnlyConfig({ ...env, METRICS_PORT: '9464', SHUTDOWN_DRAIN_MS: '0' })).toMatchObject({
      metricsPort: 9464,
      shutdownDrainMs: 0,
    });
    expect(() => loadMcpOnlyConfig({ ...env, METRICS_PORT: '3001' })).toThrow(
      /METRICS_PORT: must differ from PORT/,
    );
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
    expect(stderr).toContain('BASE_URL: is required');
    expect(stderr).toContain('DATABASE_URL: is required');
  });
});

describe('the tool server beside the Innkeep server', () => {
  let database: TestDatabase;
  let authServer: FastifyInstance;
  let toolServer: FastifyInstance;
  let baseUrl: string;
  let toolOrigin: string;
  const owner = { email: 'olivia@example.test', password: 'correct horse battery' };

  beforeAll(async () => {
    database = await openAuthTestDatabase('pglite');
    const db = withAuthTables(database.db);
    await createOperatorUseCases({ db, clock: systemClock }).createOwnerAccount({
      accountName: 'Harbour Stays',
      ...owner,
      firstName: 'Olivia',
      lastName: 'Owner',
      timeZone: 'Europe/Lisbon',
      currency: 'EUR',
      subscriptionStatus: 'active',
    });
    // The authorization server answers at BASE_URL; the tool server is another process of the same
    // deployment, reached here directly (behind a load balancer it would share the address).
    const authPort = await freePort();
    baseUrl = `http://127.0.0.1:${authPort}`;
    authServer = Fastify({ logger: false });
    await authServer.register(authorizationServer, {
      db,
      baseUrl,
      secretKeys: ['mcp-only-test-key-0123456789abcdefghijk'],
      signingKeys: [generateSigningKey()],
      identity: createIdentityUseCases({ db, clock: systemClock }),
      clock: systemClock,
    });
    await authServer.listen({ port: authPort, host: '127.0.0.1' });

    const toolPort = await freePort();
    toolOrigin = `http://127.0.0.1:${toolPort}`;
    toolServer = buildMcpOnlyApp({
      database,
      clock: systemClock,
      logLevel: 'silent',
      baseUrl,
      trustProxy: false,
    });
    await toolServer.listen({ port: toolPort, host: '127.0.0.1' });
  }, 180_000);

  afterAll(async () => {
    await toolServer?.close();
    await authServer?.close();
    await database?.close();
  });

  it('serves the protected resource metadata of /mcp, naming the authorization server at BASE_URL', async () => {
    const own = await fetch(`${toolOrigin}/.well-known/oauth-protected-resource/mcp`);
    expect(own.status).toBe(200);
    expect(await own.json()).toMatchObject({
      resource: `${baseUrl}/mcp`,
      authorization_servers: [baseUrl],
    });
  });

  it('answers /health', async () => {
    expect(await (await fetch(`${toolOrigin}/health`)).json()).toEqual({ status: 'ok', database: 'pglite' });
  });

  it('refuses a request without a token and serves one with a token the Innkeep server issued', async () => {
    const message = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'get_user', arguments: {} },
    };
    const send = (token?: string) =>
      fetch(`${toolOrigin}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        },
        body: JSON.stringify(message),
      });
    const refused = await send();
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain(
      `resource_metadata="${baseUrl}/.well-known/oauth-protected-resource/mcp"`,
    );
    const { accessToken } = await obtainAccessToken({ baseUrl, ...owner, scopes: ['user:read'] });
    const served = await send(accessToken);
    expect(served.status).toBe(200);
    expect(await served.json()).toMatchObject({
      id: 1,
      result: { structuredContent: { email: owner.email } },
    });
  });
});
