import {
  builtInHelpArticles,
  type HelpArticleSource,
  helpCollections,
  type ListHelpArticlesInput,
  systemClock,
  templateVariables,
  templateVariablesIn,
  webhookSignatureHeader,
} from '@innkeep/domain';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/connection.ts';
import type { Database } from '../src/database.ts';
import { createHelpUseCases, helpArticleId, syncHelpArticles } from '../src/help/help.store.ts';
import { openTestDatabase, testDatabaseKinds } from '../src/testing.ts';

// Every tool Innkeep serves with the scopes PRODUCT.md gives it, typed out here rather than read from the code
// (the domain cannot import the MCP catalogue): 26 read and write tools of the seed specification and the 23
// analytics tools.
const toolScopes: Readonly<Record<string, readonly string[]>> = {
  list_listings: ['listings:read'],
  get_listing: ['listings:read'],
  get_calendar: ['calendar:read'],
  get_quote: ['calendar:read'],
  get_reservations: ['reservations:read'],
  get_reservation: ['reservations:read'],
  get_message_thread: ['messages:read'],
  get_message_rules: ['messageRules:read'],
  get_pricing_rules: ['pricing:read'],
  get_reviews: ['reviews:read'],
  list_accounts: ['accounts:read'],
  get_account: ['accounts:read'],
  get_user: ['user:read'],
  list_help_articles: ['help:read'],
  get_help_article: ['help:read'],
  collect_date_range: [],
  send_message: ['messages:write'],
  set_prices: ['calendar:write'],
  set_availability: ['calendar:write'],
  create_reservation: ['reservations:write'],
  update_reservation: ['reservations:write'],
  cancel_reservation: ['reservations:write'],
  update_listing: ['listings:write'],
  create_message_rule: ['messageRules:write'],
  pause_message_rule: ['messageRules:write'],
  create_pricing_rule: ['pricing:write'],
  get_pricing_stats: ['calendar:read'],
  get_upcoming_reservations: ['reservations:read'],
  get_check_ins_check_outs: ['reservations:read'],
  get_booking_pattern_stats: ['reservations:read'],
  get_cancellation_stats: ['reservations:read'],
  get_reservation_status_stats: ['reservations:read'],
  get_channel_performance: ['reservations:read'],
  get_pace_stats: ['reservations:read'],
  get_revenue_stats: ['reservations:read'],
  get_adr_stats: ['reservations:read'],
  get_turnover_stats: ['reservations:read'],
  get_headline_kpis: ['reservations:read', 'calendar:read'],
  get_occupancy_stats: ['reservations:read', 'calendar:read'],
  get_revpar_stats: ['reservations:read', 'calendar:read'],
  get_timeseries_stats: ['reservations:read', 'calendar:read'],
  get_listing_breakdown_stats: ['reservations:read', 'calendar:read'],
  get_gap_analysis: ['reservations:read', 'calendar:read'],
  get_response_time_stats: ['messages:read'],
  get_response_time_breakdown: ['messages:read'],
  get_review_stats: ['reviews:read'],
  get_review_analytics: ['reviews:read'],
  list_listing_groups: ['listingGroups:read'],
  get_metric_definitions: [],
};
const toolNames = Object.keys(toolScopes);
// What a tool name looks like in an article: a backticked verb_noun such as `get_calendar`.
const mentionedTool = /`((?:get|list|set|create|update|cancel|pause|send|collect)_[a-z_]+)`/g;

const seedScopes =
  `listings:read listings:write reservations:read reservations:write calendar:read calendar:write
  messages:read messages:write messageRules:read messageRules:write pricing:read pricing:write
  listingGroups:read listingGroups:write locks:read locks:write reviews:read accounts:read user:read help:read
  webhooks:manage`.split(/\s+/);

const article = (slug: string) => builtInHelpArticles.find((a) => a.slug === slug)?.body ?? '';

