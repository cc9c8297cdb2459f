// The public surface of @innkeep/domain: schemas, types, errors, pure rules and the use-case interfaces.
// Implementations over PostgreSQL are in '@innkeep/domain/postgres'; the demo generator in '@innkeep/domain/demo'.

export type { AuditEntryView, AuditUseCases, ListAuditInput } from './audit/audit.ts';
export { auditEntrySchema, listAuditInputSchema } from './audit/audit.ts';
export type {
  AvailabilityChange,
  Calendar,
  CalendarDay,
  CalendarDayStatus,
  CalendarUseCases,
  GetCalendarInput,
  PriceEntry,
  SetAvailabilityInput,
  SetPricesInput,
} from './calendar/calendar.ts';
export {
  availabilityChangeSchema,
  blockReasonSchema,
  calendarDaySchema,
  calendarDayStatuses,
  calendarSchema,
  getCalendarInputSchema,
  maxAvailabilityNights,
  maxCalendarDays,
  maxPriceEntries,
  priceEntrySchema,
  setAvailabilityInputSchema,
  setPricesInputSchema,
} from './calendar/calendar.ts';
export type { BlockReason, CalendarHold, HoldClash, HoldKind } from './calendar/holds.ts';
export { blockReasons, describeHold, holdConflict, holdKinds } from './calendar/holds.ts';
export type {
  ChannelAccount,
  ChannelAccountStatus,
  ChannelAccountUseCases,
  ConnectionType,
  ListChannelAccountsInput,
} from './channel-accounts/channel-accounts.ts';
export {
  channelAccountIdSchema,
  channelAccountSchema,
  channelAccountStatuses,
  connectionTypes,
  listChannelAccountsInputSchema,
} from './channel-accounts/channel-accounts.ts';
export type { AccessRoute, Actor, UserRole } from './core/actor.ts';
export { accessRoutes, assertCanWrite, assertOwner, userRoles } from './core/actor.ts';
export type { Clock } from './core/clock.ts';
export { systemClock } from './core/clock.ts';
export type { LocalDate } from './core/dates.ts';
export {
  addDays,
  areLocalDates,
  dayOfWeek,
  daysBetween,
  isValidTimeZone,
  localDateIn,
  localDateSchema,
  maxDate,
  minDate,
  monthNames,
  nightsOf,
  timeZoneSchema,
  weekdayNames,
} from './core/dates.ts';
export type { ErrorCode, ErrorCodeInfo } from './core/errors.ts';
export { DomainError, errorCatalogue, errorCodes, notFound } from './core/errors.ts';
export type { IdKind } from './core/ids.ts';
export { encodeIdBytes, idPrefixes, newId } from './core/ids.ts';
export { parseInput } from './core/input.ts';
export type { CurrencyCode } from './core/money.ts';
export {
  allocateByLargestRemainder,
  amountSchema,
  currencyCodeSchema,
  currencyExponent,
  currencyExponents,
  divideRounded,
  percentOf,
  toMajorUnits,
  toMinorUnits,
} from './core/money.ts';
export type { Page } from './core/paging.ts';
export { decodeCursor, encodeCursor, pageInputShape, pageLimits, toPage } from './core/paging.ts';
export type { Scope } from './core/scopes.ts';
export { allScopes, isScope, scopeCatalogue } from './core/scopes.ts';
export type { UnstorableText } from './core/storable-text.ts';
export { findUnstorableText } from './core/storable-text.ts';
export type { InnkeepDomain } from './domain.ts';
export type {
  GetHelpArticleInput,
  HelpArticle,
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
export type {
  IdempotencyRequest,
  IdempotencyUseCases,
  IdempotentResponse,
  IdempotentResult,
} from './idempotency/idempotency.ts';
export {
  idempotencyKeyLifetimeMs,
  idempotencyPendingTimeoutMs,
  idempotencyRequestSchema,
} from './idempotency/idempotency.ts';
export type {
  ChangePasswordInput,
  IdentityUseCases,
  IssuedAuthToken,
  ListUsersInput,
  LoginInput,
  PartnerApiKeyOwner,
  Principal,
  SubscriptionStatus,
  SubUserRole,
  TeamMember,
  UpdateProfileInput,
  UserProfile,
} from './identity/identity.ts';
export {
  actorFromPrincipal,
  changePasswordInputSchema,
  emailSchema,
  isGoodStanding,
  listUsersInputSchema,
  loginInputSchema,
  passwordSchema,
  personNameSchema,
  subscriptionStatuses,
  subscriptionStatusSchema,
  subUserRoles,
  teamMemberSchema,
  updateProfileInputSchema,
  userProfileSchema,
} from './identity/identity.ts';
export type {
  AddSubUserInput,
  CreateOwnerAccountInput,
  IssueAuthTokenInput,
  IssuePartnerApiKeyInput,
  OperatorUseCases,
  RevokePartnerApiKeyInput,
  SetSubscriptionStatusInput,
  UserLookup,
} from './identity/operator.ts';
export {
  addSubUserInputSchema,
  createOwnerAccountInputSchema,
  issueAuthTokenInputSchema,
  issuePartnerApiKeyInputSchema,
  revokePartnerApiKeyInputSchema,
  setSubscriptionStatusInputSchema,
} from './identity/operator.ts';
export { generateSecretToken, hashPassword, hashSecretToken, verifyPassword } from './identity/secrets.ts';
export type {
  CreateListingGroupInput,
  DeletedListingGroup,
  ListingGroup,
  ListingGroupRefInput,
  ListingGroupUseCases,
  ListListingGroupsInput,
  UpdateListingGroupInput,
} from './listing-groups/listing-groups.ts';
export {
  createListingGroupInputSchema,
  listingGroupIdSchema,
  listingGroupRefInputSchema,
  listingGroupSchema,
  listListingGroupsInputSchema,
  maxListingsPerGroup,
  ownerImportPathPrefix,
  updateListingGroupInputSchema,
} from './listing-groups/listing-groups.ts';
export type {
  Channel,
  Listing,
  ListingUseCases,
  ListListingsInput,
  UpdateListingInput,
} from './listings/listings.ts';
export {
  channelSchema,
  channels,
  listingIdSchema,
  listingSchema,
  listListingsInputSchema,
  updateListingInputSchema,
} from './listings/listings.ts';
export type {
  AccessCode,
  AccessCodeSource,
  AccessCodeStatus,
  ListAccessCodesInput,
  ListLocksInput,
  Lock,
  LockUseCases,
} from './locks/locks.ts';
export {
  accessCodeSchema,
  accessCodeSources,
  accessCodeStatusAt,
  accessCodeStatuses,
  listAccessCodesInputSchema,
  listLocksInputSchema,
  lockIdSchema,
  lockSchema,
} from './locks/locks.ts';
export type {
  MessageRuleRunner,
  RunDueMessageRulesInput,
  RunDueMessageRulesResult,
} from './messages/message-rule-runner.ts';
export { runDueMessageRulesInputSchema } from './messages/message-rule-runner.ts';
export type {
  CreateMessageRuleInput,
  ListMessageRulesInput,
  MessageRule,
  MessageRuleRefInput,
  MessageRuleTrigger,
  MessageRuleUseCases,
} from './messages/message-rules.ts';
export {
  createMessageRuleInputSchema,
  listMessageRulesInputSchema,
  messageRuleIdSchema,
  messageRuleRefInputSchema,
  messageRuleSchema,
  messageRuleTriggers,
} from './messages/message-rules.ts';
export type {
  DeliveryStatus,
  GetMessageThreadInput,
  Message,
  MessageSender,
  MessageThread,
  MessageUseCases,
  SendMessageInput,
  ThreadReservation,
} from './messages/messages.ts';
export {
  deliveryStatuses,
  getMessageThreadInputSchema,
  messageSchema,
  messageSenders,
  sendMessageInputSchema,
  threadReservationSchema,
} from './messages/messages.ts';
export type { TemplateFacts } from './messages/render-template.ts';
export { renderTemplate } from './messages/render-template.ts';
export type { TemplateVariable, TemplateVariableName } from './messages/template-variables.ts';
export {
  templateVariables,
  templateVariablesIn,
  unknownTemplateVariables,
} from './messages/template-variables.ts';
export type {
  CreatePricingRuleInput,
  ListPricingRulesInput,
  PricingRule,
  PricingUseCases,
  Quote,
  QuoteInput,
} from './pricing/pricing.ts';
export {
  createPricingRuleInputSchema,
  listPricingRulesInputSchema,
  maxLastMinuteDays,
  maxOrphanGapNights,
  pricingAdjustmentSchema,
  pricingRuleSchema,
  quoteInputSchema,
  quoteSchema,
} from './pricing/pricing.ts';
export type {
  AdjustmentKind,
  HeldRange,
  NightlyPrice,
  PricingInputs,
  PricingRuleTerms,
} from './pricing/pricing-engine.ts';
export {
  adjustmentKinds,
  channelNightPrice,
  holdLookaround,
  orphanGapLength,
  priceNights,
  ruleCoversListing,
} from './pricing/pricing-engine.ts';
export type {
  QuoteLineItemType,
  StayQuote,
  StayQuoteFacts,
  StayQuoteLineItem,
  StayTerms,
} from './pricing/quote.ts';
export {
  assertStayDates,
  buildStayQuote,
  maxStayNights,
  monthlyDiscountNights,
  quoteLineItemTypes,
  weeklyDiscountNights,
} from './pricing/quote.ts';
export type {
  CancelledBy,
  HoldChange,
  ReservationStatus,
  StatusTransition,
  StayPhase,
} from './reservations/reservation-status.ts';
export {
  cancelledByValues,
  isLiveStatus,
  liveStatuses,
  planStatusTransition,
  reservationStatuses,
  reservationTransitions,
  statusTimestampFields,
  stayPhaseOn,
  stayPhases,
} from './reservations/reservation-status.ts';
export type {
  CancelReservationInput,
  ChangeReservationStatusInput,
  CreateReservationInput,
  LineItemType,
  ListReservationsInput,
  Reservation,
  ReservationDetail,
  ReservationUseCases,
  UpdateReservationInput,
} from './reservations/reservations.ts';
export {
  cancelReservationInputSchema,
  changeReservationStatusInputSchema,
  createReservationInputSchema,
  lineItemTypes,
  listReservationsInputSchema,
  reservationDetailSchema,
  reservationIdSchema,
  reservationSchema,
  reservationStatusSchema,
  updateReservationInputSchema,
} from './reservations/reservations.ts';
export type { ListReviewsInput, RespondToReviewInput, Review, ReviewUseCases } from './reviews/reviews.ts';
export {
  listReviewsInputSchema,
  maxReviewResponseLength,
  respondToReviewInputSchema,
  reviewIdSchema,
  reviewSchema,
} from './reviews/reviews.ts';
export { webhookSignatureHeader, webhookSignatureHeaderName } from './webhooks/webhook-signature.ts';
export type {
  CreatedWebhook,
  CreateWebhookInput,
  DeletedWebhook,
  ListWebhooksInput,
  UpdateWebhookInput,
  Webhook,
  WebhookEvent,
  WebhookRefInput,
  WebhookUseCases,
} from './webhooks/webhooks.ts';
export {
  createdWebhookSchema,
  createWebhookInputSchema,
  isAllowedWebhookUrl,
  listWebhooksInputSchema,
  maxWebhooksPerAccount,
  updateWebhookInputSchema,
  webhookEvents,
  webhookIdSchema,
  webhookRefInputSchema,
  webhookSchema,
  webhookSecretPrefix,
} from './webhooks/webhooks.ts';
