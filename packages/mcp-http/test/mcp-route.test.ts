import { obtainAccessToken } from '@innkeep/auth/testing';
import { mcpFirstConnectionScopes, mcpSurfaceScopes, toolCatalogue } from '@innkeep/mcp-tools';
import { testDatabaseKinds } from '@innkeep/storage/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  demoOwner,
  demoteToManager,
  type McpWorld,
  movableClock,
  newOwner,
  openMcpWorld,
  type Person,
  post,
  type RunningApp,
  rpc,
  startApp,
  tokenFor,
} from './support/mcp-world.ts';
import { toolErrorIn } from './support/tool-error.ts';

describe.each(testDatabaseKinds)('/mcp over HTTP with real OAuth tokens on %s', (kind) => {
  let world: McpWorld;
  let server: RunningApp;
  let owner: Person;
  let token: string;
  let listingId: string;
  let metadataUrl: string;

  beforeAll(async () => {
    world = await openMcpWorld(kind);
    server = await startApp(world);
    owner = await demoOwner(world);
    token = await tokenFor(server, owner);
    metadataUrl = `${server.baseUrl}/.well-known/oauth-protected-resource/mcp`;
    const listed = await post(
      server.mcpUrl,
      rpc('tools/call', { name: 'list_listings', arguments: { limit: 1 } }),
      token,
    );
    listingId =
      (listed.body as { result: { structuredContent: { items: { id: string }[] } } }).result.structuredContent
        .items[0]?.id ?? '';
  }, 180_000);

  afterAll(async () => {
    await server?.app.close();
    await world?.close();
  });

  describe('authentication (401)', () => {
    const challenge = () =>
      `Bearer scope="${mcpFirstConnectionScopes.join(' ')}", resource_metadata="${metadataUrl}"`;

    it('answers no token with a challenge naming the resource metadata and the read scopes tools use', async () => {
      const reply = await post(server.mcpUrl, rpc('tools/list', {}, 'a1'));
      expect(reply.status).toBe(401);
      expect(reply.headers.get('www-authenticate')).toBe(challenge());
      expect(reply.body).toMatchObject({ jsonrpc: '2.0', id: 'a1', error: { code: -32001 } });
    });

    it('takes the metadata URL from the challenge to a document naming the authorization server', async () => {
      const response = await fetch(metadataUrl);
      expect(await response.json()).toMatchObject({
        resource: `${server.baseUrl}/mcp`,
        authorization_servers: [server.baseUrl],
      });
    });

    it('lists as supported exactly the scopes tools, resources and prompts use, and asks first for reads', async () => {
      const metadata = (await (await fetch(metadataUrl)).json()) as { scopes_supported: string[] };
      expect(metadata.scopes_supported).toEqual(mcpSurfaceScopes);
      for (const unused of ['webhooks:manage', 'locks:read', 'locks:write', 'listingGroups:write']) {
        expect(metadata.scopes_supported).not.toContain(unused);
      }
      expect(metadata.scopes_supported).not.toContain('offline_access');
      expect(metadata.scopes_supported).toEqual(
        expect.arrayContaining(['calendar:write', 'reservations:write', 'messages:write']),
      );
      expect(mcpFirstConnectionScopes).toEqual(mcpSurfaceScopes.filter((scope) => scope.endsWith(':read')));
      expect(mcpFirstConnectionScopes).toContain('listingGroups:read');
    });

    it('treats authToken and apiKey headers as no credential, and says so', async () => {
      const reply = await post(server.mcpUrl, rpc('tools/list'), undefined, {
        authToken: 'tok_whatever',
        apiKey: 'key_whatever',
      });
      expect(reply.status).toBe(401);
      expect(reply.headers.get('www-authenticate')).toBe(challenge());
      expect(reply.text).toContain('authToken and apiKey headers do not work on /mcp');
    });

    it('answers an unknown token with invalid_token', async () => {
      const reply = await post(server.mcpUrl, rpc('tools/list'), 'not-a-real-token');
      expect(reply.status).toBe(401);
      expect(reply.headers.get('www-authenticate')).toMatch(
        new RegExp(
          `^Bearer error="invalid_token", error_description="[^"]+", scope="[^"]+", resource_metadata="${metadataUrl}"$`,
        ),
      );
    });

    it('answers a token for another server (audience) with invalid_token', async () => {
      // Same database, another deployment address: its tokens are bound to its own /mcp.
      const other = await startApp(world);
      try {
        const foreign = await tokenFor(other, owner);
        expect((await post(other.mcpUrl, rpc('ping'), foreign)).status).toBe(200);
        const reply = await post(server.mcpUrl, rpc('ping'), foreign);
        expect(reply.status).toBe(401);
        expect(reply.headers.get('www-authenticate')).toContain('error="invalid_token"');
      } finally {
        await other.app.close();
      }
    });

    it('answers an expired token with invalid_token', async () => {
      const verifierClock = movableClock();
      const aging = await startApp(world, { verifierClock });
      try {
        const short = await tokenFor(aging, owner);
        expect((await post(aging.mcpUrl, rpc('ping'), short)).status).toBe(200);
        verifierClock.shift(3601 * 1000);
        const reply = await post(aging.mcpUrl, rpc('ping'), short);
        expect(reply.status).toBe(401);
        expect(reply.headers.get('www-authenticate')).toContain('error="invalid_token"');
      } finally {
        await aging.app.close();
      }
    });

    it('answers a revoked token with invalid_token from the next request on', async () => {
      const tokens = await obtainAccessToken({
        baseUrl: server.baseUrl,
        email: owner.email,
        password: owner.password,
      });
      expect((await post(server.mcpUrl, rpc('ping'), tokens.accessToken)).status).toBe(200);
      const revoked = await fetch(`${server.origin}/oauth/token/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          token: tokens.accessToken,
          client_id: tokens.client.client_id,
        }).toString(),
      });
      expect(revoked.status).toBe(200);
      const reply = await post(server.mcpUrl, rpc('ping'), tokens.accessToken);
      expect(reply.status).toBe(401);
      expect(reply.headers.get('www-authenticate')).toContain('error="invalid_token"');
    });

    it('answers a team member’s token with invalid_token and tells them to connect their own account', async () => {
      const account = await newOwner(world);
      const managerToken = await tokenFor(server, account);
      expect((await post(server.mcpUrl, rpc('ping'), managerToken)).status).toBe(200);
      await demoteToManager(world, account);
      const reply = await post(server.mcpUrl, rpc('tools/list', {}, 9), managerToken);
      expect(reply.status).toBe(401);
      const header = reply.headers.get('www-authenticate') ?? '';
      expect(header).toMatch(
        /^Bearer error="invalid_token", error_description="[^"]*team member[^"]*account you own/,
      );
      expect(header).toContain(`resource_metadata="${metadataUrl}"`);
      expect(reply.body).toMatchObject({ id: 9, error: { code: -32001 } });
    });
  });

  describe('subscription (403, every request)', () => {
    it('refuses an account whose subscription lapsed, and serves it again once renewed', async () => {
      const account = await newOwner(world);
      const accountToken = await tokenFor(server, account);
      expect((await post(server.mcpUrl, rpc('ping'), accountToken)).status).toBe(200);

      await world.operator.setSubscriptionStatus({ accountId: account.accountId, status: 'past_due' });
      const reply = await post(server.mcpUrl, rpc('tools/list', {}, 'sub'), accountToken);
      expect(reply.status).toBe(403);
      const body = reply.body as { id: string; error: { code: number; message: string } };
      expect(body.id).toBe('sub');
      expect(body.error.code).toBe(-32010);
      expect(body.error.message).toMatch(/^subscription_inactive/);
      // Notifications are requests too.
      const notification = await post(
        server.mcpUrl,
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        accountToken,
      );
      expect(notification.status).toBe(403);

      await world.operator.setSubscriptionStatus({ accountId: account.accountId, status: 'active' });
      expect((await post(server.mcpUrl, rpc('ping'), accountToken)).status).toBe(200);
    });
  });

  describe('scopes (403 insufficient_scope)', () => {
    let narrow: string;

    beforeAll(async () => {
      narrow = await tokenFor(server, owner, ['user:read']);
    });

    it('lists every tool whatever the grant', async () => {
      const reply = await post(server.mcpUrl, rpc('tools/list'), narrow);
      expect(reply.status).toBe(200);
      const tools = (reply.body as { result: { tools: { name: string }[] } }).result.tools;
      expect(tools.map((tool) => tool.name)).toEqual(toolCatalogue.map((tool) => tool.name));
    });

    it('runs a tool inside the grant', async () => {
      const reply = await post(server.mcpUrl, rpc('tools/call', { name: 'get_user', arguments: {} }), narrow);
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({ result: { structuredContent: { email: owner.email } } });
    });

    it('refuses a tool outside the grant with the step-up challenge and -32011 with the request id', async () => {
      const reply = await post(
        server.mcpUrl,
        rpc('tools/call', { name: 'get_listing', arguments: { listingId } }, 'scope-1'),
        narrow,
      );
      expect(reply.status).toBe(403);
      expect(reply.headers.get('www-authenticate')).toBe(
        'Bearer error="insufficient_scope", error_description="This request needs listings:read, which this connection was not granted.", ' +
          `scope="user:read listings:read", resource_metadata="${metadataUrl}"`,
      );
      const body = reply.body as { id: string; error: { code: number; message: string; data: unknown } };
      expect(body.id).toBe('scope-1');
      expect(body.error.code).toBe(-32011);
      expect(body.error.message).toBe(
        'insufficient_scope: The tool get_listing needs listings:read, which this connection was not granted. ' +
          "Reconnect Innkeep in the assistant and, on Innkeep's consent page, allow listings:read " +
          '(“See your listings and their settings”).',
      );
      expect(body.error.data).toEqual({ missing: ['listings:read'] });
    });

    it('asks for the granted scopes plus every missing one', async () => {
      // daily_briefing reads reservations, messages, calendars and listings.
      const reply = await post(server.mcpUrl, rpc('prompts/get', { name: 'daily_briefing' }), narrow);
      expect(reply.status).toBe(403);
      expect(reply.headers.get('www-authenticate')).toContain(
        'scope="user:read reservations:read messages:read calendar:read listings:read"',
      );
    });

    it('refuses resources and prompts outside the grant the same way', async () => {
      const resource = await post(
        server.mcpUrl,
        rpc('resources/read', { uri: 'service://listings' }),
        narrow,
      );
      expect(resource.status).toBe(403);
      expect(resource.headers.get('www-authenticate')).toContain('scope="user:read listings:read"');
      const prompt = await post(server.mcpUrl, rpc('prompts/get', { name: 'guest_response' }), narrow);
      expect(prompt.status).toBe(403);
      expect((prompt.body as { error: { code: number } }).error.code).toBe(-32011);
      const own = await post(server.mcpUrl, rpc('resources/read', { uri: 'service://user' }), narrow);
      expect(own.status).toBe(200);
    });

    it('leaves an unknown tool to JSON-RPC: -32602 with status 200', async () => {
      const reply = await post(server.mcpUrl, rpc('tools/call', { name: 'no_such_tool' }), narrow);
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({ error: { code: -32602 } });
    });
  });

  describe('tool results', () => {
    it('answers bad input and unknown records with 200 and a tool error the model can act on', async () => {
      const bad = await post(server.mcpUrl, rpc('tools/call', { name: 'get_listing', arguments: {} }), token);
      expect(bad.status).toBe(200);
      expect(toolErrorIn((bad.body as { result: unknown }).result).code).toBe('invalid_argument');
      const missing = await post(
        server.mcpUrl,
        rpc('tools/call', { name: 'get_listing', arguments: { listingId: 'lst_missing' } }),
        token,
      );
      expect(toolErrorIn((missing.body as { result: unknown }).result)).toMatchObject({
        code: 'not_found',
        message: expect.any(String),
      });
    });

    it('answers a read of a missing resource with -32002 and the uri', async () => {
      const reply = await post(
        server.mcpUrl,
        rpc('resources/read', { uri: 'service://listings/lst_missing' }),
        token,
      );
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({
        error: { code: -32002, data: { uri: 'service://listings/lst_missing' } },
      });
    });
  });

  it('reported no unexpected failure', () => {
    expect(world.reported).toEqual([]);
  });
});
