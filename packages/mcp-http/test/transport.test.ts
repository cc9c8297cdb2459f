import type { AccessTokenVerifier, VerifiedAccessToken } from '@innkeep/auth';
import { allScopes, type InnkeepDomain, systemClock } from '@innkeep/domain';
import { innkeepServerInfo } from '@innkeep/mcp-tools';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpRoute } from '../src/mcp-route.ts';
import {
  demoOwner,
  type McpWorld,
  openMcpWorld,
  post,
  type RunningApp,
  rpc,
  startApp,
  tokenFor,
} from './support/mcp-world.ts';
import { toolErrorIn } from './support/tool-error.ts';

describe('the /mcp transport, with a real token on a listening app', () => {
  let world: McpWorld;
  let server: RunningApp;
  let token: string;

  beforeAll(async () => {
    world = await openMcpWorld('pglite');
    server = await startApp(world);
    token = await tokenFor(server, await demoOwner(world));
  }, 120_000);

  afterAll(async () => {
    await server?.app.close();
    await world?.close();
  });

  it('answers initialize with JSON and no session id', async () => {
    const reply = await post(
      server.mcpUrl,
      rpc('initialize', {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 't', version: '1' },
      }),
      token,
      { 'mcp-protocol-version': '2025-06-18' },
    );
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    expect(reply.headers.get('mcp-session-id')).toBeNull();
    expect(reply.body).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      result: { protocolVersion: '2025-06-18', serverInfo: { name: 'innkeep' } },
    });
  });

  it('answers a notification with 202 and no body', async () => {
    const reply = await post(server.mcpUrl, { jsonrpc: '2.0', method: 'notifications/initialized' }, token);
    expect(reply.status).toBe(202);
    expect(reply.text).toBe('');
  });

  it('ignores mcp-session-id', async () => {
    const reply = await post(server.mcpUrl, rpc('ping'), token, { 'mcp-session-id': 'some-session-123' });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
  });

  it('answers GET with 405 and Allow: POST, DELETE', async () => {
    const response = await fetch(server.mcpUrl, { headers: { accept: 'text/event-stream' } });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST, DELETE');
  });

  it('answers DELETE with 204 when the client labels its empty body JSON', async () => {
    const response = await fetch(server.mcpUrl, {
      method: 'DELETE',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(204);
  });

  it('answers DELETE with 204, with or without a session id', async () => {
    for (const headers of [{}, { 'mcp-session-id': 'x' }, { authorization: `Bearer ${token}` }]) {
      const response = await fetch(server.mcpUrl, { method: 'DELETE', headers });
      expect(response.status).toBe(204);
      expect(await response.text()).toBe('');
    }
  });

  it('refuses batches with 400 and -32600, running none of them', async () => {
    const reply = await post(server.mcpUrl, [rpc('ping', {}, 1), rpc('tools/list', {}, 2)], token);
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'JSON-RPC batches are not supported: send one message per request.' },
    });
  });

  it('refuses messages that are not JSON-RPC with 400 and -32600', async () => {
    for (const message of [{ id: 1, method: 'ping' }, { jsonrpc: '2.0', id: 2 }, 'ping', 42]) {
      const reply = await post(server.mcpUrl, JSON.stringify(message), token);
      expect(reply.status).toBe(400);
      expect((reply.body as { error: { code: number } }).error.code).toBe(-32600);
    }
  });

  it('answers a body that is not JSON with 400 and -32700, and another media type with 415', async () => {
    const broken = await post(server.mcpUrl, '{"jsonrpc": "2.0", "id": 1,', token);
    expect(broken.status).toBe(400);
    expect(broken.body).toMatchObject({ id: null, error: { code: -32700 } });
    const response = await fetch(server.mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', authorization: `Bearer ${token}` },
      body: JSON.stringify(rpc('ping')),
    });
    expect(response.status).toBe(415);
    expect(await response.json()).toMatchObject({ error: { code: -32000 } });
  });

  it('refuses an unsupported MCP-Protocol-Version with 400, and takes the supported ones or none', async () => {
    const reply = await post(server.mcpUrl, rpc('ping', {}, 3), token, {
      'mcp-protocol-version': '1999-01-01',
    });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({
      id: 3,
      error: { code: -32000, data: { supported: ['2025-11-25', '2025-06-18', '2025-03-26'] } },
    });
    for (const version of ['2025-11-25', '2025-06-18', '2025-03-26']) {
      expect(
        (await post(server.mcpUrl, rpc('ping'), token, { 'mcp-protocol-version': version })).status,
      ).toBe(200);
    }
    const response = await fetch(server.mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(rpc('ping')),
    });
    expect(response.status).toBe(200);
  });

  it('answers 406 to an Accept that rules out JSON', async () => {
    expect((await post(server.mcpUrl, rpc('ping'), token, { accept: 'text/html' })).status).toBe(406);
    expect((await post(server.mcpUrl, rpc('ping'), token, { accept: 'text/event-stream' })).status).toBe(406);
    expect((await post(server.mcpUrl, rpc('ping'), token, { accept: '*/*' })).status).toBe(200);
  });

  describe('Origin', () => {
    it('refuses a foreign Origin with 403 on every method, before authentication', async () => {
      const evil = { origin: 'http://evil.example.com' };
      expect((await post(server.mcpUrl, rpc('ping'), token, evil)).status).toBe(403);
      expect((await post(server.mcpUrl, rpc('ping'), undefined, evil)).status).toBe(403);
      expect((await fetch(server.mcpUrl, { headers: evil })).status).toBe(403);
      expect((await fetch(server.mcpUrl, { method: 'DELETE', headers: evil })).status).toBe(403);
      expect((await post(server.mcpUrl, rpc('ping'), token, { origin: 'null' })).status).toBe(403);
    });

    it('serves BASE_URL’s origin and, BASE_URL being on loopback, other loopback origins, with CORS', async () => {
      for (const origin of [server.baseUrl, 'http://localhost:6274', 'http://[::1]:8080']) {
        const reply = await post(server.mcpUrl, rpc('ping'), token, { origin });
        expect(reply.status).toBe(200);
        expect(reply.headers.get('access-control-allow-origin')).toBe(origin);
        expect(reply.headers.get('access-control-expose-headers')).toContain('www-authenticate');
      }
      const preflight = await fetch(server.mcpUrl, {
        method: 'OPTIONS',
        headers: { origin: 'http://localhost:6274', 'access-control-request-method': 'POST' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization');
    });

    it('serves requests without an Origin', async () => {
      expect((await post(server.mcpUrl, rpc('ping'), token)).status).toBe(200);
    });
  });
});

describe('the /mcp transport on a public BASE_URL', () => {
  const verifier: AccessTokenVerifier = { verify: async () => null };

  it('allows only BASE_URL’s origin and the configured ones, not loopback', async () => {
    const app = Fastify({ logger: false });
    await app.register(mcpRoute, {
      dispatcher: {
        domain: {} as InnkeepDomain,
        clock: systemClock,
        serverInfo: innkeepServerInfo,
        report: () => {},
      },
      verifier,
      baseUrl: 'https://innkeep.example.com',
      allowedOrigins: ['https://agent.example.org'],
    });
    const status = async (origin: string) =>
      (await app.inject({ method: 'DELETE', url: '/mcp', headers: { origin } })).statusCode;
    expect(await status('https://innkeep.example.com')).toBe(204);
    expect(await status('https://agent.example.org')).toBe(204);
    expect(await status('http://localhost:3000')).toBe(403);
    expect(await status('http://innkeep.example.com')).toBe(403);
    await app.close();
  });
});

describe('unexpected failures on /mcp', () => {
  const secret = 'connect ECONNREFUSED 10.1.2.3:5432 password=hunter2';
  const owner: VerifiedAccessToken = {
    accountId: 'acc_1',
    userId: 'usr_1',
    role: 'owner',
    subscriptionStatus: 'active',
    inGoodStanding: true,
    scopes: allScopes,
    clientId: 'client_1',
    grantId: 'grant_1',
    expiresAt: new Date(Date.now() + 3_600_000),
  };

  async function appWith(verifier: AccessTokenVerifier, domain: InnkeepDomain) {
    const reported: { reference: string; cause: unknown }[] = [];
    const app = Fastify({ logger: false });
    await app.register(mcpRoute, {
      dispatcher: {
        domain,
        clock: systemClock,
        serverInfo: innkeepServerInfo,
        report: (reference, cause) => reported.push({ reference, cause }),
      },
      verifier,
      baseUrl: 'http://127.0.0.1:3000',
    });
    return { app, reported };
  }

  const call = (app: Awaited<ReturnType<typeof appWith>>['app'], message: unknown) =>
    app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { 'content-type': 'application/json', authorization: 'Bearer some-token' },
      payload: JSON.stringify(message),
    });

  it('answers 500 with a reference and no cause when the token check fails', async () => {
    const { app, reported } = await appWith(
      {
        verify: async () => {
          throw new Error(secret);
        },
      },
      {} as InnkeepDomain,
    );
    const response = await call(app, rpc('ping', {}, 'x1'));
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('ECONNREFUSED');
    expect(response.body).not.toContain('hunter2');
    const body = response.json();
    expect(body).toMatchObject({
      id: 'x1',
      error: { code: -32603, data: { reference: reported[0]?.reference } },
    });
    expect(reported).toHaveLength(1);
    await app.close();
  });

  it('answers 200 with a reference and no cause when a resource read fails', async () => {
    const broken = {
      identity: {
        getUser: async () => {
          throw new Error(secret);
        },
      },
    } as unknown as InnkeepDomain;
    const { app, reported } = await appWith({ verify: async () => owner }, broken);
    const response = await call(app, rpc('resources/read', { uri: 'service://user' }, 'x2'));
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toContain('ECONNREFUSED');
    expect(response.json()).toMatchObject({ id: 'x2', error: { code: -32603 } });
    expect(reported).toHaveLength(1);
    const tool = await call(app, rpc('tools/call', { name: 'get_user', arguments: {} }, 'x3'));
    expect(tool.statusCode).toBe(200);
    expect(tool.body).not.toContain('ECONNREFUSED');
    expect(toolErrorIn(tool.json().result).code).toBe('internal');
    expect(reported).toHaveLength(2);
    await app.close();
  });
});
