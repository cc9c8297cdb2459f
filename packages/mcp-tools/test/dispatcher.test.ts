import { allScopes, type InnkeepDomain, type Scope } from '@innkeep/domain';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolCatalogue, toolsByName } from '../src/catalogue.ts';
import {
  createMcpDispatcher,
  invalidMessageError,
  type McpCaller,
  type McpDispatcher,
  requiredScopes,
} from '../src/server/dispatcher.ts';
import type { JsonRpcResponse } from '../src/server/json-rpc.ts';
import { toolErrorOf } from './support/tool-error.ts';
import { openToolWorld, type ToolWorld } from './support/tool-world.ts';

type Reported = { reference: string; cause: unknown };

/** A tool as tools/list shows it. */
interface ListedTool {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  readonly outputSchema: Record<string, unknown>;
  readonly annotations: Record<string, unknown>;
}

function request(method: string, params?: unknown, id: string | number = 1) {
  return { jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) };
}

/** The result of a response, failing the test when it is an error. */
function resultOf(response: JsonRpcResponse | null): Record<string, unknown> {
  if (response === null || !('result' in response)) {
    throw new Error(`expected a result, got ${JSON.stringify(response)}`);
  }
  return response.result as Record<string, unknown>;
}

/** The error of a response, failing the test when it is a result. */
function errorOf(response: JsonRpcResponse | null) {
  if (response === null || !('error' in response)) {
    throw new Error(`expected an error, got ${JSON.stringify(response)}`);
  }
  return response.error;
}

