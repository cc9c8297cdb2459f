import {
  authorizationServer,
  createPostgresAuthNotifications,
  generateSigningKey,
  withAuthTables,
} from '@innkeep/auth';
import { freePort, obtainAccessToken, openAuthTestDatabase } from '@innkeep/auth/testing';
import { systemClock } from '@innkeep/domain';
import {
  createIdentityUseCases,
  createOperatorUseCases,
  type DatabaseHandle,
  openDatabase,
} from '@innkeep/storage';
import type { TestDatabase } from '@innkeep/storage/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildMcpOnlyApp } from '../src/app.ts';

// The tool server as main.ts builds it on PostgreSQL: it caches token checks, and what the Innkeep server
// (another process of the deployment, here another app on the same database) changes reaches it at once.
describe('the tool server’s token cache on PostgreSQL', () => {
  let database: TestDatabase;
  let toolDatabase: DatabaseHandle;
  let authServer: FastifyInstance;
  let toolServer: FastifyInstance;
  let baseUrl: string;
  let toolOrigin: string;
  let accountId: string;
  const owner = { email: 'olivia@example.test', password: 'correct horse battery' };

  beforeAll(async () => {
    database = await openAuthTestDatabase('postgres');
    const db = withAuthTables(database.db);
    ({ accountId } = await createOperatorUseCases({ db, clock: systemClock }).createOwnerAccount({
      accountName: 'Harbour Stays',
      ...owner,
      firstName: 'Olivia',
      lastName: 'Owner',
      timeZone: 'Europe/Lisbon',
      currency: 'EUR',
      subscriptionStatus: 'active',
    }));
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

    // The tool server's own connection pool and listener, as its main.ts opens them.
    toolDatabase = await openDatabase({ kind: 'postgres', url: database.url ?? '' });
    const listen = toolDatabase.listen;
    if (listen === undefined) throw new Error('a PostgreSQL handle must offer listen');
    const toolPort = await freePort();
    toolOrigin = `http://127.0.0.1:${toolPort}`;
    toolServer = buildMcpOnlyApp({
      database: toolDatabase,
      clock: systemClock,
      logLevel: 'silent',
      baseUrl,
      trustProxy: false,
      authNotifications: createPostgresAuthNotifications({ listen }),
    });
    await toolServer.listen({ port: toolPort, host: '127.0.0.1' });
  }, 180_000);

  afterAll(async () => {
    await toolServer?.close();
    await authServer?.close();
    await toolDatabase?.close();
    await database?.close();
  });

  const getUser = (token: string) =>
    fetch(`${toolOrigin}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'get_user', arguments: {} },
      }),
    });

  it('refuses a token at once after the Innkeep server revokes it', async () => {
    const { accessToken, client } = await obtainAccessToken({ baseUrl, ...owner, scopes: ['user:read'] });
    expect((await getUser(accessToken)).status).toBe(200);
    expect((await getUser(accessToken)).status).toBe(200);
    const revoked = await fetch(`${baseUrl}/oauth/token/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: accessToken, client_id: client.client_id }).toString(),
    });
    expect(revoked.status).toBe(200);
    await vi.waitFor(async () => expect((await getUser(accessToken)).status).toBe(401), { timeout: 2000 });
  });

  it('checks the subscription on every request, from facts a lapse replaces at once', async () => {
    const { accessToken } = await obtainAccessToken({ baseUrl, ...owner, scopes: ['user:read'] });
    expect((await getUser(accessToken)).status).toBe(200);
    const operator = createOperatorUseCases({ db: database.db, clock: systemClock });
    await operator.setSubscriptionStatus({ accountId, status: 'canceled' });
    await vi.waitFor(async () => expect((await getUser(accessToken)).status).toBe(403), { timeout: 2000 });
    await operator.setSubscriptionStatus({ accountId, status: 'active' });
    await vi.waitFor(async () => expect((await getUser(accessToken)).status).toBe(200), { timeout: 2000 });
  });
});
