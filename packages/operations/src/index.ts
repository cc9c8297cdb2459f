// The public surface of @innkeep/operations: the operation type, and every operation Innkeep offers, each
// declared once for every transport (MCP tools today, REST routes next), with the reply budget they page to.

export { getAccountOperation } from './accounts/get-account.operation.ts';
export { listAccountsOperation } from './accounts/list-accounts.operation.ts';
export { getAdrStatsOperation } from './analytics/get-adr-stats.operation.ts';
export { getBookingPatternStatsOperation } from './analytics/get-booking-pattern-stats.operation.ts';
export { getCancellationStatsOperation } from './analytics/get-cancellation-stats.operation.ts';
export { getChannelPerformanceOperation } from './analytics/get-channel-performance.operation.ts';
export { getCheckInsCheckOutsOperation } from './analytics/get-check-ins-check-outs.operation.ts';
export { getGapAnalysisOperation } from './analytics/get-gap-analysis.operation.ts';
export { getHeadlineKpisOperation } from './analytics/get-headline-kpis.operation.ts';
export { getListingBreakdownStatsOperation } from './analytics/get-listing-breakdown-stats.operation.ts';
export { getMetricDefinitionsOperation } from './analytics/get-metric-definitions.operation.ts';
export { getOccupancyStatsOperation } from './analytics/get-occupancy-stats.operation.ts';
export { getPaceStatsOperation } from './analytics/get-pace-stats.operation.ts';
export { getPricingStatsOperation } from './analytics/get-pricing-stats.operation.ts';
export { getReservationStatusStatsOperation } from './analytics/get-reservation-status-stats.operation.ts';
export { getResponseTimeBreakdownOperation } from './analytics/get-response-time-breakdown.operation.ts';
export { getResponseTimeStatsOperation } from './analytics/get-response-time-stats.operation.ts';
export { getRevenueStatsOperation } from './analytics/get-revenue-stats.operation.ts';
export { getReviewAnalyticsOperation } from './analytics/get-review-analytics.operation.ts';
export { getReviewStatsOperation } from './analytics/get-review-stats.operation.ts';
export { getRevparStatsOperation } from './analytics/get-revpar-stats.operation.ts';
export { getTimeseriesStatsOperation } from './analytics/get-timeseries-stats.operation.ts';
export { getTurnoverStatsOperation } from './analytics/get-turnover-stats.operation.ts';
export { getUpcomingReservationsOperation } from './analytics/get-upcoming-reservations.operation.ts';
export { listListingGroupsOperation } from './analytics/list-listing-groups.operation.ts';
export { getCalendarOperation, maxToolCalendarDays } from './calendar/get-calendar.operation.ts';
export { getQuoteOperation } from './calendar/get-quote.operation.ts';
export { setAvailabilityOperation } from './calendar/set-availability.operation.ts';
export { setPricesOperation } from './calendar/set-prices.operation.ts';
export { collectDateRangeOperation } from './dates/collect-date-range.operation.ts';
export { createListingGroupOperation } from './groups/create-listing-group.operation.ts';
export { deleteListingGroupOperation } from './groups/delete-listing-group.operation.ts';
export { getListingGroupOperation } from './groups/get-listing-group.operation.ts';
export { regenerateOwnerImportLinkOperation } from './groups/regenerate-owner-import-link.operation.ts';
export { updateListingGroupOperation } from './groups/update-listing-group.operation.ts';
export { getHelpArticleOperation } from './help/get-help-article.operation.ts';
export { listHelpArticlesOperation } from './help/list-help-articles.operation.ts';
export {
  getChannelCalendarOperation,
  maxChannelCalendarDays,
} from './host-tools/get-channel-calendar.operation.ts';
export { getQuoteForPartyOperation } from './host-tools/get-quote-for-party.operation.ts';
export { getReservationWithMessagesOperation } from './host-tools/get-reservation-with-messages.operation.ts';
export { listAllListingGroupsOperation } from './host-tools/list-all-listing-groups.operation.ts';
export {
  listAvailableListingsOperation,
  maxAvailabilityWindowNights,
} from './host-tools/list-available-listings.operation.ts';
export { listListingReviewsOperation } from './host-tools/list-listing-reviews.operation.ts';
export { setHostToolsReservationOperation } from './host-tools/set-host-tools-reservation.operation.ts';
export { getListingOperation } from './listings/get-listing.operation.ts';
export { listListingsOperation } from './listings/list-listings.operation.ts';
export { reissueCalendarExportUrlOperation } from './listings/reissue-calendar-export-url.operation.ts';
export { setCalendarImportUrlOperation } from './listings/set-calendar-import-url.operation.ts';
export { updateListingOperation } from './listings/update-listing.operation.ts';
export { getLockOperation } from './locks/get-lock.operation.ts';
export { listAccessCodesOperation } from './locks/list-access-codes.operation.ts';
export { listLocksOperation } from './locks/list-locks.operation.ts';
export { getMessageThreadOperation } from './messages/get-message-thread.operation.ts';
export { sendMessageOperation } from './messages/send-message.operation.ts';
export type { Operation, OperationAccess, OperationContext } from './operation.ts';
export { defineOperation } from './operation.ts';
export { fetchPageThatFits, maxReplyChars } from './read-paging.ts';
export { cancelReservationOperation } from './reservations/cancel-reservation.operation.ts';
export { createReservationOperation } from './reservations/create-reservation.operation.ts';
export { getReservationOperation } from './reservations/get-reservation.operation.ts';
export { getReservationsOperation } from './reservations/get-reservations.operation.ts';
export { updateReservationOperation } from './reservations/update-reservation.operation.ts';
export { getReviewsOperation } from './reviews/get-reviews.operation.ts';
export { createMessageRuleOperation } from './rules/create-message-rule.operation.ts';
export { createPricingRuleOperation } from './rules/create-pricing-rule.operation.ts';
export { deleteMessageRuleOperation } from './rules/delete-message-rule.operation.ts';
export { deletePricingRuleOperation } from './rules/delete-pricing-rule.operation.ts';
export { getMessageRulesOperation } from './rules/get-message-rules.operation.ts';
export { getPricingRulesOperation } from './rules/get-pricing-rules.operation.ts';
export { pauseMessageRuleOperation } from './rules/pause-message-rule.operation.ts';
export { reorderPricingRulesOperation } from './rules/reorder-pricing-rules.operation.ts';
export { resumeMessageRuleOperation } from './rules/resume-message-rule.operation.ts';
export { updateMessageRuleOperation } from './rules/update-message-rule.operation.ts';
export { updatePricingRuleOperation } from './rules/update-pricing-rule.operation.ts';
export { getUserOperation } from './user/get-user.operation.ts';
export { createWebhookOperation } from './webhooks/create-webhook.operation.ts';
export { deleteHostToolsWebhookOperation } from './webhooks/delete-host-tools-webhook.operation.ts';
export { deleteWebhookOperation } from './webhooks/delete-webhook.operation.ts';
export { getHostToolsWebhookOperation } from './webhooks/get-host-tools-webhook.operation.ts';
export { listWebhookDeliveriesOperation } from './webhooks/list-webhook-deliveries.operation.ts';
export { listWebhooksOperation } from './webhooks/list-webhooks.operation.ts';
export { redeliverWebhookDeliveryOperation } from './webhooks/redeliver-webhook-delivery.operation.ts';
export { rotateWebhookSecretOperation } from './webhooks/rotate-webhook-secret.operation.ts';
export { sendWebhookTestOperation } from './webhooks/send-webhook-test.operation.ts';
export { setHostToolsWebhookOperation } from './webhooks/set-host-tools-webhook.operation.ts';
export { updateWebhookOperation } from './webhooks/update-webhook.operation.ts';
