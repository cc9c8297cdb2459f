import {
  assistantAccessLifetimes,
  builtInHelpArticles,
  defaultCalendarImportIntervalMinutes,
  pageLimits,
  stayRuleDefaultSendTime,
} from '@innkeep/domain';
import { maxChannelCalendarDays, maxToolCalendarDays } from '@innkeep/operations';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolCatalogue, toolsByName } from '../src/catalogue.ts';
import { maxReviewListings, maxReviewNights } from '../src/prompts/pricing-review.prompt.ts';
import { getPrompt, promptCatalogue } from '../src/prompts/prompt-catalogue.ts';
import { listedResources, resourceTemplates } from '../src/resources/resource-definition.ts';
import { serverInstructions } from '../src/server/server-instructions.ts';
import { openToolWorld, type ToolWorld } from './support/tool-world.ts';

/**
 * Issue 20: the copy an assistant or a host reads states limits, counts and windows, and they drifted from
 * the code (calendars "up to 366 days" when get_calendar took 92, "26 tools" when there were 49). This test
 * renders all of that copy and holds every number said in a known phrase to the constant the code uses, so
 * a new wrong number in such a phrase fails here rather than misleading someone.
 */

/** One piece of copy: where it is read, and by whom. */
interface CopyText {
  /** Names the piece in failure messages, e.g. `tool get_calendar` or `article rate-limits`. */
  readonly where: string;
  /** `assistant`: what an MCP client's model reads; `help`: the help centre, read by hosts and integrators. */
  readonly reader: 'assistant' | 'help';
  /** The text, with every run of whitespace made one space so a phrase may wrap across lines. */
  readonly text: string;
}

const copy = (where: string, reader: CopyText['reader'], text: string): CopyText => ({
  where,
  reader,
  text: text.replace(/\s+/g, ' '),
});

/** Every `description` anywhere in a JSON Schema: the field copy a model and the REST reference show. */
function descriptionsIn(schema: unknown): string[] {
  if (Array.isArray(schema)) return schema.flatMap(descriptionsIn);
  if (typeof schema !== 'object' || schema === null) return [];
  return Object.entries(schema).flatMap(([key, value]) =>
    key === 'description' && typeof value === 'string' ? [value] : descriptionsIn(value),
  );
}

