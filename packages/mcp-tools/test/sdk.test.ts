import { allScopes } from '@innkeep/domain';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolCatalogue } from '../src/catalogue.ts';
import { createInnkeepMcpServer } from '../src/sdk/register-innkeep-mcp.ts';
import { errorCodeOf, errorIn, jsonOf } from './support/sdk-results.ts';
import { openToolWorld, type ToolWorld } from './support/tool-world.ts';

/** The JSON-RPC error code a client call failed with. */
const codeOf = (call: Promise<unknown>) => errorCodeOf(call, McpError);

describe('Innkeep on an SDK McpServer, through the SDK client', () => {
  let world: ToolWorld;
  let granted: string[] = [...allScopes];
  let client: Client;
  let listingIds: string[];
  const reported: string[] = [];

  beforeAll(async () => {
    world = await openToolWorld();
    const page = await world.context.domain.listings.list(world.owner, { limit: 100 });
    listingIds = page.items.map((listing) => listing.id);
    const server = createInnkeepMcpServer({
      domain: world.context.domain,
      clock: world.clock,
      // A host's auth middleware puts the credential in authInfo; the adapter reads it per request.
      actorFor: (extra) => ({ ...world.owner, clientId: extra.authInfo?.clientId ?? null }),
      scopesFor: (extra) => extra.authInfo?.scopes ?? [],
      report: (reference) => reported.push(reference),
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const send = clientSide.send.bind(clientSide);
    clientSide.send = (message, options) =>
      send(message, { ...options, authInfo: { token: 'test', clientId: 'sdk-test', scopes: [...granted] } });
    await server.connect(serverSide);
    client = new Client({ name: 'sdk-test', version: '1.0.0' });
    await client.connect(clientSide);
  });

  afterAll(async () => {
    await client?.close();
    await world?.close();
  });

  it('initializes with Innkeep’s name and instructions, and declares completions', () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'innkeep', title: 'Innkeep' });
    expect(client.getInstructions()).toContain('list_listings');
    expect(client.getServerCapabilities()).toMatchObject({
      tools: {},
      resources: {},
      prompts: {},
      completions: {},
    });
  });

  it('lists every tool with its title, schemas and annotations, whatever the grant', async () => {
    granted = [];
    const { tools } = await client.listTools();
    granted = [...allScopes];
    expect(tools.map((tool) => tool.name)).toEqual(toolCatalogue.map((tool) => tool.name));
    const getListing = tools.find((tool) => tool.name === 'get_listing');
    expect(getListing).toMatchObject({
      title: 'Get a listing',
      inputSchema: { type: 'object', required: ['listingId'] },
      outputSchema: { type: 'object' },
      annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
    });
  });

  it('calls a tool; the client validates the structured output against the output schema', async () => {
    await client.listTools();
    const result = await client.callTool({ name: 'get_listing', arguments: { listingId: listingIds[0] } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ id: listingIds[0] });
  });

  it('answers a tool outside the grant with an insufficient_scope tool error', async () => {
    granted = ['calendar:read'];
    const result = await client.callTool({ name: 'get_listing', arguments: { listingId: listingIds[0] } });
    granted = [...allScopes];
    expect(result.isError).toBe(true);
    expect(errorIn(result)).toMatchObject({
      code: 'insufficient_scope',
      details: { missing: ['listings:read'] },
    });
  });

  it('answers unknown records as tool errors with Innkeep’s error as JSON text', async () => {
    const result = await client.callTool({ name: 'get_listing', arguments: { listingId: 'lst_nope' } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(errorIn(result)).toMatchObject({
      code: 'not_found',
      message: expect.stringContaining('lst_nope'),
    });
  });

  it('lists the two resources and three templates, and reads them', async () => {
    granted = [...allScopes];
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual(['service://user', 'service://listings']);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual([
      'service://listings/{listingId}',
      'service://listings/{listingId}/calendar/{startDate}/{endDate}',
      'service://reservations/{reservationId}',
    ]);
    const user = await client.readResource({ uri: 'service://user' });
    expect(jsonOf(user.contents)).toMatchObject({ role: 'owner' });
    const listing = await client.readResource({ uri: `service://listings/${listingIds[1]}` });
    expect(jsonOf(listing.contents)).toMatchObject({ id: listingIds[1] });
  });

  it('refuses a resource outside the grant (-32011) and a missing record (-32002)', async () => {
    granted = ['user:read'];
    expect(await codeOf(client.readResource({ uri: 'service://listings' }))).toBe(-32011);
    granted = [...allScopes];
    expect(await codeOf(client.readResource({ uri: 'service://listings/lst_missing' }))).toBe(-32002);
  });

  it('lists and fills in prompts, and refuses missing arguments with -32602', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual([
      'daily_briefing',
      'guest_response',
      'pricing_review',
    ]);
    expect(prompts.find((prompt) => prompt.name === 'guest_response')?.arguments).toContainEqual(
      expect.objectContaining({ name: 'reservationId', required: true }),
    );
    const briefing = await client.getPrompt({ name: 'daily_briefing', arguments: {} });
    expect(briefing.messages[0]?.content).toMatchObject({ type: 'text' });
    expect(
      await codeOf(client.getPrompt({ name: 'guest_response', arguments: { reservationId: 'res_x' } })),
    ).toBe(-32602);
    granted = ['listings:read'];
    expect(await codeOf(client.getPrompt({ name: 'daily_briefing', arguments: {} }))).toBe(-32011);
    granted = [...allScopes];
  });

  it('completes listing ids for the caller’s account, and none outside the grant', async () => {
    const ref = { type: 'ref/resource' as const, uri: 'service://listings/{listingId}' };
    const all = await client.complete({ ref, argument: { name: 'listingId', value: '' } });
    expect([...all.completion.values].sort()).toEqual([...listingIds].sort());
    granted = ['calendar:read'];
    const none = await client.complete({ ref, argument: { name: 'listingId', value: '' } });
    granted = [...allScopes];
    expect(none.completion.values).toEqual([]);
    expect(await codeOf(client.complete({ ref, argument: { name: 'reservationId', value: '' } }))).toBe(
      -32602,
    );
  });

  it('refuses a misspelt argument as a tool error naming it and the arguments taken; nothing changes', async () => {
    const [listingId = ''] = listingIds;
    const before = await world.context.domain.listings.get(world.owner, listingId);
    const result = await client.callTool({
      name: 'update_listing',
      arguments: { listingId, nickname: 'LX-001', basePrise: 120 },
    });
    expect(result.isError).toBe(true);
    // The v1 SDK checks arguments against the tool's (strict) schema itself and words the result.
    const text = (result.content as { text: string }[]).map((block) => block.text).join('\n');
    expect(text).toContain('Unknown argument basePrise');
    expect(text).toContain('update_listing takes: listingId, name, nickname, basePrice');
    expect(await world.context.domain.listings.get(world.owner, listingId)).toEqual(before);
  });

  it('never reported an unexpected failure', () => {
    expect(reported).toEqual([]);
  });
});
