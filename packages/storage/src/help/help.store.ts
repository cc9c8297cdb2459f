import { createHash } from 'node:crypto';
import {
  builtInHelpArticles,
  decodeCursor,
  encodeIdBytes,
  getHelpArticleInputSchema,
  type HelpArticleSource,
  type HelpArticleSummary,
  type HelpCollection,
  type HelpUseCases,
  helpCollections,
  idPrefixes,
  listHelpArticlesInputSchema,
  notFound,
  parseInput,
  toPage,
} from '@innkeep/domain';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../database.ts';
import type { StoreDeps } from '../store-deps.ts';

/** Help-centre use cases over PostgreSQL. */
export function createHelpUseCases({ db }: StoreDeps): HelpUseCases {
  return {
    async list(rawInput) {
      const input = parseInput(listHelpArticlesInputSchema, rawInput);
      const collectionOrder = sql<number>`array_position(${sql.val([...helpCollections])}::text[], collection)`;

      if (input.query === undefined) {
        let query = db
          .selectFrom((eb) =>
            eb
              .selectFrom('help_articles')
              .select(['id', 'slug', 'title', 'collection', 'summary', collectionOrder.as('position')])
              .as('articles'),
          )
          .selectAll();
        if (input.collection !== undefined) query = query.where('collection', '=', input.collection);
        if (input.cursor !== undefined) {
          const [position, title, id] = decodeCursor(input.cursor, 3);
          query = query.where((eb) =>
            eb.or([
              eb('position', '>', Number(position)),
              eb.and([eb('position', '=', Number(position)), eb('title', '>', String(title))]),
              eb.and([
                eb('position', '=', Number(position)),
                eb('title', '=', String(title)),
                eb('id', '>', String(id)),
              ]),
            ]),
          );
        }
        const rows = await query
          .orderBy('position')
          .orderBy('title')
          .orderBy('id')
          .limit(input.limit + 1)
          .execute();
        return toPage(rows, input.limit, toSummary, (row) => [row.position, row.title, row.id]);
      }

      // Full-text matching finds word forms ("limits" for "limit"); ilike finds fragments such as "webho".
      // A title hit ranks above any body hit (tier), then ts_rank orders within a tier. The rank is scaled to
      // an integer so that the cursor compares exactly.
      const tsQuery = sql`websearch_to_tsquery('english', ${input.query})`;
      const pattern = `%${input.query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const titleHit = sql<boolean>`(to_tsvector('english', title) @@ ${tsQuery} or title ilike ${pattern})`;
      const textHit = sql<boolean>`(to_tsvector('english', summary || ' ' || body) @@ ${tsQuery}
        or summary ilike ${pattern} or body ilike ${pattern})`;
      const document = sql`setweight(to_tsvector('english', title), 'A')
        || setweight(to_tsvector('english', summary), 'B') || to_tsvector('english', body)`;
      let query = db
        .selectFrom((eb) =>
          eb
            .selectFrom('help_articles')
            .select([
              'id',
              'slug',
              'title',
              'collection',
              'summary',
              sql<number>`case when ${titleHit} then 2 when ${textHit} then 1 else 0 end`.as('tier'),
              sql<number>`round((ts_rank(${document}, ${tsQuery}) * 1000000)::numeric)::integer`.as('rank'),
            ])
            .as('ranked'),
        )
        .selectAll()
        .where('tier', '>', 0);
      if (input.collection !== undefined) query = query.where('collection', '=', input.collection);
      if (input.cursor !== undefined) {
        const [tier, rank, id] = decodeCursor(input.cursor, 3);
        query = query.where((eb) =>
          eb.or([
            eb('tier', '<', Number(tier)),
            eb.and([eb('tier', '=', Number(tier)), eb('rank', '<', Number(rank))]),
            eb.and([eb('tier', '=', Number(tier)), eb('rank', '=', Number(rank)), eb('id', '>', String(id))]),
          ]),
        );
      }
      const rows = await query
        .orderBy('tier', 'desc')
        .orderBy('rank', 'desc')
        .orderBy('id')
        .limit(input.limit + 1)
        .execute();
      return toPage(rows, input.limit, toSummary, (row) => [row.tier, row.rank, row.id]);
    },

    async get(rawInput) {
      const { idOrSlug } = parseInput(getHelpArticleInputSchema, rawInput);
      const row = await db
        .selectFrom('help_articles')
        .selectAll()
        .where((eb) => eb.or([eb('id', '=', idOrSlug), eb('slug', '=', idOrSlug)]))
        .executeTakeFirst();
      if (!row) {
        throw notFound('help article', idOrSlug);
      }
      return {
        ...toSummary(row),
        body: row.body,
        updatedAt: row.updated_at.toISOString(),
      };
    },
  };
}

function toSummary(row: {
  id: string;
  slug: string;
  title: string;
  collection: string;
  summary: string;
}): HelpArticleSummary {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    collection: row.collection as HelpCollection,
    summary: row.summary,
  };
}

/**
 * The id an article gets from its slug. Derived rather than random, so every database (and every
 * instance syncing at start) gives the same article the same id, and links to `hlp_…` survive a reinstall.
 */
export function helpArticleId(slug: string): string {
  const digest = createHash('sha256').update(`help-article:${slug}`).digest();
  return `${idPrefixes.helpArticle}_${encodeIdBytes(digest.subarray(0, 10))}`;
}

/** What {@link syncHelpArticles} changed, by article slug. */
export interface HelpSyncResult {
  readonly added: string[];
  readonly updated: string[];
  readonly removed: string[];
}

/**
 * Makes the stored help centre exactly `articles` (by default the articles this release ships): adds new
 * ones, rewrites changed ones (bumping `updatedAt`), leaves identical ones untouched and deletes the ones
 * no longer shipped. Safe to run on every start, from several instances at once.
 */
export async function syncHelpArticles(
  db: Kysely<Database>,
  articles: readonly HelpArticleSource[] = builtInHelpArticles,
): Promise<HelpSyncResult> {
  const result: HelpSyncResult = { added: [], updated: [], removed: [] };
  await db.transaction().execute(async (trx) => {
    // Instances starting together take turns, so none of them trips over another's inserts.
    await sql`select pg_advisory_xact_lock(hashtext('innkeep.sync_help_articles'))`.execute(trx);
    const stored = await trx.selectFrom('help_articles').selectAll().orderBy('slug').execute();
    const bySlug = new Map(stored.map((row) => [row.slug, row]));
    const shipped = new Set(articles.map((article) => article.slug));
    for (const article of articles) {
      const current = bySlug.get(article.slug);
      const values = {
        title: article.title,
        collection: article.collection,
        summary: article.summary,
        body: article.body,
      };
      if (!current) {
        await trx
          .insertInto('help_articles')
          .values({ id: helpArticleId(article.slug), slug: article.slug, ...values })
          .execute();
        result.added.push(article.slug);
      } else if (
        current.title !== values.title ||
        current.collection !== values.collection ||
        current.summary !== values.summary ||
        current.body !== values.body
      ) {
        await trx
          .updateTable('help_articles')
          .set({ ...values, updated_at: sql`now()` })
          .where('slug', '=', article.slug)
          .execute();
        result.updated.push(article.slug);
      }
    }
    const retired = stored.filter((row) => !shipped.has(row.slug)).map((row) => row.slug);
    if (retired.length > 0) {
      await trx.deleteFrom('help_articles').where('slug', 'in', retired).execute();
      result.removed.push(...retired);
    }
  });
  return result;
}
