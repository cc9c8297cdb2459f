import { addDays } from '@innkeep/domain';
import { syncHelpArticles } from '@innkeep/storage';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolCatalogue, toolsByName } from '../src/catalogue.ts';
import { listedTool } from '../src/server/list-results.ts';
import type { ToolCallResult } from '../src/tool-result.ts';
import { openToolWorld, type ToolWorld, worldToday } from './support/tool-world.ts';

// A strict 2020-12 validator: the listed schemas must be valid 2020-12 and use no keyword it does not know.
// Naming a required field without typing it is valid 2020-12 (the smallest outputs are listed so); Ajv's
// strictRequired lint objects to it, and no MCP SDK client turns that lint on.
const ajv2020 = new Ajv2020({ strict: true, strictRequired: false, allErrors: true });
ajv2020.addFormat('date', /^\d{4}-\d{2}-\d{2}$/);
ajv2020.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/);
ajv2020.addFormat('email', /^[^\s@]+@[^\s@]+$/);
// The validator the SDK's client (1.32) runs on structuredContent after every tools/call.
const sdkValidator = new AjvJsonSchemaValidator();

const readTools = toolCatalogue.filter((tool) => tool.annotations.readOnlyHint);
const lastYear = { startDate: '2025-06-01', endDate: '2026-05-31' };
const nextQuarter = { startDate: worldToday, endDate: addDays(worldToday, 91) };
const nextMonth = { startDate: worldToday, endDate: addDays(worldToday, 30) };

/** Demo ids the read tools are called with. */
interface DemoIds {
  readonly listingId: string;
  readonly reservationId: string;
  readonly channelAccountId: string;
  readonly helpArticleId: string;
}

/** Every read tool's calls: its arguments, several where the shape of the result varies with them. */
function readCalls(ids: DemoIds): Record<string, readonly Record<string, unknown>[]> {
  const { listingId, reservationId } = ids;
  const range = (dates: { startDate: string; endDate: string }) => [
    dates,
    { ...dates, listingIds: [listingId], channel: 'airbnb' },
  ];
  return {
    list_listings: [{}, { limit: 2 }],
    get_listing: [{ listingId }],
    get_calendar: [{ listingId, startDate: worldToday, endDate: addDays(worldToday, 30) }],
    get_reservations: [{}, { startDate: worldToday, statuses: ['cancelled'] }],
    get_reservation: [{ reservationId }],
    // get_quote needs an open stay; see the dedicated test.
    get_quote: [],
    get_message_thread: [{ reservationId }],
    get_message_rules: [{}],
    get_pricing_rules: [{}],
    get_reviews: [{}, { unanswered: true }],
    list_accounts: [{}],
    get_account: [{ channelAccountId: ids.channelAccountId }],
    get_user: [{}],
    list_help_articles: [{}, { query: 'webhook' }],
    get_help_article: [{ idOrSlug: ids.helpArticleId }],
    collect_date_range: [{ phrase: 'June 3 - June 9' }, { phrase: 'soon' }, { phrase: 'next weekend' }],
    get_headline_kpis: range(lastYear),
    get_occupancy_stats: range(lastYear),
    get_revenue_stats: range(lastYear),
    get_adr_stats: range(lastYear),
    get_revpar_stats: range(lastYear),
    get_timeseries_stats: [{ ...lastYear, granularity: 'month', compareToLastYear: true }],
    get_listing_breakdown_stats: range(lastYear),
    get_channel_performance: range(lastYear),
    get_upcoming_reservations: [{}, { withinDays: 30 }],
    get_check_ins_check_outs: [nextQuarter, { ...nextMonth, listReservations: true }],
    get_pace_stats: range(nextQuarter),
    get_booking_pattern_stats: range(lastYear),
    get_cancellation_stats: range(lastYear),
    get_reservation_status_stats: range(lastYear),
    get_gap_analysis: range(nextQuarter),
    get_turnover_stats: range(nextQuarter),
    get_pricing_stats: range(nextQuarter),
    get_review_stats: range(lastYear),
    get_review_analytics: range(lastYear),
    get_response_time_stats: range(lastYear),
    get_response_time_breakdown: range(lastYear),
    list_listing_groups: [{}, { membersListed: 5 }],
    get_metric_definitions: [{}],
  };
}