const jsonSchemaOf = (schema: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any' });

/** The messages a schema refuses `value` with: refusals are copy too. */
function refusalsOf(schema: z.ZodType, value: unknown): string {
  const parsed = schema.safeParse(value);
  if (parsed.success) throw new Error('expected a refusal');
  return parsed.error.issues.map((issue) => issue.message).join(' ');
}

/** A year of dates: longer than any window, so each window's refusal is rendered. */
const aYear = { listingId: 'lst_copy', startDate: '2026-01-01', endDate: '2026-12-31' };

/** The copy that needs no account: tool, resource and prompt declarations, instructions and the help centre. */
function declaredCopy(): CopyText[] {
  const getCalendar = toolsByName.get('get_calendar');
  const calendarTemplate = resourceTemplates.find((template) => template.name === 'listing_calendar');
  if (getCalendar === undefined || calendarTemplate === undefined) throw new Error('calendar copy missing');
  return [
    ...toolCatalogue.flatMap((tool) => [
      // The name leads, so a phrase can be about the tool without repeating its name.
      copy(`tool ${tool.name}`, 'assistant', `${tool.name}: ${tool.description}`),
      copy(`tool ${tool.name} title`, 'assistant', `${tool.name}: ${tool.title}`),
      ...descriptionsIn(jsonSchemaOf(tool.input, 'input')).map((text) =>
        copy(`tool ${tool.name} input`, 'assistant', `${tool.name}: ${text}`),
      ),
      ...descriptionsIn(jsonSchemaOf(tool.output, 'output')).map((text) =>
        copy(`tool ${tool.name} output`, 'assistant', `${tool.name}: ${text}`),
      ),
    ]),
    copy('get_calendar refusal', 'assistant', `get_calendar: ${refusalsOf(getCalendar.input, aYear)}`),
    ...[...listedResources, ...resourceTemplates].map((resource) =>
      copy(`resource ${resource.name}`, 'assistant', `${resource.name}: ${resource.description}`),
    ),
    copy(
      'calendar resource refusal',
      'assistant',
      `${calendarTemplate.name}: ${refusalsOf(calendarTemplate.params, aYear)}`,
    ),
    ...promptCatalogue.flatMap((prompt) => [
      copy(`prompt ${prompt.name}`, 'assistant', `${prompt.name}: ${prompt.description}`),
      ...prompt.arguments.map((argument) =>
        copy(
          `prompt ${prompt.name} ${argument.name}`,
          'assistant',
          `${prompt.name}: ${argument.description}`,
        ),
      ),
    ]),
    copy('server instructions', 'assistant', serverInstructions),
    ...builtInHelpArticles.map((article) =>
      copy(`article ${article.slug}`, 'help', `${article.title}. ${article.summary} ${article.body}`),
    ),
  ];
}

/** The page sizes every paged list tool (one taking a cursor) declares; one set, which the copy states once. */
function modelPageLimitsOfTools(): { max: number; default: number } {
  const limits = toolCatalogue.flatMap((tool) => {
    const schema = jsonSchemaOf(tool.input, 'input') as {
      properties?: { limit?: { maximum?: number; default?: number }; cursor?: unknown };
    };
    const limit = schema.properties?.limit;
    const paged = limit !== undefined && schema.properties?.cursor !== undefined;
    return paged ? [{ max: limit.maximum, default: limit.default }] : [];
  });
  const distinct = new Set(limits.map((limit) => JSON.stringify(limit)));
  if (distinct.size !== 1) throw new Error(`list tools page differently: ${[...distinct].join(', ')}`);
  const [limit] = limits;
  if (limit?.max === undefined || limit.default === undefined) throw new Error('a list limit is unbounded');
  return { max: limit.max, default: limit.default };
}

const secondsPerDay = 86_400;
/** Seconds in each unit a lifetime may be stated in. */
const secondsPer: ReadonlyMap<string, number> = new Map([
  ['minute', 60],
  ['hour', 3600],
  ['day', secondsPerDay],
  ['year', 365 * secondsPerDay],
]);

/**
 * A number the copy states. `phrase` is global; its first group is the number (digits, maybe with thousands
 * commas, or an HH:MM time); with `inSeconds`, its second group is the unit (minutes, hours, days, years)
 * and the number is compared in seconds.
 */
interface StatedNumber {
  readonly what: string;
  readonly phrase: RegExp;
  readonly expected: number | string;
  /** Only copy of this reader; both when absent. */
  readonly reader?: CopyText['reader'];
  /** Only copy whose {@link CopyText.where} matches; all when absent. */
  readonly where?: RegExp;
  readonly inSeconds?: boolean;
}

function statedNumbers(): readonly StatedNumber[] {
  const readTools = toolCatalogue.filter((tool) => tool.annotations.readOnlyHint).length;
  const modelPage = modelPageLimitsOfTools();
  const window = '[^.;|]{0,160}?';
  return [
    {
      what: 'days one get_calendar call (or the calendar resource) reads',
      // A calendar named as a word, a tool or a resource, not Host Tools' `getCalendar` (its own row below).
      phrase: new RegExp(
        `\\b(?:get_calendar|getCalendarDays|listing_calendar|calendars?)\\b${window}\\b(?:at most|up to) (\\d[\\d,]*)`,
        'gi',
      ),
      expected: maxToolCalendarDays,
    },
    {
      what: 'days any get_calendar or calendar resource copy names',
      phrase: /\b(?:at most|up to) (\d[\d,]*) days\b/g,
      expected: maxToolCalendarDays,
      where: /get_calendar|listing_calendar|calendar resource/,
    },
    {
      what: 'days one Host Tools getCalendar call reads',
      phrase: /\bgetCalendar\b`?[^.;|]{0,60}?\b(?:at most|up to) (\d[\d,]*)/g,
      expected: maxChannelCalendarDays,
    },
    {
      what: 'items one page of a list tool holds at most',
      phrase: new RegExp(`\\blimit\\b${window}\\bat most (\\d[\\d,]*)`, 'gi'),
      expected: modelPage.max,
      reader: 'assistant',
    },
    {
      what: 'items one page of a list tool holds by default',
      phrase: new RegExp(`\\blimit\\b${window}\\bdefault (\\d[\\d,]*)`, 'gi'),
      expected: modelPage.default,
      reader: 'assistant',
    },
    {
      what: 'items one page of an assistant’s list holds at most, as the help centre says',
      phrase: /\bassistant(?: tools)?['’]?s? lists?\b[^.;|]{0,40}?\b(?:at most|up to) (\d[\d,]*)/gi,
      expected: modelPage.max,
      reader: 'help',
    },
    {
      what: 'items one page of a REST list holds at most',
      phrase: /`limit`[^.;|]{0,40}?\b(?:at most|up to) (\d[\d,]*)/g,
      expected: pageLimits.max,
      reader: 'help',
    },
    {
      what: 'items one page of a REST list holds by default',
      phrase: /`limit`[^.;|]{0,40}?\bdefault (\d[\d,]*)/g,
      expected: pageLimits.default,
      reader: 'help',
    },
    { what: 'tools an assistant gets', phrase: /\b(\d[\d,]*) tools\b/g, expected: toolCatalogue.length },
    { what: 'tools that read', phrase: /\b(\d[\d,]*) (?:tools )?that read\b/g, expected: readTools },
    {
      what: 'tools that change things',
      phrase: /\b(\d[\d,]*) (?:tools )?that (?:change|write)\b/g,
      expected: toolCatalogue.length - readTools,
    },
    {
      what: 'listed resources',
      phrase: /\b(\d[\d,]*)\*{0,2} resources\b/g,
      expected: listedResources.length,
    },
    { what: 'prompts', phrase: /\b(\d[\d,]*)\*{0,2} prompts\b/g, expected: promptCatalogue.length },
    {
      what: 'how long an access token lasts',
      phrase: /\baccess tokens?\b[^.;|]{0,30}?\b(\d[\d,]*) (minute|hour|day)s?\b/gi,
      expected: assistantAccessLifetimes.accessTokenSeconds,
      inSeconds: true,
    },
    {
      what: 'how long a refresh token (an unused client) lasts',
      phrase: /\b(?:refresh tokens?|unused)\b[^.;|]{0,50}?\b(\d[\d,]*) (minute|hour|day|year)s?\b/gi,
      expected: assistantAccessLifetimes.refreshTokenDays * secondsPerDay,
      inSeconds: true,
    },
    {
      what: 'how long a connection (the OAuth grant) lasts',
      phrase:
        /\b(?:connection|grant|what you approved)\b[^.;|]{0,40}?\b(\d[\d,]*) (minute|hour|day|year)s?\b/gi,
      expected: assistantAccessLifetimes.grantDays * secondsPerDay,
      inSeconds: true,
    },
    {
      what: 'listings one portfolio pricing review covers',
      phrase: /\bfirst (\d[\d,]*) (?:enabled )?listings\b/g,
      expected: maxReviewListings,
      where: /pricing_review|Pricing review/,
    },
    {
      what: 'nights one pricing review covers at most',
      phrase: /\bat most (\d[\d,]*) nights\b/g,
      expected: maxReviewNights,
      where: /pricing_review|Pricing review/,
    },
    {
      what: 'minutes between two polls of a channel’s calendar',
      phrase: /\b(?:polls?|polled|imported)\b[^.;|]{0,40}?\bevery (\d[\d,]*) minutes\b/g,
      expected: defaultCalendarImportIntervalMinutes,
    },
    {
      what: 'when a during_stay or review_request rule without sendTime sends',
      phrase:
        /\b(?:during_stay|review_request)\b`?(?: and `?(?:during_stay|review_request)`?)? at (\d{1,2}:\d{2})/g,
      expected: stayRuleDefaultSendTime,
    },
  ];
}

/** One place a phrase states a number. */
interface Statement {
  readonly where: string;
  readonly quote: string;
  readonly said: number | string;
}

function statementsOf(rule: StatedNumber, texts: readonly CopyText[]): Statement[] {
  return texts
    .filter((text) => rule.reader === undefined || text.reader === rule.reader)
    .filter((text) => rule.where === undefined || rule.where.test(text.where))
    .flatMap((text) =>
      [...text.text.matchAll(rule.phrase)].map((match) => {
        const digits = match[1] ?? '';
        const number = digits.includes(':') ? digits : Number(digits.replaceAll(',', ''));
        const unit = (match[2] ?? '').toLowerCase();
        const said =
          rule.inSeconds === true && typeof number === 'number'
            ? number * (secondsPer.get(unit) ?? Number.NaN)
            : number;
        return { where: text.where, quote: match[0], said };
      }),
    );
}

describe('numbers in the copy', () => {
  let world: ToolWorld;
  let texts: CopyText[];

  beforeAll(async () => {
    world = await openToolWorld();
    // Prompts are written from live facts: render them on the demo account to read their whole text.
    const { items } = await world.context.domain.listings.list(world.owner, { limit: 1 });
    const rendered = await Promise.all([
      getPrompt('pricing_review', { listingId: items[0]?.id }, world.context),
      getPrompt('pricing_review', {}, world.context),
      getPrompt('daily_briefing', {}, world.context),
    ]);
    texts = [
      ...declaredCopy(),
      ...rendered.flatMap((result) =>
        result.messages.map((message) =>
          copy(`prompt text ${result.description}`, 'assistant', message.content.text),
        ),
      ),
    ];
  });

  afterAll(async () => {
    await world?.close();
  });

  it.each(statedNumbers().map((rule) => [rule.what, rule] as const))('%s matches the code', (_what, rule) => {
    const statements = statementsOf(rule, texts);
    // A phrase nothing matches any more no longer guards its number: reword the pattern with the copy.
    expect(statements.length, `no copy states ${rule.what}`).toBeGreaterThan(0);
    const wrong = statements.filter((statement) => statement.said !== rule.expected);
    expect(wrong, `copy that states ${rule.what} as other than ${rule.expected}`).toEqual([]);
  });
});
