import {
  connectAnAiAssistantArticle,
  errorsArticle,
  oauthScopesArticle,
  rateLimitsArticle,
  restApiAuthenticationArticle,
  subscriptionsArticle,
  webhooksArticle,
} from './access-articles.ts';
import { analyticsArticle } from './analytics-articles.ts';
import {
  availabilityAndBlocksArticle,
  datesAndTimeZonesArticle,
  pricingRulesArticle,
  quotesAndDiscountsArticle,
} from './calendar-articles.ts';
import type { HelpArticleSource } from './help.ts';
import { messageRulesArticle } from './messaging-articles.ts';

/**
 * The help centre this release ships, in reading order. `syncHelpArticles` makes the database match it at
 * start, so editing an article here is all it takes to publish the change.
 */
export const builtInHelpArticles: readonly HelpArticleSource[] = [
  datesAndTimeZonesArticle,
  connectAnAiAssistantArticle,
  oauthScopesArticle,
  restApiAuthenticationArticle,
  rateLimitsArticle,
  errorsArticle,
  webhooksArticle,
  availabilityAndBlocksArticle,
  pricingRulesArticle,
  quotesAndDiscountsArticle,
  messageRulesArticle,
  analyticsArticle,
  subscriptionsArticle,
];
