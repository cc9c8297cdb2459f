import { SdkOauthClient } from '@innkeep/auth/testing';
import { mcpFirstConnectionScopes, toolCatalogue } from '@innkeep/mcp-tools';
import { testDatabaseKinds } from '@innkeep/storage/testing';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoOwner, type McpWorld, openMcpWorld, type RunningApp, startApp } from './support/mcp-world.ts';
import { toolErrorIn } from './support/tool-error.ts';

describe.each(testDatabaseKinds)('the MCP SDK client against /mcp on %s', (kind) => {
  let world: McpWorld;
  let server: RunningApp;
  let oauth: SdkOauthClient;
  let client: Client;

  beforeAll(async () => {
    world = await openMcpWorld(kind);
    server = await startApp(world);
    // Its "browser" is the person signing in and approving the consent page over HTTP; the code is read
    // from the redirect to the client's loopback address.
    oauth = new SdkOauthClient({
      person: await demoOwner(world),
      clientName: 'SDK client end to end',
      redirectUrl: 'http://127.0.0.1:48999/callback',
    });
    client = new Client({ name: 'sdk-e2e', version: '1.0.0' });
  }, 180_000);

  afterAll(async () => {
    await client?.close();
    await server?.app.close();
    await world?.close();
  });

  it('connects through OAuth: 401 → metadata → registration → consent → token (PKCE, resource)', async () => {
    const url = new URL(server.mcpUrl);
    const first = new StreamableHTTPClientTransport(url, { authProvider: oauth });
    await expect(client.connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    const asked = oauth.authorizations[0]?.url.searchParams;
    expect(asked?.get('resource')).toBe(server.mcpUrl);
    expect(asked?.get('scope')).toBe(mcpFirstConnectionScopes.join(' '));
    expect(asked?.get('code_challenge_method')).toBe('S256');
    await first.finishAuth(oauth.callback.get('code') ?? '');
    expect(oauth.saved?.access_token).toEqual(expect.any(String));

    await client.connect(new StreamableHTTPClientTransport(url, { authProvider: oauth }));
    expect(client.getServerVersion()).toMatchObject({ name: 'innkeep' });
    expect(client.getServerCapabilities()).toEqual({
      tools: {},
      resources: {},
      prompts: {},
      completions: {},
    });
    await client.ping();
  });

  it('lists every tool and calls one; the client checks the output against the listed schema', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(toolCatalogue.map((tool) => tool.name));
    const listed = await client.callTool({ name: 'list_listings', arguments: { limit: 3 } });
    expect(listed.isError).toBeFalsy();
    const items = (listed.structuredContent as { items: { id: string }[] }).items;
    expect(items).toHaveLength(3);
    const one = await client.callTool({ name: 'get_listing', arguments: { listingId: items[0]?.id } });
    expect(one.structuredContent).toMatchObject({ id: items[0]?.id });
  });

  it('gets tool errors as their JSON text, with no structuredContent for the client to validate', async () => {
    const missing = await client.callTool({ name: 'get_listing', arguments: { listingId: 'lst_missing' } });
    expect(toolErrorIn(missing).code).toBe('not_found');
  });

  it('reads a resource, fills in a prompt and completes an id', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual(['service://user', 'service://listings']);
    const listings = await client.readResource({ uri: 'service://listings' });
    const [content] = listings.contents;
    const summary = JSON.parse(content !== undefined && 'text' in content ? content.text : 'null');
    expect(summary.listings.length).toBeGreaterThan(0);

    const briefing = await client.getPrompt({ name: 'daily_briefing', arguments: {} });
    expect(briefing.messages[0]?.content).toMatchObject({ type: 'text' });

    const firstId: string = summary.listings[0].id;
    const completion = await client.complete({
      ref: { type: 'ref/resource', uri: 'service://listings/{listingId}' },
      argument: { name: 'listingId', value: firstId },
    });
    expect(completion.completion.values).toContain(firstId);
  });

  it('reported no unexpected failure', () => {
    expect(world.reported).toEqual([]);
  });
});