describe('the listed output schemas, checked against real results of the demo account', () => {
  let world: ToolWorld;
  let ids: DemoIds;

  /** The structured output of a call that must succeed. */
  async function outputOf(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    const tool = toolsByName.get(name);
    if (tool === undefined) throw new Error(`no tool ${name}`);
    const result: ToolCallResult = await world.call(tool, args);
    expect(result.isError, `${name} ${JSON.stringify(args)}: ${result.content[0]?.text}`).toBeUndefined();
    return result.structuredContent ?? {};
  }

  /** Fails the test, naming the tool and the schema errors, when `output` does not satisfy the listed schema. */
  function expectValid(name: string, output: Record<string, unknown>) {
    const tool = toolsByName.get(name);
    if (tool === undefined) throw new Error(`no tool ${name}`);
    const schema = listedTool(tool).outputSchema as Record<string, unknown>;
    const validate = ajv2020.compile(schema);
    expect(validate(output), `${name}: ${ajv2020.errorsText(validate.errors)}`).toBe(true);
    const sdk = sdkValidator.getValidator(schema)(output);
    expect(sdk.valid, `${name} (SDK client): ${sdk.errorMessage}`).toBe(true);
  }

  beforeAll(async () => {
    world = await openToolWorld();
    await syncHelpArticles(world.database.db);
    const first = <T>(items: unknown, what: string): T => {
      const item = (items as T[] | undefined)?.[0];
      if (item === undefined) throw new Error(`the demo account has no ${what}`);
      return item;
    };
    const listing = first<{ id: string }>((await outputOf('list_listings', {})).items, 'listing');
    const reservation = first<{ id: string }>(
      (await outputOf('get_reservations', { startDate: worldToday })).items,
      'reservation',
    );
    const account = first<{ id: string }>((await outputOf('list_accounts', {})).items, 'channel account');
    const article = first<{ id: string }>((await outputOf('list_help_articles', {})).items, 'help article');
    ids = {
      listingId: listing.id,
      reservationId: reservation.id,
      channelAccountId: account.id,
      helpArticleId: article.id,
    };
  }, 180_000);

  afterAll(async () => {
    await world?.close();
  });

  it('calls every read tool', () => {
    expect(Object.keys(readCalls(ids)).sort()).toEqual(readTools.map((tool) => tool.name).sort());
  });

  it.each(readTools.map((tool) => tool.name).filter((name) => name !== 'get_quote'))(
    '%s: every result satisfies the listed output schema',
    async (name) => {
      for (const args of readCalls(ids)[name] ?? []) expectValid(name, await outputOf(name, args));
    },
  );

  it('get_quote: a priced stay satisfies the listed output schema', async () => {
    const getQuote = toolsByName.get('get_quote');
    if (getQuote === undefined) throw new Error('no tool get_quote');
    // The first stay of two to five nights that the demo calendars allow, from a week ahead.
    for (let offset = 7; offset < 120; offset += 3) {
      for (const nights of [2, 3, 5]) {
        const startDate = addDays(worldToday, offset);
        const args = { listingId: ids.listingId, startDate, endDate: addDays(startDate, nights), guests: 1 };
        const result = await world.call(getQuote, args);
        if (result.isError === true) continue;
        expectValid('get_quote', result.structuredContent ?? {});
        return;
      }
    }
    throw new Error('no open stay found in the demo calendar');
  });

  it('rejects an output missing a required field or with a field of the wrong kind: none is vacuous', () => {
    for (const tool of toolCatalogue) {
      const schema = listedTool(tool).outputSchema as {
        required?: string[];
        properties?: Record<string, unknown>;
      };
      const [field = ''] = [...(schema.required ?? []), ...Object.keys(schema.properties ?? {})];
      expect(field, tool.name).not.toBe('');
      const validate = ajv2020.compile(schema);
      // No listed field takes a string, an array and an object alike.
      const wrong = [{}, { [field]: 'x' }, { [field]: [] }, { [field]: {} }];
      expect(
        wrong.some((output) => !validate(output)),
        tool.name,
      ).toBe(true);
    }
  });
});
