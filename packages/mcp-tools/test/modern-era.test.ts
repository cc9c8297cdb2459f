import { describe, expect, it } from 'vitest';
import { precompute } from '../src/server/list-results.ts';
import { createModernEra, modernErrorCode } from '../src/server/modern-era.ts';
import { protocolEraOf, requestMetaError } from '../src/server/request-meta.ts';

const serverInfo = { name: 'innkeep', version: '9.9.9' };
const modern = createModernEra({ serverInfo, capabilities: { tools: {} }, instructions: 'Hello.' });
const envelope = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};
const request = (method: string, meta?: unknown, params: object = {}) => ({
  jsonrpc: '2.0',
  id: 1,
  method,
  params: meta === undefined ? params : { ...params, _meta: meta },
});

describe('the era of a message, from its body alone', () => {
  it.each([
    ['no _meta', request('tools/list'), 'legacy'],
    [
      'a claim naming a legacy revision',
      request('tools/list', { ...envelope, 'io.modelcontextprotocol/protocolVersion': '2025-11-25' }),
      'legacy',
    ],
    ['a claim naming 2026-07-28', request('tools/list', envelope), 'modern'],
    [
      'a claim naming an unknown later revision',
      request('tools/list', { ...envelope, 'io.modelcontextprotocol/protocolVersion': 'v999.0.0' }),
      'modern',
    ],
    ['a malformed claim', request('tools/list', { 'io.modelcontextprotocol/protocolVersion': 7 }), 'modern'],
    ['initialize without a claim', request('initialize'), 'legacy'],
    [
      'initialize with an incomplete modern envelope',
      request('initialize', { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' }),
      'legacy',
    ],
    ['initialize with a valid modern envelope', request('initialize', envelope), 'modern'],
  ])('%s is %s', (_case, message, era) => {
    expect(protocolEraOf(message)).toBe(era);
  });

  it('names the key an envelope lacks or gets wrong', () => {
    expect(requestMetaError(request('tools/list', {}))).toMatchObject({
      code: -32602,
      data: {
        missing: ['io.modelcontextprotocol/protocolVersion', 'io.modelcontextprotocol/clientCapabilities'],
      },
    });
    expect(
      requestMetaError(request('tools/list', { ...envelope, 'io.modelcontextprotocol/logLevel': 'loud' })),
    ).toMatchObject({ code: -32602, data: { invalid: 'io.modelcontextprotocol/logLevel' } });
    expect(requestMetaError(request('tools/list', envelope))).toBeNull();
  });
});

describe('results and errors of MCP 2026-07-28', () => {
  it('splices the revision’s fields into precomputed JSON, which parses to the result it stands for', () => {
    const list = precompute({ tools: [{ name: 'a' }] });
    const presented = modern.presentPrecomputed('tools/list', list);
    expect(JSON.parse(presented.json)).toEqual(presented.result);
    expect(presented.result).toEqual({
      resultType: 'complete',
      ttlMs: 3_600_000,
      cacheScope: 'public',
      _meta: { 'io.modelcontextprotocol/serverInfo': serverInfo },
      tools: [{ name: 'a' }],
    });
    expect(modern.presentPrecomputed('tools/list', list)).toBe(presented);
  });

  it('splices into an empty result, and merges a result that has a _meta of its own', () => {
    const empty = modern.presentPrecomputed('tools/call', precompute({}));
    expect(JSON.parse(empty.json)).toEqual({
      resultType: 'complete',
      _meta: { 'io.modelcontextprotocol/serverInfo': serverInfo },
    });
    const own = modern.presentPrecomputed('tools/call', precompute({ _meta: { trace: 'x' }, content: [] }));
    expect(JSON.parse(own.json)).toEqual({
      resultType: 'complete',
      _meta: { trace: 'x', 'io.modelcontextprotocol/serverInfo': serverInfo },
      content: [],
    });
  });

  it('refuses an invalid envelope, then an unknown revision, then a method the revision lacks', () => {
    expect(modern.refusal(request('ping', {}), 'ping')).toMatchObject({ code: -32602 });
    const later = { ...envelope, 'io.modelcontextprotocol/protocolVersion': '2027-01-01' };
    expect(modern.refusal(request('ping', later), 'ping')).toMatchObject({
      code: -32022,
      data: { supported: ['2026-07-28'], requested: '2027-01-01' },
    });
    expect(modern.refusal(request('ping', envelope), 'ping')).toMatchObject({ code: -32601 });
    expect(modern.refusal(request('tools/list', envelope), 'tools/list')).toBeNull();
  });

  it('renumbers Innkeep’s own codes and resource-not-found, and keeps the standard ones', () => {
    expect([-32001, -32010, -32011, -32012, -32002].map(modernErrorCode)).toEqual([
      1001, 1010, 1011, 1012, -32602,
    ]);
    expect([-32600, -32601, -32602, -32603, -32020, -32022].map(modernErrorCode)).toEqual([
      -32600, -32601, -32602, -32603, -32020, -32022,
    ]);
  });
});
