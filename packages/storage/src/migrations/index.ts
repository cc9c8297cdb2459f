import type { Migration } from 'kysely/migration';
import * as accountModel from './2026_11_21_0001_account_model.ts';
import * as automationOnce from './2026_11_21_0002_automation_once.ts';
import * as stayNightFacts from './2026_11_24_0003_stay_night_facts.ts';
import * as reservationAnalytics from './2026_11_24_0004_reservation_analytics.ts';
import * as guestAnalytics from './2026_11_24_0005_guest_analytics.ts';
import * as performanceAnalytics from './2026_11_24_0006_performance_analytics.ts';
import * as paceAndPatternIndexes from './2026_11_25_0007_pace_and_pattern_indexes.ts';
import * as reservationMovements from './2026_11_25_0008_reservation_movements.ts';
import * as cancellationAndReviewIndexes from './2026_11_25_0009_cancellation_and_review_indexes.ts';
import * as holdsByAccountEnd from './2026_11_25_0010_holds_by_account_end.ts';
import * as calendarGaps from './2026_11_25_0011_calendar_gaps.ts';
import * as reviewsByListing from './2026_11_25_0012_reviews_by_listing.ts';
import * as checkInMonthFacts from './2026_11_25_0013_check_in_month_facts.ts';
import * as calendarHoldSpans from './2026_11_25_0014_calendar_hold_spans.ts';
import * as groupMemberNames from './2026_11_25_0015_group_member_names.ts';
import * as stayAccountMonthFacts from './2026_11_25_0016_stay_account_month_facts.ts';
import * as guestWaitBuckets from './2026_11_25_0017_guest_wait_buckets.ts';
import * as hostToolsWebhook from './2026_11_27_0018_host_tools_webhook.ts';
import * as holdsByAccountNights from './2026_11_27_0019_holds_by_account_nights.ts';
import * as webhookEvents from './2026_11_27_0020_webhook_events.ts';
import * as webhookDeliveries from './2026_11_27_0021_webhook_deliveries.ts';
import * as webhookSecretRotation from './2026_11_27_0022_webhook_secret_rotation.ts';
import * as failedAutomatedReplies from './2026_11_27_0023_failed_automated_replies.ts';
import * as turnoverFacts from './2026_11_27_0024_turnover_facts.ts';
import * as calendarGapsByAccount from './2026_11_27_0025_calendar_gaps_by_account.ts';
import * as bookingPatternFacts from './2026_11_27_0026_booking_pattern_facts.ts';
import * as listingWaitBuckets from './2026_11_27_0027_listing_wait_buckets.ts';
import * as paceSnapshotMonths from './2026_11_27_0028_pace_snapshot_months.ts';
import * as reservationMonthFacts from './2026_11_27_0029_reservation_month_facts.ts';
import * as blockMonthFacts from './2026_11_27_0030_block_month_facts.ts';
import * as calendarGapYears from './2026_11_28_0031_calendar_gap_years.ts';
import * as calendarExports from './2026_11_28_0032_calendar_exports.ts';
import * as messageDelivery from './2026_11_28_0033_message_delivery.ts';
import * as calendarImports from './2026_11_28_0034_calendar_imports.ts';

/**
 * The domain's migrations by name. Names sort in the order they run; other packages (auth) contribute
 * their own sets, and the app merges them into one migrator.
 */
export const domainMigrations: Readonly<Record<string, Migration>> = {
  '2026_11_21_0001_account_model': accountModel,
  '2026_11_21_0002_automation_once': automationOnce,
  '2026_11_24_0003_stay_night_facts': stayNightFacts,
  '2026_11_24_0004_reservation_analytics': reservationAnalytics,
  '2026_11_24_0005_guest_analytics': guestAnalytics,
  '2026_11_24_0006_performance_analytics': performanceAnalytics,
  '2026_11_25_0007_pace_and_pattern_indexes': paceAndPatternIndexes,
  '2026_11_25_0008_reservation_movements': reservationMovements,
  '2026_11_25_0009_cancellation_and_review_indexes': cancellationAndReviewIndexes,
  '2026_11_25_0010_holds_by_account_end': holdsByAccountEnd,
  '2026_11_25_0011_calendar_gaps': calendarGaps,
  '2026_11_25_0012_reviews_by_listing': reviewsByListing,
  '2026_11_25_0013_check_in_month_facts': checkInMonthFacts,
  '2026_11_25_0014_calendar_hold_spans': calendarHoldSpans,
  '2026_11_25_0015_group_member_names': groupMemberNames,
  '2026_11_25_0016_stay_account_month_facts': stayAccountMonthFacts,
  '2026_11_25_0017_guest_wait_buckets': guestWaitBuckets,
  '2026_11_27_0018_host_tools_webhook': hostToolsWebhook,
  '2026_11_27_0019_holds_by_account_nights': holdsByAccountNights,
  '2026_11_27_0020_webhook_events': webhookEvents,
  '2026_11_27_0021_webhook_deliveries': webhookDeliveries,
  '2026_11_27_0022_webhook_secret_rotation': webhookSecretRotation,
  '2026_11_27_0023_failed_automated_replies': failedAutomatedReplies,
  '2026_11_27_0024_turnover_facts': turnoverFacts,
  '2026_11_27_0025_calendar_gaps_by_account': calendarGapsByAccount,
  '2026_11_27_0026_booking_pattern_facts': bookingPatternFacts,
  '2026_11_27_0027_listing_wait_buckets': listingWaitBuckets,
  '2026_11_27_0028_pace_snapshot_months': paceSnapshotMonths,
  '2026_11_27_0029_reservation_month_facts': reservationMonthFacts,
  '2026_11_27_0030_block_month_facts': blockMonthFacts,
  '2026_11_28_0031_calendar_gap_years': calendarGapYears,
  '2026_11_28_0032_calendar_exports': calendarExports,
  '2026_11_28_0033_message_delivery': messageDelivery,
  '2026_11_28_0034_calendar_imports': calendarImports,
};
