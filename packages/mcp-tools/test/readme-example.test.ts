import { type Actor, allScopes } from '@innkeep/domain';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerInnkeepMcp } from '../src/index.ts';
import { openToolWorld, type ToolWorld } from './support/tool-world.ts';

// The README's example, as written there, with the SDK's in-memory transport in place of stdio and the
// demo account on PGlite as the domain.
describe('the README example: Innkeep’s tools on another host’s McpServer', () => {
  let world: ToolWorld;
  let client: Client;
  const granted: string[] = [];

  beforeAll(async () => {
    world = await openToolWorld();
    const domain = world.context.domain;
    const owner: Actor = world.owner;

    const server = new McpServer({ name: 'my-host', version: '1.0.0' });
    registerInnkeepMcp(server, {
      domain,
      clock: { now: () => new Date() },
      actorFor: (extra) => ({ ...owner, clientId: extra.authInfo?.clientId ?? null }),
      scopesFor: (extra) => extra.authInfo?.scopes ?? [],
      report: (reference, cause) => console.error(reference, cause),
    });

    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    // What the host's auth middleware would do: attach the credential's grant to each request.
    const send = clientSide.send.bind(clientSide);
    clientSide.send = (message, options) =>
      send(message, { ...options, authInfo: { token: 'test', clientId: 'my-host', scopes: [...granted] } });
    await server.connect(serverSide);
    client = new Client({ name: 'readme-example', version: '1.0.0' });
    await client.connect(clientSide);
  });

  afterAll(async () => {
    await client?.close();
    await world?.close();
  });

  it('lists all 49 tools under the host’s own server name', async () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'my-host' });
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(49);
    expect(tools.find((tool) => tool.name === 'list_listings')?.annotations).toMatchObject({
      readOnlyHint: true,
    });
  });

  it('calls a tool as the owner with the granted scopes', async () => {
    granted.splice(0, granted.length, ...allScopes);
    const result = await client.callTool({ name: 'list_listings', arguments: { limit: 2 } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ items: [expect.any(Object), expect.any(Object)] });
  });

  it('refuses a tool outside the grant with insufficient_scope', async () => {
    granted.splice(0, granted.length, 'calendar:read');
    const result = await client.callTool({ name: 'list_listings', arguments: {} });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('insufficient_scope');
  });
});
