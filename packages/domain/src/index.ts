// The public surface of @innkeep/domain: schemas, types, errors, pure rules and the use-case interfaces that
// other packages import, and no more (packages/storage/test/package-surfaces.test.ts keeps it so).
// Implementations over PostgreSQL are in '@innkeep/storage'; the demo generator in '@innkeep/demo'.

export type { AuditEntryView, AuditUseCases } from './audit/audit.ts';
export { listAuditInputSchema } from './audit/audit.ts';
export type {
  Calendar,
  CalendarDay,
  CalendarUseCases,
  ChangedDay,
  PriceEntry,
  PriceOutcome,
  PriceStep,
} from './calendar/calendar.ts';
export {
  availabilityChangeSchema,
  calendarDaySchema,
  calendarSchema,
  changedDaySchema,
  getCalendarInputSchema,
  maxCalendarDays,
  setAvailabilityInputSchema,
  setPricesInputSchema,
} from './calendar/calendar.ts';
export type { BlockReason, CalendarHold, HoldKind } from './calendar/holds.ts';
export { holdConflict } from './calendar/holds.ts';
export type { CalendarFeed, CalendarFeedReader, CalendarFeedStay } from './calendar-feeds/calendar-feeds.ts';
export {
  calendarExportUrl,
  calendarFeedFileExtension,
  calendarFeedPathPrefix,
  calendarFeedWindow,
} from './calendar-feeds/calendar-feeds.ts';
export type {
  AppliedCalendarImport,
  CalendarImport,
  CalendarImportConflict,
  CalendarImportKey,
  CalendarImportQueue,
  DueCalendarImport,
  FeedStay,
} from './calendar-imports/calendar-imports.ts';
export { defaultCalendarImportIntervalMinutes } from './calendar-imports/calendar-imports.ts';
export type {
  ChannelAccount,
  ChannelAccountStatus,
  ChannelAccountUseCases,
  ConnectionType,
} from './channel-accounts/channel-accounts.ts';
export {
  channelAccountIdSchema,
  channelAccountSchema,
  listChannelAccountsInputSchema,
} from './channel-accounts/channel-accounts.ts';
export type { AccessRoute, Actor, UserRole } from './core/actor.ts';
export { assertCanWrite, assertOwner } from './core/actor.ts';
export type { Clock } from './core/clock.ts';
export { systemClock } from './core/clock.ts';
export type { LocalDate } from './core/dates.ts';
export {
  addDays,
  areLocalDates,
  assertNotBeforeToday,
  dayOfWeek,
  daysBetween,
  localDateIn,
  localDateSchema,
  maxDate,
  minDate,
  monthNames,
  nightsOf,
  weekdayNames,
} from './core/dates.ts';
export type { ErrorCode } from './core/errors.ts';
export { DomainError, errorCatalogue, errorCodes, notFound } from './core/errors.ts';
export type { IdKind } from './core/ids.ts';
export { encodeIdBytes, idPrefixes, newId } from './core/ids.ts';
export { parseInput } from './core/input.ts';
export { reportInternalFailure } from './core/internal-failure.ts';
export {
  allocateByLargestRemainder,
  currencyExponent,
  percentOf,
  toMajorUnits,
  toMinorUnits,
} from './core/money.ts';
export { isAllowedOutboundUrl } from './core/outbound-url.ts';
export type { Page } from './core/paging.ts';
export { decodeCursor, pageInputShape, pageLimits, toPage } from './core/paging.ts';
export type { Scope } from './core/scopes.ts';
export { allScopes, isScope, scopeCatalogue } from './core/scopes.ts';
export { isSpecialUseAddress } from './core/special-use-address.ts';
export { findUnstorableText } from './core/storable-text.ts';
export type { InnkeepDomain } from './domain.ts';
export type {
  HelpArticleSource,
  HelpArticleSummary,
  HelpCollection,
  HelpUseCases,
  ListHelpArticlesInput,
} from './help/help.ts';
export {
  getHelpArticleInputSchema,
  helpArticleSchema,
  helpArticleSummarySchema,
  helpCollections,
  listHelpArticlesInputSchema,
} from './help/help.ts';
export { builtInHelpArticles } from './help/help-articles.ts';
export type { IdempotencyUseCases, IdempotentResponse, IdempotentResult } from './idempotency/idempotency.ts';
export {
  idempotencyKeyLifetimeMs,
  idempotencyPendingTimeoutMs,
  idempotencyRequestSchema,
} from './idempotency/idempotency.ts';
export { assistantAccessLifetimes } from './identity/assistant-access.ts';
export type {
  IdentityUseCases,
  IssuedAuthToken,
  Principal,
  SubscriptionStatus,
  TeamMember,
  UserProfile,
} from './identity/identity.ts';
export {
  actorFromPrincipal,
  changePasswordInputSchema,
  isGoodStanding,
  listUsersInputSchema,
  loginInputSchema,
  passwordSchema,
  subscriptionStatuses,
  updateProfileInputSchema,
  userProfileSchema,
} from './identity/identity.ts';
export type { CreateOwnerAccountInput, OperatorUseCases, UserLookup } from './identity/operator.ts';
export {
  addSubUserInputSchema,
  createOwnerAccountInputSchema,
  issueAuthTokenInputSchema,
  issuePartnerApiKeyInputSchema,
  revokePartnerApiKeyInputSchema,
  setSubscriptionStatusInputSchema,
} from './identity/operator.ts';
export { generateSecretToken, hashPassword, hashSecretToken, verifyPassword } from './identity/secrets.ts';
export type { ListingGroup, ListingGroupUseCases } from './listing-groups/listing-groups.ts';
export {
  createListingGroupInputSchema,
  listingGroupIdSchema,
  listingGroupRefInputSchema,
  listingGroupSchema,
  listListingGroupsInputSchema,
  ownerImportPathPrefix,
  updateListingGroupInputSchema,
} from './listing-groups/listing-groups.ts';
export type {
  Channel,
  Listing,
  ListingChannelLink,
  ListingUseCases,
} from './listings/listings.ts';
export {
  availabilityWindowProblem,
  channels,
  listAvailableListingsInputSchema,
  listingChannelLinkSchema,
  listingIdSchema,
  listingSchema,
  listListingsInputSchema,
  maxAvailabilityWindowNights,
  reissueCalendarExportUrlInputSchema,
  setCalendarImportUrlInputSchema,
  updateListingInputSchema,
} from './listings/listings.ts';
export type { AccessCodeSource, AccessCodeStatus, Lock, LockUseCases } from './locks/locks.ts';
export {
  accessCodeSchema,
  accessCodeStatusAt,
  listAccessCodesInputSchema,
  listLocksInputSchema,
  lockIdSchema,
  lockSchema,
} from './locks/locks.ts';
export type {
  DueMessageEmail,
  MessageDeliveryQueue,
  MessageEmailOutcome,
} from './messages/message-delivery.ts';
export {
  channelReservationReason,
  decideMessageDelivery,
  messageEmailRetryDelaysMs,
  nextMessageEmailAttemptAt,
  notDeliveredReasons,
} from './messages/message-delivery.ts';
export { applyMessageRuleChanges } from './messages/message-rule-changes.ts';
export type { MessageRuleRunner, RunDueMessageRulesResult } from './messages/message-rule-runner.ts';
export { runDueMessageRulesInputSchema } from './messages/message-rule-runner.ts';
export type {
  CreateMessageRuleInput,
  MessageRule,
  MessageRuleRefInput,
  MessageRuleTrigger,
  MessageRuleUseCases,
} from './messages/message-rules.ts';
export {
  createMessageRuleInputSchema,
  listMessageRulesInputSchema,
  messageRuleRefInputSchema,
  messageRuleSchema,
  stayRuleDefaultSendTime,
  updateMessageRuleInputSchema,
} from './messages/message-rules.ts';
export type {
  DeliveryStatus,
  Message,
  MessageSender,
  MessageThread,
  MessageUseCases,
} from './messages/messages.ts';
export {
  getMessageThreadInputSchema,
  messageSchema,
  sendMessageInputSchema,
  threadReservationSchema,
} from './messages/messages.ts';
export type { TemplateFacts } from './messages/render-template.ts';
export { renderTemplate } from './messages/render-template.ts';
export {
  templateVariables,
  templateVariablesIn,
  unknownTemplateVariables,
} from './messages/template-variables.ts';
export type { PricingRule, PricingUseCases, Quote } from './pricing/pricing.ts';
export {
  createPricingRuleInputSchema,
  listPricingRulesInputSchema,
  pricingRuleRefInputSchema,
  pricingRuleSchema,
  quoteInputSchema,
  quoteSchema,
  reorderPricingRulesInputSchema,
  updatePricingRuleInputSchema,
} from './pricing/pricing.ts';
export type { NightlyPrice, PricingInputs } from './pricing/pricing-engine.ts';
export { channelNightPrice, holdLookaround, priceNights } from './pricing/pricing-engine.ts';
export type { PricingRuleDefinition } from './pricing/pricing-rule-changes.ts';
export { applyPricingRuleChanges } from './pricing/pricing-rule-changes.ts';
export type { StayQuote } from './pricing/quote.ts';
export {
  assertStayDates,
  buildStayQuote,
  monthlyDiscountNights,
  weeklyDiscountNights,
} from './pricing/quote.ts';
export type { CancelledBy, ReservationStatus, StatusTransition } from './reservations/reservation-status.ts';
export {
  isLiveStatus,
  planStatusTransition,
  reservationTransitions,
  statusTimestampFields,
  stayPhaseOn,
} from './reservations/reservation-status.ts';
export type {
  LineItemType,
  Reservation,
  ReservationDetail,
  ReservationUseCases,
} from './reservations/reservations.ts';
export {
  cancelReservationInputSchema,
  changeReservationStatusInputSchema,
  createReservationInputSchema,
  listReservationsInputSchema,
  reservationDetailSchema,
  reservationIdSchema,
  reservationSchema,
  updateReservationInputSchema,
} from './reservations/reservations.ts';
export type { Review, ReviewUseCases } from './reviews/reviews.ts';
export { listReviewsInputSchema, respondToReviewInputSchema, reviewSchema } from './reviews/reviews.ts';
export {
  afterFailedAttempt,
  failingSubscriptionReason,
  webhookGiveUpAfterMs,
  webhookRetryDelayMs,
} from './webhooks/delivery-schedule.ts';
export type {
  DeliveredWebhookAttempt,
  DueWebhookDelivery,
  WebhookAttemptOutcome,
  WebhookDelivery,
  WebhookDeliveryEvent,
  WebhookDeliveryQueue,
  WebhookDeliveryStatus,
  WebhookDeliveryUseCases,
} from './webhooks/webhook-deliveries.ts';
export {
  listWebhookDeliveriesInputSchema,
  subscriptionReceives,
  webhookDeliveryRefInputSchema,
  webhookDeliverySchema,
  webhookTestEvent,
} from './webhooks/webhook-deliveries.ts';
export type { WebhookEventRecord } from './webhooks/webhook-events.ts';
export { webhookEventDataSchemas } from './webhooks/webhook-events.ts';
export { webhookSignatureHeader, webhookSignatureHeaderName } from './webhooks/webhook-signature.ts';
export type {
  CreateWebhookInput,
  RotatedWebhook,
  RotateWebhookSecretInput,
  Webhook,
  WebhookEvent,
  WebhookFormat,
  WebhookUseCases,
} from './webhooks/webhooks.ts';
export {
  createdWebhookSchema,
  createWebhookInputSchema,
  hostToolsWebhookEvents,
  listWebhooksInputSchema,
  maxWebhooksPerAccount,
  rotatedWebhookSchema,
  rotateWebhookSecretInputSchema,
  setHostToolsWebhookInputSchema,
  updateWebhookInputSchema,
  webhookEvents,
  webhookRefInputSchema,
  webhookSchema,
  webhookSecretPrefix,
} from './webhooks/webhooks.ts';
