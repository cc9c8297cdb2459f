import { toolCatalogue } from '@innkeep/mcp-tools';
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
} from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  demoOwner,
  type McpWorld,
  openMcpWorld,
  type RunningApp,
  startApp,
  tokenFor,
} from './support/mcp-world.ts';

/** One POST a client sent to /mcp, and what came back. */
interface Exchange {
  readonly method: string;
  readonly protocolVersionHeader: string | null;
  readonly metaVersion: unknown;
  readonly status: number;
  readonly result: Record<string, unknown> | undefined;
}

/** A `fetch` that sends as usual and records each JSON-RPC request and its response. */
function recordingFetch(exchanges: Exchange[]): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (init?.method !== 'POST' || typeof init.body !== 'string') return response;
    const sent = JSON.parse(init.body) as { id?: unknown; method: string; params?: { _meta?: object } };
    if (sent.id === undefined) return response;
    const answered = (await response.clone().json()) as { result?: Record<string, unknown> };
    exchanges.push({
      method: sent.method,
      protocolVersionHeader: new Headers(init.headers).get('mcp-protocol-version'),
      metaVersion: (sent.params?._meta as Record<string, unknown> | undefined)?.[
        'io.modelcontextprotocol/protocolVersion'
      ],
      status: response.status,
      result: answered.result,
    });
    return response;
  };
}

/** The calls every client makes: list tools, a read tool, a write tool, a resource, a prompt. */
interface ClientCalls {
  listTools(): Promise<{ tools: { name: string }[] }>;
  // v1 types its result as a union with the pre-2024 `toolResult` shape, which Innkeep never sends.
  callTool(call: { name: string; arguments: Record<string, unknown> }): Promise<object>;
  readResource(read: { uri: string }): Promise<{ contents: ({ text: string } | { blob: string })[] }>;
  getPrompt(get: { name: string; arguments: Record<string, string> }): Promise<{
    messages: { content: unknown }[];
  }>;
}

/** Runs the same session through `client`, renaming the first listing to `nickname`. */
async function useInnkeep(client: ClientCalls, nickname: string): Promise<void> {
  const callTool = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as { isError?: boolean; structuredContent?: unknown };
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name)).toEqual(toolCatalogue.map((tool) => tool.name));

  const listed = await callTool('list_listings', { limit: 2 });
  expect(listed.isError).toBeFalsy();
  const [first] = (listed.structuredContent as { items: { id: string }[] }).items;
  const listingId = first?.id ?? '';

  const updated = await callTool('update_listing', { listingId, nickname });
  expect(updated.isError).toBeFalsy();
  const reread = await callTool('get_listing', { listingId });
  expect(reread.structuredContent).toMatchObject({ id: listingId, nickname });

  const resource = await client.readResource({ uri: 'service://listings' });
  const [content] = resource.contents;
  const summary = JSON.parse(content !== undefined && 'text' in content ? content.text : 'null');
  expect(summary.listings.map((listing: { id: string }) => listing.id)).toContain(listingId);

  const briefing = await client.getPrompt({ name: 'daily_briefing', arguments: {} });
  expect(briefing.messages[0]?.content).toMatchObject({ type: 'text' });
}

describe('the v2 client (pinned to 2026-07-28, and auto) and the v1 client against one /mcp', () => {
  let world: McpWorld;
  let server: RunningApp;
  let token: string;

  beforeAll(async () => {
    world = await openMcpWorld('pglite');
    server = await startApp(world);
    token = await tokenFor(server, await demoOwner(world));
  }, 180_000);

  afterAll(async () => {
    await server?.app.close();
    await world?.close();
  });

  /** A v2 client negotiating with `mode`, recording its exchanges. */
  async function modernClient(mode: 'auto' | { pin: string }, exchanges: Exchange[]) {
    const client = new ModernClient(
      { name: 'era-test-v2', version: '1.0.0' },
      { versionNegotiation: { mode } },
    );
    await client.connect(
      new ModernTransport(new URL(server.mcpUrl), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
        fetch: recordingFetch(exchanges),
      }),
    );
    return client;
  }

  it('serves the v2 client pinned to 2026-07-28: discover, no initialize, every result complete', async () => {
    const exchanges: Exchange[] = [];
    const client = await modernClient({ pin: '2026-07-28' }, exchanges);
    try {
      expect(client.getProtocolEra()).toBe('modern');
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      await useInnkeep(client, 'Pinned modern');
    } finally {
      await client.close();
    }
    expect(exchanges[0]?.method).toBe('server/discover');
    expect(exchanges.map((exchange) => exchange.method)).not.toContain('initialize');
    for (const exchange of exchanges) {
      expect(exchange).toMatchObject({
        status: 200,
        protocolVersionHeader: '2026-07-28',
        metaVersion: '2026-07-28',
        result: {
          resultType: 'complete',
          _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'innkeep' } },
        },
      });
    }
    const tools = exchanges.find((exchange) => exchange.method === 'tools/list');
    expect(tools?.result).toMatchObject({ ttlMs: expect.any(Number), cacheScope: 'public' });
    const read = exchanges.find((exchange) => exchange.method === 'resources/read');
    expect(read?.result).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
  });

  it('serves the v2 client in auto mode in the modern era: its discover probe succeeds', async () => {
    const exchanges: Exchange[] = [];
    const client = await modernClient('auto', exchanges);
    try {
      expect(client.getProtocolEra()).toBe('modern');
      await useInnkeep(client, 'Auto modern');
    } finally {
      await client.close();
    }
    expect(exchanges.map((exchange) => exchange.method)).not.toContain('initialize');
  });

  it('serves the v1 client (1.32) as before: initialize with 2025-11-25, results without 2026 fields', async () => {
    const exchanges: Exchange[] = [];
    const client = new LegacyClient({ name: 'era-test-v1', version: '1.0.0' });
    const transport = new LegacyTransport(new URL(server.mcpUrl), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
      fetch: recordingFetch(exchanges),
    });
    await client.connect(transport);
    try {
      expect(transport.protocolVersion).toBe('2025-11-25');
      await useInnkeep(client, 'Legacy');
    } finally {
      await client.close();
    }
    expect(exchanges[0]).toMatchObject({ method: 'initialize', result: { protocolVersion: '2025-11-25' } });
    for (const exchange of exchanges) {
      expect(exchange.metaVersion).toBeUndefined();
      expect(exchange.result).not.toHaveProperty('resultType');
      expect(exchange.result).not.toHaveProperty('ttlMs');
    }
  });

  it('reported no unexpected failure', () => {
    expect(world.reported).toEqual([]);
  });
});