describe('built-in help articles', () => {
  it('ship 8–15 well-formed articles with unique slugs in known collections', () => {
    expect(builtInHelpArticles.length).toBeGreaterThanOrEqual(8);
    expect(builtInHelpArticles.length).toBeLessThanOrEqual(15);
    expect(new Set(builtInHelpArticles.map((a) => a.slug)).size).toBe(builtInHelpArticles.length);
    for (const a of builtInHelpArticles) {
      expect(a.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(helpCollections).toContain(a.collection);
      expect(a.title.length).toBeLessThanOrEqual(100);
      expect(a.summary.length).toBeLessThanOrEqual(200);
      expect(a.body.length).toBeGreaterThan(500);
    }
  });

  it('use only template variables that message rules accept, and list all of them', () => {
    const known = new Set<string>(templateVariables.map((v) => v.name));
    for (const a of builtInHelpArticles) {
      expect(
        templateVariablesIn(a.body).filter((name) => !known.has(name)),
        a.slug,
      ).toEqual([]);
    }
    for (const name of known) expect(article('message-rules')).toContain(`\`{{${name}}}\``);
  });

  it('document every scope, and every tool Innkeep serves with the scopes it needs', () => {
    expect(toolNames).toHaveLength(49);
    const rows = article('oauth-scopes')
      .split('\n')
      .filter((line) => line.startsWith('| `') && line.includes('_'));
    for (const tool of toolNames) {
      const row = rows.find((line) => line.includes(`\`${tool}\``));
      expect(row, tool).toBeDefined();
      const scopes = (row ?? '').split('|')[2] ?? '';
      const listed = [...scopes.matchAll(/`([a-zA-Z]+:[a-z]+)`/g)].map((match) => match[1]);
      expect(listed.sort(), tool).toEqual([...(toolScopes[tool] ?? [])].sort());
      if (listed.length === 0) expect(scopes.trim(), tool).toBe('none');
    }
    for (const scope of seedScopes) expect(article('oauth-scopes')).toContain(`\`${scope}\``);
  });

  it('name only tools that exist, and explain the analytics with the tools that answer each question', () => {
    for (const { slug, body } of builtInHelpArticles) {
      for (const [, tool] of body.matchAll(mentionedTool))
        expect(toolNames, `${slug}: ${tool}`).toContain(tool);
    }
    const analytics = article('analytics');
    for (const tool of toolNames.slice(26)) {
      expect(analytics, tool).toContain(`\`${tool}\``);
    }
    expect(analytics).toMatch(/booked nights \/ available nights/);
    expect(analytics).toMatch(/`no_available_nights`/);
  });

  it('describe every webhook event and the limits of the product contract', () => {
    for (const event of [
      'reservation.created',
      'reservation.updated',
      'reservation.cancelled',
      'message.created',
      'review.created',
      'calendar.updated',
      'listing.updated',
    ]) {
      expect(article('webhooks')).toContain(`\`${event}\``);
    }
    expect(article('rate-limits')).toMatch(/300 requests a minute/);
    expect(article('rate-limits')).toMatch(/120 requests a minute/);
    expect(article('rate-limits')).toMatch(/1,200 requests a minute/);
  });
});

describe('webhookSignatureHeader', () => {
  it('signs "t.body" with HMAC-SHA256 keyed by the whole secret', () => {
    // Expected value from: printf '%s' '1767225600.{"id":"evt_1","event":"review.created"}' |
    //   openssl dgst -sha256 -hmac 'whsec_test' -hex
    expect(
      webhookSignatureHeader(
        'whsec_test',
        '{"id":"evt_1","event":"review.created"}',
        new Date('2026-01-01T00:00:00.900Z'),
      ),
    ).toBe('t=1767225600,v1=4abccc51b5f940175dcc33f2cd3845976452031e292e584c6571630f417fe55b');
  });
});

const fixtureArticles: HelpArticleSource[] = [
  {
    slug: 'webhook-signatures',
    title: 'Webhook signatures',
    collection: 'api-and-integrations',
    summary: 'Checking that a delivery came from Innkeep.',
    body: 'Compute an HMAC over the timestamp and the body.',
  },
  {
    slug: 'rate-limits',
    title: 'Rate limits',
    collection: 'api-and-integrations',
    summary: 'How many requests you may send.',
    body: 'Use a webhook instead of polling. Every webhook, webhooks and more webhooks save requests.',
  },
  {
    slug: 'pricing-rules',
    title: 'Pricing rules',
    collection: 'calendar-and-pricing',
    summary: 'Adjust nightly prices.',
    body: 'Rules apply in order.',
  },
  {
    slug: 'connect',
    title: 'Connect an assistant',
    collection: 'ai-assistants',
    summary: 'Use the MCP URL.',
    body: 'Paste the URL into your client.',
  },
];

describe.each(testDatabaseKinds)('help centre on %s', (kind) => {
  let handle: DatabaseHandle;
  let db: Kysely<Database>;
  const help = () => createHelpUseCases({ db, clock: systemClock });
  const slugs = async (input: Record<string, unknown>) => (await help().list(input)).items.map((a) => a.slug);

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    db = handle.db;
    await syncHelpArticles(db, fixtureArticles);
  }, 180_000);

  afterAll(async () => {
    await handle?.close();
  });

  it('lists every article by collection, then title, without bodies', async () => {
    // Collections in reading order: ai-assistants, api-and-integrations, calendar-and-pricing.
    expect(await slugs({})).toEqual(['connect', 'rate-limits', 'webhook-signatures', 'pricing-rules']);
    expect(await slugs({ collection: 'api-and-integrations' })).toEqual([
      'rate-limits',
      'webhook-signatures',
    ]);
    const first = (await help().list({ limit: 1 })).items[0];
    expect(first).toEqual({
      id: helpArticleId('connect'),
      slug: 'connect',
      title: 'Connect an assistant',
      collection: 'ai-assistants',
      summary: 'Use the MCP URL.',
    });
    const paged: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await help().list({ limit: 3, ...(cursor ? { cursor } : {}) });
      paged.push(...page.items.map((a) => a.slug));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(paged).toEqual(['connect', 'rate-limits', 'webhook-signatures', 'pricing-rules']);
  });

  it('ranks a title match above body matches, however many', async () => {
    expect(await slugs({ query: 'webhook' })).toEqual(['webhook-signatures', 'rate-limits']);
    // A word fragment is found by substring, with the same ranking.
    expect(await slugs({ query: 'webho' })).toEqual(['webhook-signatures', 'rate-limits']);
    // Word forms and order do not matter to full-text search.
    expect(await slugs({ query: 'rule pricing' })).toEqual(['pricing-rules']);
    expect(await slugs({ query: 'webhook', collection: 'calendar-and-pricing' })).toEqual([]);
    expect(await slugs({ query: 'nothing like this' })).toEqual([]);
    // Search results page without losing or repeating any.
    const first = await help().list({ query: 'webhook', limit: 1 });
    expect(first.items.map((a) => a.slug)).toEqual(['webhook-signatures']);
    const second = await help().list({ query: 'webhook', limit: 1, cursor: first.nextCursor ?? '' });
    expect(second.items.map((a) => a.slug)).toEqual(['rate-limits']);
    expect(second.hasMore).toBe(false);
  });

  it('treats search text as text, not as SQL or pattern syntax', async () => {
    expect(await slugs({ query: "%' or 1=1 --" })).toEqual([]);
    expect(await slugs({ query: '_' })).toEqual([]);
  });

  it('gets an article with its body by id or slug', async () => {
    const bySlug = await help().get({ idOrSlug: 'pricing-rules' });
    expect(bySlug).toEqual({
      id: helpArticleId('pricing-rules'),
      slug: 'pricing-rules',
      title: 'Pricing rules',
      collection: 'calendar-and-pricing',
      summary: 'Adjust nightly prices.',
      body: 'Rules apply in order.',
      updatedAt: expect.any(String),
    });
    expect(await help().get({ idOrSlug: bySlug.id })).toEqual(bySlug);
    await expect(help().get({ idOrSlug: 'no-such-article' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(help().get({ idOrSlug: '' })).rejects.toMatchObject({ code: 'invalid_argument' });
    await expect(
      help().list({ collection: 'recipes' } as unknown as ListHelpArticlesInput),
    ).rejects.toMatchObject({ code: 'invalid_argument' });
  });

  it('syncs idempotently: changes only what changed and removes articles no longer shipped', async () => {
    expect(await syncHelpArticles(db, fixtureArticles)).toEqual({ added: [], updated: [], removed: [] });

    const before = await db.selectFrom('help_articles').select(['slug', 'updated_at']).execute();
    const stamp = (slug: string) => before.find((row) => row.slug === slug)?.updated_at.toISOString();
    const [signatures, limits] = fixtureArticles;
    const next: HelpArticleSource[] = [
      { ...(signatures as HelpArticleSource), body: 'Verify the Webhook-Signature header.' },
      limits as HelpArticleSource,
      { slug: 'new-one', title: 'New', collection: 'messaging', summary: 'New.', body: 'New.' },
    ];
    expect(await syncHelpArticles(db, next)).toEqual({
      added: ['new-one'],
      updated: ['webhook-signatures'],
      removed: ['pricing-rules', 'connect'].sort(),
    });
    const after = await db.selectFrom('help_articles').selectAll().orderBy('slug').execute();
    expect(after.map((row) => row.slug)).toEqual(['new-one', 'rate-limits', 'webhook-signatures']);
    const unchanged = after.find((row) => row.slug === 'rate-limits');
    expect(unchanged?.updated_at.toISOString()).toBe(stamp('rate-limits'));
    expect(after.find((row) => row.slug === 'webhook-signatures')).toMatchObject({
      id: helpArticleId('webhook-signatures'),
      body: 'Verify the Webhook-Signature header.',
    });
  });

  it('publishes the built-in articles, and a second sync changes nothing', async () => {
    const first = await syncHelpArticles(db);
    expect(first.added).toHaveLength(builtInHelpArticles.length - 1); // rate-limits already existed
    expect(first.removed.sort()).toEqual(['new-one', 'webhook-signatures']);
    expect(await syncHelpArticles(db)).toEqual({ added: [], updated: [], removed: [] });
    expect((await help().list({ limit: 500 })).items).toHaveLength(builtInHelpArticles.length);

    const scopes = await help().list({ query: 'scopes' });
    expect(scopes.items[0]?.slug).toBe('oauth-scopes');
    const signature = await help().list({ query: 'webhook signature' });
    expect(signature.items[0]?.slug).toBe('webhooks');
    const article = await help().get({ idOrSlug: 'message-rules' });
    expect(article.body).toContain('`{{guest_first_name}}`');
  });

  it('lets instances that start together sync at the same time', async () => {
    const results = await Promise.all([syncHelpArticles(db), syncHelpArticles(db), syncHelpArticles(db)]);
    expect(results).toEqual([
      { added: [], updated: [], removed: [] },
      { added: [], updated: [], removed: [] },
      { added: [], updated: [], removed: [] },
    ]);
  });
});
