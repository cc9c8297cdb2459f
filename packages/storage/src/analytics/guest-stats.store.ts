import type { Actor } from '@innkeep/domain';
import { parseInput } from '@innkeep/domain';
import type { AnalyticsFilters, AnalyticsPeriod, MetricDefinitionId } from '@innkeep/domain/analytics';
import {
  type GuestAnalyticsUseCases,
  listListingGroupSummariesInputSchema,
  metricDefinitionsInputSchema,
  pricingStatsInputSchema,
  type ResponseMeasures,
  responseTimeBreakdownInputSchema,
  responseTimeStatsInputSchema,
  reviewAnalyticsInputSchema,
  reviewStatsInputSchema,
  selectMetricDefinitions,
} from '@innkeep/domain/analytics';
import type { StoreDeps } from '../store-deps.ts';
import { withAnalyticsSettings } from './analytics-query-settings.ts';
import { analyticsMeta, resolveAnalyticsScope } from './analytics-scope.ts';
import { listingGroupSummaries } from './guest-listing-groups.ts';
import { loadEnabledRules, pricingStatsByCurrency } from './pricing-stats.ts';
import {
  responseBreakdownRows,
  responseTotals,
  toResponseBreakdown,
  type WaitSelection,
} from './response-time-stats.ts';
import { reviewAnalyticsOf } from './review-analytics.ts';
import { completedStays, reviewSumsByChannel, toReviewStats } from './review-stats.ts';

const pricingDefinitions: MetricDefinitionId[] = [
  'pricing_stats',
  'live_statuses',
  'adr',
  'local_dates',
  'ratio_of_sums',
  'currency_policy',
  'null_policy',
];
const reviewDefinitions: MetricDefinitionId[] = [
  'review_stats',
  'local_dates',
  'ratio_of_sums',
  'null_policy',
];
const responseDefinitions: MetricDefinitionId[] = [
  'response_time',
  'local_dates',
  'ratio_of_sums',
  'null_policy',
];

/** Guest and pricing analytics over PostgreSQL. */
export function createGuestAnalytics({ db, clock }: StoreDeps): GuestAnalyticsUseCases {
  return {
    async getPricingStats(actor, rawInput) {
      const input = parseInput(pricingStatsInputSchema, rawInput);
      const scope = await resolveAnalyticsScope(db, actor, input);
      const period = periodOf(input);
      const rules = await loadEnabledRules(db, actor.accountId);
      const currencies = await pricingStatsByCurrency(db, scope, period, rules, clock.now());
      const notes = [
        'Listed prices are what the calendar shows today (per-date or base price, pricing rules, minimum ' +
          'price); Innkeep keeps no price history, so past nights show today’s prices, not the ones on offer then.',
      ];
      if (scope.channel !== null) {
        notes.push(
          `The channel filter narrows the sold nights (booked ADR, realisation) to ${scope.channel}; listed ` +
            'prices are the calendar’s, the same for every channel.',
        );
      }
      return {
        meta: analyticsMeta(scope, period, {
          basis: 'calendar_date',
          definitions: pricingDefinitions,
          currencies: currencies.map((entry) => entry.currency),
          notes,
        }),
        currencies,
      };
    },

    async getReviewStats(actor, rawInput) {
      const input = parseInput(reviewStatsInputSchema, rawInput);
      const scope = await resolveAnalyticsScope(db, actor, input);
      const period = periodOf(input);
      // Two reads side by side, each on its own connection when `db` is a pool.
      const [rows, stays] = await Promise.all([
        withAnalyticsSettings(db, (trx) => reviewSumsByChannel(trx, scope, period)),
        withAnalyticsSettings(db, (trx) => completedStays(trx, scope, period, clock.now())),
      ]);
      return {
        meta: analyticsMeta(scope, period, {
          basis: 'review_date',
          definitions: reviewDefinitions,
          notes: [
            'The review rate counts stays that checked out in the period up to today; guests review for some ' +
              'days after leaving, so the latest stays may still get one.',
          ],
        }),
        ...toReviewStats(rows, stays),
      };
    },

    async getReviewAnalytics(actor, rawInput) {
      const input = parseInput(reviewAnalyticsInputSchema, rawInput);
      const scope = await resolveAnalyticsScope(db, actor, input);
      const period = periodOf(input);
      // Two reads side by side, each in its own settings transaction (see reviewAnalyticsOf).
      const analytics = await reviewAnalyticsOf(db, scope, period, input);
      return {
        meta: analyticsMeta(scope, period, {
          basis: 'review_date',
          definitions: [...reviewDefinitions, 'timeseries_buckets'],
          notes: analytics.notes,
        }),
        ...analytics.result,
      };
    },

    async getResponseTimeStats(actor, rawInput) {
      const input = parseInput(responseTimeStatsInputSchema, rawInput);
      const selection = await waitSelection(actor, input);
      const { measures, automatedFirst } = await withAnalyticsSettings(db, (trx) =>
        responseTotals(trx, selection),
      );
      return {
        meta: responseMeta(selection, measures, automatedFirst),
        ...measures,
        automatedFirst,
      };
    },

    async getResponseTimeBreakdown(actor, rawInput) {
      const input = parseInput(responseTimeBreakdownInputSchema, rawInput);
      const selection = await waitSelection(actor, input);
      const rows = await responseBreakdownRows(db, selection, input.listingLimit);
      const { listingCount, ...breakdown } = toResponseBreakdown(rows);
      const meta = responseMeta(selection, breakdown.overall, null);
      if (breakdown.listingsTruncated) {
        meta.notes.push(
          `byListing shows the ${breakdown.byListing.length} slowest of ${listingCount} listings with waits; ` +
            'raise listingLimit or filter by listingIds or listingGroupId to see others.',
        );
      }
      return { meta, ...breakdown };
    },

    async listListingGroups(actor, rawInput) {
      const input = parseInput(listListingGroupSummariesInputSchema, rawInput);
      return listingGroupSummaries(db, actor, input);
    },

    async getMetricDefinitions(_actor, rawInput) {
      const input = parseInput(metricDefinitionsInputSchema, rawInput);
      return selectMetricDefinitions(input.ids);
    },
  };

  async function waitSelection(
    actor: Actor,
    input: AnalyticsFilters & { countAutomatedReplies: boolean },
  ): Promise<WaitSelection> {
    return {
      scope: await resolveAnalyticsScope(db, actor, input),
      period: periodOf(input),
      countAutomatedReplies: input.countAutomatedReplies,
      now: clock.now(),
    };
  }
}

function periodOf(input: { startDate: string; endDate: string }): AnalyticsPeriod {
  return { startDate: input.startDate, endDate: input.endDate };
}

function responseMeta(selection: WaitSelection, measures: ResponseMeasures, automatedFirst: number | null) {
  const notes: string[] = [];
  if (selection.countAutomatedReplies) {
    notes.push('Automated messages (message rules) sent during a wait count as its answer.');
  } else {
    notes.push(
      'Only the host’s own messages count as answers; automated messages do not' +
        (automatedFirst === null
          ? '.'
          : ` (${automatedFirst} of the waits got an automated message before the host replied).`),
    );
  }
  if (measures.unanswered > 0) {
    notes.push(
      `${measures.unanswered} waits have no answer yet: they are left out of the times and count as misses ` +
        'in the shares once 1 hour (24 hours) has passed.',
    );
  }
  return analyticsMeta(selection.scope, selection.period, {
    basis: 'message_time',
    definitions: responseDefinitions,
    notes,
  });
}
