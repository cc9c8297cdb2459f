import { allScopes } from '@innkeep/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpDispatcher, type McpCaller, type McpDispatcher } from '../src/server/dispatcher.ts';
import { jsonRpcErrorCodes } from '../src/server/json-rpc.ts';
import { toolErrorOf } from './support/tool-error.ts';
import { openToolWorld, type ToolWorld } from './support/tool-world.ts';

// The calls a fuzzer saw fail as `internal`: each carries U+0000 in the field named second.
const nulCalls: readonly [string, string, Record<string, unknown>][] = [
  ['get_listing', 'listingId', { listingId: 'lst_\u0000' }],
  ['get_calendar', 'listingId', { listingId: 'lst_\u0000', startDate: '2026-07-01', endDate: '2026-07-05' }],
  ['get_reservation', 'reservationId', { reservationId: 'res_\u0000' }],
  ['get_message_thread', 'reservationId', { reservationId: 'res_\u0000' }],
  ['get_account', 'channelAccountId', { channelAccountId: 'cha_\u0000' }],
  ['get_help_article', 'idOrSlug', { idOrSlug: 'connect\u0000' }],
  ['collect_date_range', 'listingId', { phrase: 'next weekend', listingId: 'lst_\u0000' }],
  ['send_message', 'reservationId', { reservationId: 'res_\u0000', body: 'Hello' }],
  ['set_prices', 'listingId', { listingId: 'lst_\u0000', prices: [{ date: '2026-07-01', price: 120 }] }],
  ['cancel_reservation', 'reservationId', { reservationId: 'res_\u0000' }],
  ['pause_message_rule', 'ruleId', { ruleId: 'mru_\u0000' }],
];

describe('arguments holding U+0000, which PostgreSQL cannot store', () => {
  let world: ToolWorld;
  let dispatcher: McpDispatcher;
  let caller: McpCaller;
  const reported: unknown[] = [];

  beforeAll(async () => {
    world = await openToolWorld();
    dispatcher = createMcpDispatcher({
      domain: world.context.domain,
      clock: world.clock,
      serverInfo: { name: 'innkeep', version: '0.0.0' },
      report: (_reference, cause) => reported.push(cause),
    });
    caller = { actor: world.owner, scopes: allScopes };
  }, 120_000);

  afterAll(async () => {
    await world?.close();
  });

  it.each(nulCalls)(
    '%s refuses one in %s as invalid_argument naming the field',
    async (name, field, args) => {
      const response = await dispatcher.handle(
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
        caller,
      );
      const result = response !== null && 'result' in response ? response.result : undefined;
      expect(toolErrorOf(result)).toMatchObject({
        code: 'invalid_argument',
        message: expect.stringContaining(`${field}: must not contain the NUL character`),
        details: { issues: [{ path: field }] },
      });
      expect(reported).toEqual([]);
    },
  );

  it('refuses one in a prompt argument as invalid params, not as a failure', async () => {
    const response = await dispatcher.handle(
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'prompts/get',
        params: { name: 'guest_response', arguments: { reservationId: 'res_\u0000' } },
      },
      caller,
    );
    const error = response !== null && 'error' in response ? response.error : undefined;
    expect(error).toMatchObject({
      code: jsonRpcErrorCodes.invalidParams,
      message: expect.stringContaining('reservationId: must not contain the NUL character'),
    });
    expect(reported).toEqual([]);
  });

  it('finds no value for a completion holding one, without a failure', async () => {
    const response = await dispatcher.handle(
      {
        jsonrpc: '2.0',
        id: 3,
        method: 'completion/complete',
        params: {
          ref: { type: 'ref/resource', uri: 'service://reservations/{reservationId}' },
          argument: { name: 'reservationId', value: 'res_\u0000' },
        },
      },
      caller,
    );
    expect(response).toMatchObject({ result: { completion: { values: [], hasMore: false } } });
    expect(reported).toEqual([]);
  });
});
