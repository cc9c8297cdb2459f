import { z } from 'zod';
import { type Page, pageInputShape } from '../core/paging.ts';

/** The sections of the help centre, in reading order. */
export const helpCollections = [
  'getting-started',
  'ai-assistants',
  'api-and-integrations',
  'calendar-and-pricing',
  'messaging',
  'account-and-billing',
] as const;
/** One of {@link helpCollections}. */
export type HelpCollection = (typeof helpCollections)[number];

/** An article as Innkeep ships it, before it is stored; the body is Markdown. */
export interface HelpArticleSource {
  /** Stable, URL-safe name; the article's identity across releases. */
  readonly slug: string;
  readonly title: string;
  readonly collection: HelpCollection;
  /** One or two sentences saying what the article answers. */
  readonly summary: string;
  readonly body: string;
}

/** An article in a list or a search result: everything but the body. */
export const helpArticleSummarySchema = z.object({
  id: z.string(),
  slug: z.string().describe('Stable name of the article; get_help_article accepts it instead of the id.'),
  title: z.string(),
  collection: z.enum(helpCollections),
  summary: z.string().describe('What the article answers, in a sentence or two.'),
});
/** An article without its body. */
export type HelpArticleSummary = z.infer<typeof helpArticleSummarySchema>;

/** A whole article. */
export const helpArticleSchema = helpArticleSummarySchema.extend({
  body: z.string().describe('The article in Markdown.'),
  updatedAt: z.string().describe('When the article last changed (UTC ISO 8601).'),
});
/** A help-centre article. */
export type HelpArticle = z.infer<typeof helpArticleSchema>;

/** Search and paging for {@link HelpUseCases.list}. */
export const listHelpArticlesInputSchema = z.object({
  ...pageInputShape,
  query: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .describe('Words to search for, e.g. "webhook signature"; title matches come first. Omit to list all.'),
  collection: z.enum(helpCollections).optional().describe('Only articles of this collection.'),
});
/** Input of {@link HelpUseCases.list}. */
export type ListHelpArticlesInput = z.input<typeof listHelpArticlesInputSchema>;

/** Names one article. */
export const getHelpArticleInputSchema = z.object({
  idOrSlug: z
    .string()
    .trim()
    .min(1)
    .max(120)
    .describe('The article id (hlp_…) or its slug, e.g. connect-an-ai-assistant.'),
});
/** Input of {@link HelpUseCases.get}. */
export type GetHelpArticleInput = z.input<typeof getHelpArticleInputSchema>;

/** Reads the help centre. Articles are the same for every account, so no actor is needed. */
export interface HelpUseCases {
  /** Lists or searches articles, without their bodies. */
  list(input: ListHelpArticlesInput): Promise<Page<HelpArticleSummary>>;
  /** One article with its Markdown body; `not_found` when no article has that id or slug. */
  get(input: GetHelpArticleInput): Promise<HelpArticle>;
}