describe('the MCP dispatcher', () => {
  let world: ToolWorld;
  let dispatcher: McpDispatcher;
  let everything: McpCaller;
  let nothing: McpCaller;
  let listingIds: string[];
  const reported: Reported[] = [];

  beforeAll(async () => {
    world = await openToolWorld();
    dispatcher = createMcpDispatcher({
      domain: world.context.domain,
      clock: world.clock,
      serverInfo: { name: 'innkeep', title: 'Innkeep', version: '9.9.9' },
      report: (reference, cause) => reported.push({ reference, cause }),
    });
    everything = { actor: world.owner, scopes: allScopes };
    nothing = { actor: world.owner, scopes: [] };
    const page = await world.context.domain.listings.list(world.owner, { limit: 100 });
    listingIds = page.items.map((listing) => listing.id);
  });

  afterAll(async () => {
    await world?.close();
  });

  describe('initialize and ping', () => {
    it.each([
      ['2025-11-25', '2025-11-25'],
      ['2025-06-18', '2025-06-18'],
      ['2025-03-26', '2025-03-26'],
      ['2024-11-05', '2025-11-25'],
      ['2099-01-01', '2025-11-25'],
    ])('answers a client asking for %s with %s', async (asked, answered) => {
      const result = resultOf(
        await dispatcher.handle(
          request('initialize', {
            protocolVersion: asked,
            capabilities: {},
            clientInfo: { name: 'test', version: '1' },
          }),
          nothing,
        ),
      );
      expect(result.protocolVersion).toBe(answered);
      expect(result.capabilities).toEqual({ tools: {}, resources: {}, prompts: {}, completions: {} });
      expect(result.serverInfo).toEqual({ name: 'innkeep', title: 'Innkeep', version: '9.9.9' });
      expect(result.instructions).toEqual(expect.stringContaining('list_listings'));
    });

    it('offers the latest revision when the client names none', async () => {
      expect(resultOf(await dispatcher.handle(request('initialize', {}), nothing)).protocolVersion).toBe(
        '2025-11-25',
      );
    });

    it('answers ping with an empty result and echoes string ids', async () => {
      expect(await dispatcher.handle(request('ping', undefined, 'abc'), nothing)).toEqual({
        jsonrpc: '2.0',
        id: 'abc',
        result: {},
      });
    });
  });

  describe('lists', () => {
    it('tools/list lists every tool to a caller with no scopes, with 2020-12 object schemas', async () => {
      const result = resultOf(await dispatcher.handle(request('tools/list'), nothing));
      const tools = result.tools as ListedTool[];
      expect(tools.map((tool) => tool.name)).toEqual(toolCatalogue.map((tool) => tool.name));
      for (const tool of tools) {
        expect(tool.inputSchema).toMatchObject({ type: 'object' });
        expect(tool.outputSchema).toMatchObject({ type: 'object' });
        expect(tool.inputSchema).not.toHaveProperty('$schema');
        expect(tool.outputSchema).not.toHaveProperty('$schema');
        expect(typeof tool.description).toBe('string');
        const declared = toolsByName.get(tool.name)?.annotations;
        // A read-only tool lists only the hints MCP gives meaning to when readOnlyHint is true.
        expect(tool.annotations).toEqual(
          declared?.readOnlyHint ? { readOnlyHint: true, openWorldHint: declared.openWorldHint } : declared,
        );
      }
      const listListings = tools.find((tool) => tool.name === 'list_listings');
      expect(listListings).toMatchObject({
        title: 'List listings',
        annotations: { readOnlyHint: true, openWorldHint: false },
        inputSchema: {
          type: 'object',
          properties: { limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
        },
      });
      // A field with a default may be left out, so it is not required on the wire.
      expect(listListings?.inputSchema.required ?? []).not.toContain('limit');
    });

    it('lists output schemas that results satisfy, and sends error results without structuredContent', async () => {
      const { tools } = resultOf(await dispatcher.handle(request('tools/list'), nothing)) as {
        tools: ListedTool[];
      };
      const schema = tools.find((tool) => tool.name === 'get_listing')?.outputSchema ?? {};
      // The SDK client's own validator (Ajv), as it checks structuredContent after every tools/call.
      const validate = new AjvJsonSchemaValidator().getValidator(schema);
      const call = async (listingId: string) =>
        resultOf(
          await dispatcher.handle(
            request('tools/call', { name: 'get_listing', arguments: { listingId } }),
            everything,
          ),
        );
      expect(validate((await call(listingIds[0] ?? '')).structuredContent).valid).toBe(true);
      // The SDK client validates structuredContent only when a result has it; an error result has none.
      expect(toolErrorOf(await call('lst_nope')).code).toBe('not_found');
      expect(validate({ id: 'lst_1' }).valid).toBe(false);
    });

    it('resources/list shows exactly service://user and service://listings', async () => {
      const result = resultOf(await dispatcher.handle(request('resources/list'), nothing));
      const resources = result.resources as { uri: string; mimeType: string; name: string }[];
      expect(resources.map((resource) => resource.uri)).toEqual(['service://user', 'service://listings']);
      for (const resource of resources) expect(resource.mimeType).toBe('application/json');
    });

    it('resources/templates/list shows the three templates', async () => {
      const result = resultOf(await dispatcher.handle(request('resources/templates/list'), nothing));
      expect((result.resourceTemplates as { uriTemplate: string }[]).map((t) => t.uriTemplate)).toEqual([
        'service://listings/{listingId}',
        'service://listings/{listingId}/calendar/{startDate}/{endDate}',
        'service://reservations/{reservationId}',
      ]);
    });

    it('prompts/list shows the three prompts with their arguments', async () => {
      const result = resultOf(await dispatcher.handle(request('prompts/list'), nothing));
      const prompts = result.prompts as { name: string; arguments: { name: string; required: boolean }[] }[];
      expect(prompts.map((prompt) => prompt.name)).toEqual([
        'daily_briefing',
        'guest_response',
        'pricing_review',
      ]);
      const guestResponse = prompts.find((prompt) => prompt.name === 'guest_response');
      expect(guestResponse?.arguments).toContainEqual(
        expect.objectContaining({ name: 'reservationId', required: true }),
      );
      const briefing = prompts.find((prompt) => prompt.name === 'daily_briefing');
      expect(briefing?.arguments).toContainEqual(expect.objectContaining({ name: 'date', required: false }));
    });

    it('refuses a cursor it never gave, and takes an empty or null one', async () => {
      expect(errorOf(await dispatcher.handle(request('tools/list', { cursor: 'abc' }), nothing)).code).toBe(
        -32602,
      );
      for (const cursor of ['', null]) {
        resultOf(await dispatcher.handle(request('prompts/list', { cursor }), nothing));
      }
    });

    it('serialises the precomputed lists to the same JSON as the response objects', async () => {
      for (const method of ['tools/list', 'resources/list', 'resources/templates/list', 'prompts/list']) {
        const message = request(method, undefined, `id-${method}`);
        const json = await dispatcher.handleJson(message, nothing);
        expect(JSON.parse(json ?? 'null')).toEqual(await dispatcher.handle(message, nothing));
      }
      const init = request('initialize', { protocolVersion: '2025-06-18' }, 7);
      expect(JSON.parse((await dispatcher.handleJson(init, nothing)) ?? 'null')).toMatchObject({
        jsonrpc: '2.0',
        id: 7,
        result: { protocolVersion: '2025-06-18' },
      });
    });
  });

  describe('tools/call', () => {
    it('runs a tool and returns its structured output and the same JSON as text', async () => {
      const id = listingIds[0] ?? '';
      const result = resultOf(
        await dispatcher.handle(
          request('tools/call', { name: 'get_listing', arguments: { listingId: id } }),
          everything,
        ),
      );
      expect(result.isError).toBeUndefined();
      expect(result.structuredContent).toMatchObject({ id });
      const [block] = result.content as { type: string; text: string }[];
      expect(block?.type).toBe('text');
      expect(JSON.parse(block?.text ?? '')).toEqual(result.structuredContent);
    });

    it('answers invalid input and unknown records as tool errors the model can act on', async () => {
      const invalid = resultOf(
        await dispatcher.handle(
          request('tools/call', { name: 'list_listings', arguments: { limit: 0 } }),
          everything,
        ),
      );
      expect(toolErrorOf(invalid).code).toBe('invalid_argument');
      const missing = resultOf(
        await dispatcher.handle(
          request('tools/call', { name: 'get_listing', arguments: { listingId: 'lst_nope' } }),
          everything,
        ),
      );
      expect(toolErrorOf(missing).code).toBe('not_found');
    });

    it('answers an unknown tool or a missing name with -32602', async () => {
      const unknown = errorOf(
        await dispatcher.handle(request('tools/call', { name: 'drop_tables' }), everything),
      );
      expect(unknown.code).toBe(-32602);
      expect(unknown.message).toContain('drop_tables');
      expect(errorOf(await dispatcher.handle(request('tools/call', {}), everything)).code).toBe(-32602);
      const long = errorOf(
        await dispatcher.handle(request('tools/call', { name: 'x'.repeat(5000) }), everything),
      );
      expect(long.message.length).toBeLessThan(400);
    });

    it('refuses a tool outside the grant with -32011 should a transport not have checked', async () => {
      const error = errorOf(
        await dispatcher.handle(
          request('tools/call', { name: 'get_listing', arguments: { listingId: listingIds[0] } }, 42),
          { actor: world.owner, scopes: ['calendar:read'] },
        ),
      );
      expect(error.code).toBe(-32011);
      expect(error.message).toMatch(/^insufficient_scope/);
      expect(error.data).toEqual({ required: ['listings:read'], missing: ['listings:read'] });
    });
  });

  describe('resources/read', () => {
    it('reads service://user as JSON', async () => {
      const result = resultOf(
        await dispatcher.handle(request('resources/read', { uri: 'service://user' }), everything),
      );
      const [content] = result.contents as { uri: string; mimeType: string; text: string }[];
      expect(content?.uri).toBe('service://user');
      expect(content?.mimeType).toBe('application/json');
      expect(JSON.parse(content?.text ?? '')).toMatchObject({ role: 'owner' });
    });

    it('reads a listing through its template', async () => {
      const uri = `service://listings/${listingIds[1]}`;
      const result = resultOf(await dispatcher.handle(request('resources/read', { uri }), everything));
      const [content] = result.contents as { text: string }[];
      expect(JSON.parse(content?.text ?? '')).toMatchObject({ id: listingIds[1] });
    });

    it('answers -32002 with data.uri for a URI that names nothing or a record that does not exist', async () => {
      for (const uri of ['service://nothing', 'service://listings/lst_missing', 'https://example.com/']) {
        const error = errorOf(await dispatcher.handle(request('resources/read', { uri }), everything));
        expect(error.code).toBe(-32002);
        expect(error.data).toMatchObject({ uri });
      }
    });

    it('answers -32602 for malformed template variables or a missing uri', async () => {
      const uri = `service://listings/${listingIds[0]}/calendar/2026-06-01/2027-06-01`;
      const error = errorOf(await dispatcher.handle(request('resources/read', { uri }), everything));
      expect(error.code).toBe(-32602);
      expect(error.data).toMatchObject({ uri, code: 'invalid_argument' });
      expect(errorOf(await dispatcher.handle(request('resources/read', {}), everything)).code).toBe(-32602);
    });

    it('refuses a resource outside the grant with -32011', async () => {
      const error = errorOf(
        await dispatcher.handle(request('resources/read', { uri: 'service://listings' }), {
          actor: world.owner,
          scopes: ['user:read'],
        }),
      );
      expect(error.code).toBe(-32011);
    });
  });

  describe('prompts/get', () => {
    it('fills in the daily briefing', async () => {
      const result = resultOf(
        await dispatcher.handle(
          request('prompts/get', { name: 'daily_briefing', arguments: {} }),
          everything,
        ),
      );
      const messages = result.messages as { role: string; content: { type: string; text: string } }[];
      expect(messages[0]?.role).toBe('user');
      expect(messages[0]?.content.type).toBe('text');
      expect(messages[0]?.content.text.length).toBeGreaterThan(50);
    });

    it('answers -32602 for an unknown prompt, a missing argument or an unknown record', async () => {
      for (const params of [
        { name: 'world_domination' },
        { name: 'guest_response', arguments: {} },
        { name: 'guest_response', arguments: { reservationId: 'res_missing' } },
        { name: 'daily_briefing', arguments: { date: 'tomorrow-ish' } },
      ]) {
        const error = errorOf(await dispatcher.handle(request('prompts/get', params), everything));
        expect(error.code).toBe(-32602);
      }
    });
  });

  describe('completion/complete', () => {
    const ref = { type: 'ref/resource', uri: 'service://listings/{listingId}' };

    it('completes listing ids of the template', async () => {
      const result = resultOf(
        await dispatcher.handle(
          request('completion/complete', { ref, argument: { name: 'listingId', value: '' } }),
          everything,
        ),
      );
      const completion = result.completion as { values: string[]; hasMore: boolean };
      expect([...completion.values].sort()).toEqual([...listingIds].sort());
      expect(completion.hasMore).toBe(false);
    });

    it('suggests nothing when the grant does not cover the ids', async () => {
      const result = resultOf(
        await dispatcher.handle(
          request('completion/complete', { ref, argument: { name: 'listingId', value: '' } }),
          { actor: world.owner, scopes: ['calendar:read'] },
        ),
      );
      expect(result).toEqual({ completion: { values: [], total: 0, hasMore: false } });
    });

    it('answers -32602 for a bad ref or an argument the ref does not have', async () => {
      for (const params of [
        { ref: { type: 'ref/other' }, argument: { name: 'x', value: '' } },
        { ref, argument: { name: 'reservationId', value: '' } },
        { ref: { type: 'ref/resource', uri: 'service://nope/{id}' }, argument: { name: 'id', value: '' } },
        { ref, argument: 'listingId' },
      ]) {
        const error = errorOf(await dispatcher.handle(request('completion/complete', params), everything));
        expect(error.code).toBe(-32602);
      }
    });
  });

  describe('messages that are not requests', () => {
    it('answers notifications and client responses with nothing', async () => {
      expect(
        await dispatcher.handle({ jsonrpc: '2.0', method: 'notifications/initialized' }, nothing),
      ).toBeNull();
      expect(
        await dispatcher.handleJson({ jsonrpc: '2.0', method: 'notifications/cancelled' }, nothing),
      ).toBeNull();
      // A notification never runs anything, even when it names a tool.
      expect(
        await dispatcher.handle(
          { jsonrpc: '2.0', method: 'tools/call', params: { name: 'get_listing' } },
          nothing,
        ),
      ).toBeNull();
      expect(await dispatcher.handle({ jsonrpc: '2.0', id: 5, result: {} }, nothing)).toBeNull();
    });

    it('answers an unknown method with -32601', async () => {
      for (const method of ['logging/setLevel', 'resources/subscribe', 'tools/delete', '__proto__']) {
        expect(errorOf(await dispatcher.handle(request(method, {}), everything)).code).toBe(-32601);
      }
    });

    it.each([
      ['an array', [request('ping')], null],
      ['a string', 'ping', null],
      ['null', null, null],
      ['no jsonrpc', { id: 3, method: 'ping' }, 3],
      ['jsonrpc 1.0', { jsonrpc: '1.0', id: 3, method: 'ping' }, 3],
      ['a numeric method', { jsonrpc: '2.0', id: 3, method: 7 }, 3],
      ['no method', { jsonrpc: '2.0', id: 3 }, 3],
      ['a null id', { jsonrpc: '2.0', id: null, method: 'ping' }, null],
      ['an object id', { jsonrpc: '2.0', id: { a: 1 }, method: 'ping' }, null],
    ])('answers %s with -32600', async (_label, message, id) => {
      const response = await dispatcher.handle(message, everything);
      expect(errorOf(response).code).toBe(-32600);
      expect(response?.id).toBe(id);
    });

    it('answers params that are not an object with -32602', async () => {
      expect(errorOf(await dispatcher.handle(request('tools/call', ['get_listing']), everything)).code).toBe(
        -32602,
      );
    });
  });

  describe('unexpected failures', () => {
    it('never shows the cause: a generic message and a reference the report receives', async () => {
      const secret = 'relation "listings" does not exist at character 15';
      const broken: InnkeepDomain = {
        ...world.context.domain,
        listings: {
          ...world.context.domain.listings,
          get: async () => {
            throw new Error(secret);
          },
        },
      };
      const seen: Reported[] = [];
      const fragile = createMcpDispatcher({
        domain: broken,
        clock: world.clock,
        serverInfo: { name: 'innkeep', version: '1' },
        report: (reference, cause) => seen.push({ reference, cause }),
      });
      const uri = `service://listings/${listingIds[0]}`;
      const json = (await fragile.handleJson(request('resources/read', { uri }), everything)) ?? '';
      expect(json).not.toContain('relation');
      const error = JSON.parse(json).error;
      expect(error.code).toBe(-32603);
      expect(seen).toHaveLength(1);
      expect(error.data).toEqual({ reference: seen[0]?.reference });
      expect(error.message).toContain(seen[0]?.reference);
      expect(seen[0]?.cause).toEqual(new Error(secret));

      const tool = resultOf(
        await fragile.handle(
          request('tools/call', { name: 'get_listing', arguments: { listingId: listingIds[0] } }),
          everything,
        ),
      );
      expect(JSON.stringify(tool)).not.toContain('relation');
      expect(toolErrorOf(tool).code).toBe('internal');
      expect(seen).toHaveLength(2);
    });
  });
});

describe('invalidMessageError', () => {
  it('passes requests, notifications and responses', () => {
    expect(invalidMessageError({ jsonrpc: '2.0', id: 1, method: 'ping' })).toBeNull();
    expect(invalidMessageError({ jsonrpc: '2.0', id: 'a', method: 'tools/list', params: {} })).toBeNull();
    expect(invalidMessageError({ jsonrpc: '2.0', method: 'notifications/initialized' })).toBeNull();
    expect(invalidMessageError({ jsonrpc: '2.0', id: 4, result: {} })).toBeNull();
    expect(invalidMessageError({ jsonrpc: '2.0', id: 4, error: { code: 1, message: 'x' } })).toBeNull();
  });

  it('answers anything else with -32600 and the id when it can be read', () => {
    expect(invalidMessageError({ jsonrpc: '2.0', id: 4 })).toMatchObject({ id: 4, error: { code: -32600 } });
    expect(invalidMessageError({ id: 'q', method: 'ping' })).toMatchObject({
      id: 'q',
      error: { code: -32600 },
    });
    expect(invalidMessageError({ jsonrpc: '2.0', id: true, method: 'ping' })).toMatchObject({
      id: null,
      error: { code: -32600 },
    });
    expect(invalidMessageError(42)).toMatchObject({ id: null, error: { code: -32600 } });
  });
});

describe('requiredScopes', () => {
  const call = (method: string, params: unknown) => requiredScopes({ jsonrpc: '2.0', id: 1, method, params });

  it('names the scopes of a tool, a resource and a prompt', () => {
    expect(call('tools/call', { name: 'get_listing' })).toEqual(['listings:read']);
    expect(call('resources/read', { uri: 'service://user' })).toEqual(['user:read']);
    expect(
      call('resources/read', { uri: 'service://listings/lst_1/calendar/2026-01-01/2026-01-02' }),
    ).toEqual(['calendar:read']);
    expect(call('resources/read', { uri: 'service://reservations/res_1' })).toEqual(['reservations:read']);
    const briefing = call('prompts/get', { name: 'daily_briefing' }) as Scope[];
    expect([...briefing].sort()).toEqual([
      'calendar:read',
      'listings:read',
      'messages:read',
      'reservations:read',
    ]);
  });

  it('says unknown for a tool, resource or prompt that does not exist, or one not named', () => {
    expect(call('tools/call', { name: 'nope' })).toBe('unknown');
    expect(call('tools/call', {})).toBe('unknown');
    expect(call('resources/read', { uri: 'service://nope' })).toBe('unknown');
    expect(call('prompts/get', { name: 'nope' })).toBe('unknown');
  });

  it('needs nothing for lists, handshakes, completions, notifications and malformed messages', () => {
    for (const method of ['initialize', 'ping', 'tools/list', 'resources/list', 'prompts/list']) {
      expect(call(method, {})).toEqual([]);
    }
    expect(
      call('completion/complete', { ref: { type: 'ref/resource', uri: 'service://listings/{listingId}' } }),
    ).toEqual([]);
    expect(requiredScopes({ jsonrpc: '2.0', method: 'tools/call', params: { name: 'get_listing' } })).toEqual(
      [],
    );
    expect(requiredScopes([{ jsonrpc: '2.0', id: 1, method: 'tools/call' }])).toEqual([]);
    expect(requiredScopes('tools/call')).toEqual([]);
  });
});
