import { allScopes } from '@innkeep/domain';
import {
  Client,
  InMemoryTransport,
  ProtocolError,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolCatalogue } from '../src/catalogue.ts';
import { createInnkeepMcpServerV2, type InnkeepMcpV2Deps } from '../src/sdk-v2.ts';
import { listedTool } from '../src/server/list-results.ts';
import { errorCodeOf, errorIn, jsonOf } from './support/sdk-results.ts';
import { openToolWorld, type ToolWorld } from './support/tool-world.ts';

/** The JSON-RPC error code a client call failed with. */
const codeOf = (call: Promise<unknown>) => errorCodeOf(call, ProtocolError);

let world: ToolWorld;
let listingIds: string[];
// The grant the next request carries, as a host's auth middleware would attach it.
let granted: string[] = [...allScopes];
const reported: string[] = [];
const authInfo = () => ({ token: 'test', clientId: 'sdk-v2-test', scopes: [...granted] });

function deps(): InnkeepMcpV2Deps {
  return {
    domain: world.context.domain,
    clock: world.clock,
    actorFor: (ctx) => ({ ...world.owner, clientId: ctx.http?.authInfo?.clientId ?? null }),
    scopesFor: (ctx) => ctx.http?.authInfo?.scopes ?? [],
    report: (reference) => reported.push(reference),
  };
}

/** A v2 client on a v2 McpServer over the SDK's in-memory transport: the 2025-11-25 handshake. */
async function connectInMemory(): Promise<Client> {
  const server = createInnkeepMcpServerV2(deps());
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const send = clientSide.send.bind(clientSide);
  clientSide.send = (message, options) => send(message, { ...options, authInfo: authInfo() });
  await server.connect(serverSide);
  const client = new Client({ name: 'sdk-v2-test', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

/** A v2 client pinned to MCP 2026-07-28, served by the SDK's `createMcpHandler` with a server per request. */
async function connectModern(): Promise<Client> {
  const handler = createMcpHandler(() => createInnkeepMcpServerV2(deps()));
  const transport = new StreamableHTTPClientTransport(new URL('http://localhost/mcp'), {
    fetch: (url, init) => handler.fetch(new Request(url, init), { authInfo: authInfo() }),
  });
  const client = new Client(
    { name: 'sdk-v2-test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(transport);
  return client;
}

beforeAll(async () => {
  world = await openToolWorld();
  const page = await world.context.domain.listings.list(world.owner, { limit: 100 });
  listingIds = page.items.map((listing) => listing.id);
});

afterAll(async () => {
  await world?.close();
});

describe.each([
  { era: 'legacy', revision: '2025-11-25', connect: connectInMemory, insufficientScope: -32011 },
  { era: 'modern', revision: '2026-07-28', connect: connectModern, insufficientScope: 1011 },
] as const)('Innkeep on a v2 SDK McpServer, through the v2 client ($revision)', (era) => {
  let client: Client;

  beforeAll(async () => {
    granted = [...allScopes];
    client = await era.connect();
  });

  afterAll(async () => {
    await client?.close();
  });

  it('connects in the expected era, with Innkeep’s name and instructions, and declares completions', () => {
    expect(client.getProtocolEra()).toBe(era.era);
    expect(client.getNegotiatedProtocolVersion()).toBe(era.revision);
    expect(client.getServerVersion()).toMatchObject({ name: 'innkeep', title: 'Innkeep' });
    expect(client.getInstructions()).toContain('list_listings');
    expect(client.getServerCapabilities()).toMatchObject({
      tools: {},
      resources: {},
      prompts: {},
      completions: {},
    });
  });

  it('lists the 49 tools with exactly the schemas and annotations Innkeep’s /mcp lists, whatever the grant', async () => {
    granted = [];
    const { tools } = await client.listTools();
    granted = [...allScopes];
    expect(tools).toHaveLength(49);
    expect(tools.map((tool) => tool.name)).toEqual(toolCatalogue.map((tool) => tool.name));
    for (const tool of toolCatalogue) {
      const { inputSchema, outputSchema, annotations } = listedTool(tool);
      const listed = tools.find((candidate) => candidate.name === tool.name);
      expect(listed, tool.name).toMatchObject({
        title: tool.title,
        description: tool.description,
        annotations,
      });
      expect(listed?.inputSchema, tool.name).toEqual(inputSchema);
      expect(listed?.outputSchema, tool.name).toEqual(outputSchema);
    }
  });

  it('calls a read tool; the client validates the structured output against the output schema', async () => {
    const result = await client.callTool({ name: 'get_listing', arguments: { listingId: listingIds[0] } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ id: listingIds[0] });
  });

  it('calls a write tool, which changes the listing', async () => {
    const nickname = `Changed over ${era.revision}`;
    const result = await client.callTool({
      name: 'update_listing',
      arguments: { listingId: listingIds[1], nickname },
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ id: listingIds[1], nickname });
    expect(await world.context.domain.listings.get(world.owner, listingIds[1] ?? '')).toMatchObject({
      nickname,
    });
  });

  it('answers a bad argument with Innkeep’s invalid_argument, not the SDK’s text, and changes nothing', async () => {
    const before = await world.context.domain.listings.get(world.owner, listingIds[2] ?? '');
    const result = await client.callTool({
      name: 'update_listing',
      arguments: { listingId: listingIds[2], cleaningFee: 10.555 },
    });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(errorIn(result)).toMatchObject({
      code: 'invalid_argument',
      message: expect.stringContaining('10.555'),
    });
    expect(await world.context.domain.listings.get(world.owner, listingIds[2] ?? '')).toEqual(before);
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

  it('lists the two resources and three templates, and reads them', async () => {
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

  it('refuses a resource outside the grant with the era’s insufficient_scope code, and a missing record', async () => {
    granted = ['user:read'];
    expect(await codeOf(client.readResource({ uri: 'service://listings' }))).toBe(era.insufficientScope);
    granted = [...allScopes];
    // The v2 SDK sends "resource not found" as -32602 in every era.
    expect(await codeOf(client.readResource({ uri: 'service://listings/lst_missing' }))).toBe(-32602);
  });

  it('lists and fills in prompts, and refuses missing arguments and prompts outside the grant', async () => {
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
    expect(await codeOf(client.getPrompt({ name: 'guest_response', arguments: {} }))).toBe(-32602);
    granted = ['listings:read'];
    expect(await codeOf(client.getPrompt({ name: 'daily_briefing', arguments: {} }))).toBe(
      era.insufficientScope,
    );
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
});

it('never reported an unexpected failure', () => {
  expect(reported).toEqual([]);
});
