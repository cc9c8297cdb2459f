import type { InnkeepDomain } from '@innkeep/domain';
import { createAnalyticsUseCases } from './analytics/analytics.store.ts';
import { createAuditUseCases } from './audit/audit.store.ts';
import { createCalendarUseCases } from './calendar/calendar.store.ts';
import { createChannelAccountUseCases } from './channel-accounts/channel-accounts.store.ts';
import { createHelpUseCases } from './help/help.store.ts';
import { createIdempotencyUseCases } from './idempotency/idempotency.store.ts';
import { createIdentityUseCases } from './identity/identity.store.ts';
import { createListingGroupUseCases } from './listing-groups/listing-groups.store.ts';
import { createListingUseCases, type ListingStoreDeps } from './listings/listings.store.ts';
import { createLockUseCases } from './locks/locks.store.ts';
import { createMessageRuleUseCases } from './messages/message-rules.store.ts';
import type { MessageStoreDeps } from './messages/message-store-deps.ts';
import { createMessageUseCases } from './messages/messages.store.ts';
import { createPricingUseCases } from './pricing/pricing.store.ts';
import { createReservationUseCases } from './reservations/reservations.store.ts';
import { createReviewUseCases } from './reviews/reviews.store.ts';
import { createWebhookDeliveryStore } from './webhooks/webhook-delivery.store.ts';
import { createWebhookUseCases } from './webhooks/webhooks.store.ts';

/**
 * Every use case of {@link InnkeepDomain}, over one PostgreSQL (or PGlite) database. `emailDelivery`: the
 * server emails messages to direct guests (SMTP is configured); without it they are stored `not_delivered`.
 * `publicBaseUrl`: where listings are shown to callers, so their calendar export URLs are whole.
 */
export function createPostgresDomain(deps: MessageStoreDeps & ListingStoreDeps): InnkeepDomain {
  return {
    identity: createIdentityUseCases(deps),
    listings: createListingUseCases(deps),
    listingGroups: createListingGroupUseCases(deps),
    channelAccounts: createChannelAccountUseCases(deps),
    calendar: createCalendarUseCases(deps),
    pricing: createPricingUseCases(deps),
    reservations: createReservationUseCases(deps),
    messages: createMessageUseCases(deps),
    messageRules: createMessageRuleUseCases(deps),
    reviews: createReviewUseCases(deps),
    locks: createLockUseCases(deps),
    help: createHelpUseCases(deps),
    webhooks: createWebhookUseCases(deps),
    // Seen through the port as the log and redelivery; dispatching and claiming are the sender job's.
    webhookDeliveries: createWebhookDeliveryStore(deps),
    audit: createAuditUseCases(deps),
    idempotency: createIdempotencyUseCases(deps),
    analytics: createAnalyticsUseCases(deps),
  };
}
