import type { AnalyticsUseCases } from './analytics/analytics.ts';
import type { AuditUseCases } from './audit/audit.ts';
import type { CalendarUseCases } from './calendar/calendar.ts';
import type { ChannelAccountUseCases } from './channel-accounts/channel-accounts.ts';
import type { HelpUseCases } from './help/help.ts';
import type { IdempotencyUseCases } from './idempotency/idempotency.ts';
import type { IdentityUseCases } from './identity/identity.ts';
import type { ListingGroupUseCases } from './listing-groups/listing-groups.ts';
import type { ListingUseCases } from './listings/listings.ts';
import type { LockUseCases } from './locks/locks.ts';
import type { MessageRuleUseCases } from './messages/message-rules.ts';
import type { MessageUseCases } from './messages/messages.ts';
import type { PricingUseCases } from './pricing/pricing.ts';
import type { ReservationUseCases } from './reservations/reservations.ts';
import type { ReviewUseCases } from './reviews/reviews.ts';
import type { WebhookDeliveryUseCases } from './webhooks/webhook-deliveries.ts';
import type { WebhookUseCases } from './webhooks/webhooks.ts';

/**
 * The port every adapter talks to: all use cases of an Innkeep account, grouped by area. The MCP tools and
 * the REST API depend on this interface only, never on a database; `createPostgresDomain` implements it.
 */
export interface InnkeepDomain {
  readonly identity: IdentityUseCases;
  readonly listings: ListingUseCases;
  readonly listingGroups: ListingGroupUseCases;
  readonly channelAccounts: ChannelAccountUseCases;
  readonly calendar: CalendarUseCases;
  readonly pricing: PricingUseCases;
  readonly reservations: ReservationUseCases;
  readonly messages: MessageUseCases;
  readonly messageRules: MessageRuleUseCases;
  readonly reviews: ReviewUseCases;
  readonly locks: LockUseCases;
  readonly help: HelpUseCases;
  readonly webhooks: WebhookUseCases;
  readonly webhookDeliveries: WebhookDeliveryUseCases;
  readonly audit: AuditUseCases;
  readonly idempotency: IdempotencyUseCases;
  readonly analytics: AnalyticsUseCases;
}
