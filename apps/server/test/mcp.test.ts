import { obtainAccessToken } from '@innkeep/auth/testing';
import { systemClock } from '@innkeep/domain';
import type { DatabaseHandle } from '@innkeep/storage';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { openOwnerDatabase, testAuthDeps, testOwner } from './support/app-deps.ts';
import { freePort } from './support/processes.ts';

describe('/mcp in the server app', () => {
  let database: DatabaseHandle;
  let app: FastifyInstance;
  let baseUrl: string;
  const owner = testOwner;

  beforeAll(async () => {
    database = await openOwnerDatabase();
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    app = buildApp({ ...testAuthDeps, baseUrl, database, clock: systemClock, logLevel: 'silent' });
    await app.listen({ port, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  const post = (token: string | undefined, message: unknown) =>
    fetch(`${baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      },
      body: JSON.stringify(message),
    });

  it('sends a client without a token to the metadata at BASE_URL', async () => {
    const response = await post(undefined, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain(
      `resource_metadata="${baseUrl}/.well-known/oauth-protected-resource/mcp"`,
    );
  });

  it('serves tools to a token from its own authorization server, bound to BASE_URL/mcp', async () => {
    const { accessToken } = await obtainAccessToken({ baseUrl, ...owner, scopes: ['user:read'] });
    const listed = await post(accessToken, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { result: { tools: unknown[] } }).result.tools.length).toBeGreaterThan(
      0,
    );
    const called = await post(accessToken, {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'get_user', arguments: {} },
    });
    expect(await called.json()).toMatchObject({
      id: 2,
      result: { structuredContent: { email: owner.email } },
    });
  });

  it('answers GET with 405 and DELETE with 204', async () => {
    const get = await fetch(`${baseUrl}/mcp`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST, DELETE');
    expect((await fetch(`${baseUrl}/mcp`, { method: 'DELETE' })).status).toBe(204);
  });
});
