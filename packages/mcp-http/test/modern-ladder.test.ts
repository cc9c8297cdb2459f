import { innkeepServerInfo, toolCatalogue } from '@innkeep/mcp-tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  demoOwner,
  type McpReply,
  type McpWorld,
  newOwner,
  openMcpWorld,
  type Person,
  post,
  type RunningApp,
  rpc,
  startApp,
  tokenFor,
} from './support/mcp-world.ts';

const modern = '2026-07-28';
const envelope = {
  'io.modelcontextprotocol/protocolVersion': modern,
  'io.modelcontextprotocol/clientInfo': { name: 'ladder-test', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** What a 2026-07-28 client sends: the envelope in `_meta`, and the standard headers that mirror the body. */
async function modernPost(
  url: string,
  token: string | undefined,
  method: string,
  params: Record<string, unknown> = {},
  options: {
    headers?: Record<string, string | null>;
    meta?: Record<string, unknown> | null;
    id?: number;
  } = {},
): Promise<McpReply> {
  const name = params.name ?? params.uri;
  const headers: Record<string, string | null> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': modern,
    'mcp-method': method,
    ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
    ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    ...options.headers,
  };
  const meta = options.meta === undefined ? envelope : options.meta;
  const response = await fetch(url, {
    method: 'POST',
    // A header given as null is left out.
    headers: Object.fromEntries(
      Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== null),
    ),
    body: JSON.stringify(rpc(method, meta === null ? params : { ...params, _meta: meta }, options.id ?? 7)),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    body: text === '' ? undefined : JSON.parse(text),
  };
}

describe('/mcp serving MCP 2026-07-28 beside the older revisions', () => {
  let world: McpWorld;
  let server: RunningApp;
  let owner: Person;
  let token: string;

  beforeAll(async () => {
    world = await openMcpWorld('pglite');
    server = await startApp(world);
    owner = await demoOwner(world);
    token = await tokenFor(server, owner);
  }, 180_000);

  afterAll(async () => {
    await server?.app.close();
    await world?.close();
  });

  const call = (
    method: string,
    params?: Record<string, unknown>,
    options?: Parameters<typeof modernPost>[4],
  ) => modernPost(server.mcpUrl, token, method, params, options);

  describe('server/discover and results', () => {
    it('discovers the stateless revision only, with capabilities, cache hints and the server named', async () => {
      const reply = await call('server/discover');
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({
        jsonrpc: '2.0',
        id: 7,
        result: {
          resultType: 'complete',
          ttlMs: 3_600_000,
          cacheScope: 'public',
          _meta: { 'io.modelcontextprotocol/serverInfo': innkeepServerInfo },
          supportedVersions: [modern],
          capabilities: { tools: {}, resources: {}, prompts: {}, completions: {} },
          instructions: expect.any(String),
        },
      });
    });

    it('serves a request whose envelope leaves out clientInfo, which a server must not require', async () => {
      const { 'io.modelcontextprotocol/clientInfo': _clientInfo, ...rest } = envelope;
      expect((await call('server/discover', {}, { meta: rest })).status).toBe(200);
    });

    it('lists the same tools as before, with resultType, cache hints and serverInfo', async () => {
      const legacy = await post(server.mcpUrl, rpc('tools/list'), token);
      const reply = await call('tools/list');
      const { resultType, ttlMs, cacheScope, _meta, ...listed } = (
        reply.body as { result: Record<string, unknown> }
      ).result;
      expect({ resultType, ttlMs, cacheScope, _meta }).toEqual({
        resultType: 'complete',
        ttlMs: 3_600_000,
        cacheScope: 'public',
        _meta: { 'io.modelcontextprotocol/serverInfo': innkeepServerInfo },
      });
      expect(listed).toEqual((legacy.body as { result: unknown }).result);
      expect((legacy.body as { result: Record<string, unknown> }).result).not.toHaveProperty('resultType');
      expect((listed.tools as unknown[]).length).toBe(toolCatalogue.length);
    });

    it('marks a resource read private and never reusable: it is the account’s own data', async () => {
      const reply = await call('resources/read', { uri: 'service://listings' });
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({
        result: {
          resultType: 'complete',
          ttlMs: 0,
          cacheScope: 'private',
          contents: [{ uri: 'service://listings' }],
        },
      });
    });

    it('answers a tool call with resultType and serverInfo beside the usual result', async () => {
      const reply = await call('tools/call', { name: 'list_listings', arguments: { limit: 1 } });
      expect(reply.body).toMatchObject({
        result: {
          resultType: 'complete',
          _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'innkeep' } },
          content: [{ type: 'text' }],
          structuredContent: { items: [expect.any(Object)] },
        },
      });
    });

    it('answers a read of a missing resource with -32602 (not -32002) on 2026-07-28 only', async () => {
      const uri = 'service://listings/lst_missing';
      const reply = await call('resources/read', { uri });
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({ id: 7, error: { code: -32602, data: { uri } } });
      const legacy = await post(server.mcpUrl, rpc('resources/read', { uri }), token);
      expect(legacy.body).toMatchObject({ error: { code: -32002 } });
    });

    it('answers a modern notification with 202 and no body', async () => {
      const reply = await post(
        server.mcpUrl,
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3, _meta: envelope } },
        token,
        { 'mcp-protocol-version': modern, 'mcp-method': 'notifications/cancelled' },
      );
      expect(reply.status).toBe(202);
      expect(reply.text).toBe('');
    });
  });

  describe('the _meta envelope (400, -32602)', () => {
    it.each([
      ['no _meta at all', null],
      [
        'no protocol version',
        {
          'io.modelcontextprotocol/clientCapabilities': {},
          'io.modelcontextprotocol/clientInfo': envelope['io.modelcontextprotocol/clientInfo'],
        },
      ],
      ['no client capabilities', { 'io.modelcontextprotocol/protocolVersion': modern }],
      [
        'client capabilities that are no object',
        { ...envelope, 'io.modelcontextprotocol/clientCapabilities': 'all' },
      ],
      [
        'a protocol version that is no string',
        { ...envelope, 'io.modelcontextprotocol/protocolVersion': 20260728 },
      ],
    ])('refuses a request with %s, with its id', async (_case, meta) => {
      const reply = await call('tools/list', {}, { meta, id: 41 });
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({
        id: 41,
        error: { code: -32602, message: expect.stringContaining('_meta') },
      });
    });
  });

  describe('headers against the body (400, -32020)', () => {
    it.each([
      ['MCP-Protocol-Version names another revision than _meta', { 'mcp-protocol-version': '2025-11-25' }],
      ['MCP-Protocol-Version is missing', { 'mcp-protocol-version': null }],
      ['Mcp-Method is missing', { 'mcp-method': null }],
      ['Mcp-Method names another method', { 'mcp-method': 'tools/list' }],
      ['Mcp-Name is missing', { 'mcp-name': null }],
      ['Mcp-Name names another tool', { 'mcp-name': 'get_listing' }],
      ['Mcp-Name holds Base64 that is not canonical', { 'mcp-name': '=?base64?bGlzdF9saXN0aW5ncw?=' }],
    ])('refuses a tools/call whose %s', async (_case, headers) => {
      const reply = await call('tools/call', { name: 'list_listings', arguments: {} }, { headers, id: 42 });
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ id: 42, error: { code: -32020 } });
    });

    it('decodes a Base64 Mcp-Name before comparing it', async () => {
      const encoded = `=?base64?${Buffer.from('list_listings').toString('base64')}?=`;
      const reply = await call(
        'tools/call',
        { name: 'list_listings', arguments: { limit: 1 } },
        { headers: { 'mcp-name': encoded } },
      );
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({ result: { resultType: 'complete' } });
    });

    it('compares Mcp-Name with the URI on resources/read', async () => {
      const reply = await call(
        'resources/read',
        { uri: 'service://listings' },
        { headers: { 'mcp-name': 'service://user' } },
      );
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ error: { code: -32020 } });
    });

    it('refuses initialize sent with a 2026-07-28 header', async () => {
      const reply = await post(
        server.mcpUrl,
        rpc('initialize', {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'x', version: '1' },
        }),
        token,
        { 'mcp-protocol-version': modern },
      );
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ error: { code: -32020 } });
    });

    it('refuses a 2026-07-28 header on a body without the envelope with -32602', async () => {
      const reply = await call('tools/list', {}, { meta: null, id: 43 });
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ id: 43, error: { code: -32602 } });
    });
  });

  describe('protocol versions (400, -32022)', () => {
    it('refuses a revision it does not serve, listing those it does and echoing the one asked for', async () => {
      const reply = await call(
        'server/discover',
        {},
        {
          meta: { ...envelope, 'io.modelcontextprotocol/protocolVersion': '2027-01-01' },
          headers: { 'mcp-protocol-version': '2027-01-01' },
        },
      );
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({
        id: 7,
        error: { code: -32022, data: { supported: [modern], requested: '2027-01-01' } },
      });
    });

    it('never offers 2026-07-28 through initialize', async () => {
      const reply = await post(
        server.mcpUrl,
        rpc('initialize', {
          protocolVersion: modern,
          capabilities: {},
          clientInfo: { name: 'x', version: '1' },
        }),
        token,
        { 'mcp-protocol-version': '2025-11-25' },
      );
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({ result: { protocolVersion: '2025-11-25' } });
    });
  });

  describe('methods the revision does not have (404, -32601)', () => {
    it.each([
      'initialize',
      'ping',
      'logging/setLevel',
      'resources/subscribe',
      'resources/unsubscribe',
      'subscriptions/listen',
      'no/such',
    ])('answers %s with 404 and -32601 with the request id', async (method) => {
      const reply = await call(method, method === 'resources/subscribe' ? { uri: 'service://user' } : {}, {
        id: 44,
      });
      expect(reply.status).toBe(404);
      expect(reply.body).toMatchObject({ id: 44, error: { code: -32601 } });
    });

    it('keeps ping for the older revisions', async () => {
      expect((await post(server.mcpUrl, rpc('ping'), token)).body).toEqual({
        jsonrpc: '2.0',
        id: 1,
        result: {},
      });
    });
  });

  describe('Innkeep’s own refusals: the same statuses and headers, codes outside the reserved range', () => {
    it('answers a tool outside the grant 403 with the challenge, and 1011 instead of -32011', async () => {
      const narrow = await tokenFor(server, owner, ['user:read']);
      const args = { name: 'update_listing', arguments: { listingId: 'lst_x', nickname: 'x' } };
      const modernReply = await modernPost(server.mcpUrl, narrow, 'tools/call', args, { id: 45 });
      const legacyReply = await post(server.mcpUrl, rpc('tools/call', args, 45), narrow);
      for (const reply of [modernReply, legacyReply]) {
        expect(reply.status).toBe(403);
        expect(reply.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
      }
      expect(modernReply.headers.get('www-authenticate')).toBe(legacyReply.headers.get('www-authenticate'));
      expect(modernReply.body).toMatchObject({
        id: 45,
        error: { code: 1011, message: expect.stringMatching(/^insufficient_scope/) },
      });
      expect(legacyReply.body).toMatchObject({ id: 45, error: { code: -32011 } });
    });

    it('answers a lapsed subscription 403 with 1010 instead of -32010', async () => {
      const account = await newOwner(world);
      const accountToken = await tokenFor(server, account);
      await world.operator.setSubscriptionStatus({ accountId: account.accountId, status: 'past_due' });
      const modernReply = await modernPost(server.mcpUrl, accountToken, 'tools/list', {}, { id: 46 });
      const legacyReply = await post(server.mcpUrl, rpc('tools/list', {}, 46), accountToken);
      expect([modernReply.status, legacyReply.status]).toEqual([403, 403]);
      expect(modernReply.body).toMatchObject({
        id: 46,
        error: { code: 1010, message: expect.stringMatching(/^subscription_inactive/) },
      });
      expect(legacyReply.body).toMatchObject({ id: 46, error: { code: -32010 } });
    });

    it('answers no usable token 401 with the same challenge, and 1001 instead of -32001', async () => {
      const modernReply = await modernPost(server.mcpUrl, 'not-a-token', 'tools/list', {}, { id: 47 });
      const legacyReply = await post(server.mcpUrl, rpc('tools/list', {}, 47), 'not-a-token');
      expect([modernReply.status, legacyReply.status]).toEqual([401, 401]);
      expect(modernReply.headers.get('www-authenticate')).toBe(legacyReply.headers.get('www-authenticate'));
      expect(modernReply.body).toMatchObject({ id: 47, error: { code: 1001 } });
      expect(legacyReply.body).toMatchObject({ id: 47, error: { code: -32001 } });
    });

    it('answers over the rate limit 429 with Retry-After, and 1012 instead of -32012', async () => {
      const limited = await startApp(world, { rateLimit: { max: 2, timeWindow: 60_000 } });
      try {
        const limitedToken = await tokenFor(limited, owner);
        await post(limited.mcpUrl, rpc('tools/list'), limitedToken);
        await post(limited.mcpUrl, rpc('tools/list'), limitedToken);
        const modernReply = await modernPost(limited.mcpUrl, limitedToken, 'tools/list', {}, { id: 48 });
        const legacyReply = await post(limited.mcpUrl, rpc('tools/list', {}, 48), limitedToken);
        expect([modernReply.status, legacyReply.status]).toEqual([429, 429]);
        expect(modernReply.headers.get('retry-after')).toEqual(expect.any(String));
        expect(modernReply.body).toMatchObject({ id: 48, error: { code: 1012 } });
        expect(legacyReply.body).toMatchObject({ id: 48, error: { code: -32012 } });
      } finally {
        await limited.app.close();
      }
    });
  });

  describe('GET and DELETE, in either era', () => {
    it('answers GET 405 with Allow, and DELETE 204', async () => {
      const headers = { authorization: `Bearer ${token}`, 'mcp-protocol-version': modern };
      const got = await fetch(server.mcpUrl, { headers });
      expect(got.status).toBe(405);
      expect(got.headers.get('allow')).toBe('POST, DELETE');
      expect((await fetch(server.mcpUrl, { method: 'DELETE', headers })).status).toBe(204);
    });
  });

  it('reported no unexpected failure', () => {
    expect(world.reported).toEqual([]);
  });
});
