// Everything that touches SQL: the database drivers, migrations and the use cases over PostgreSQL/PGlite.

export { createAuditUseCases } from './audit/audit.store.ts';
export { createCalendarUseCases } from './calendar/calendar.store.ts';
export { createChannelAccountUseCases } from './channel-accounts/channel-accounts.store.ts';
export type { DatabaseHandle, DatabaseTarget } from './connection.ts';
export { openDatabase } from './connection.ts';
export { createPostgresDomain } from './create-domain.ts';
export type { Database, Executor } from './database.ts';
export type { HelpSyncResult } from './help/help.store.ts';
export { createHelpUseCases, syncHelpArticles } from './help/help.store.ts';
export { createIdempotencyUseCases } from './idempotency/idempotency.store.ts';
export { createIdentityUseCases } from './identity/identity.store.ts';
export { createOperatorUseCases } from './identity/operator.store.ts';
export { createListingGroupUseCases } from './listing-groups/listing-groups.store.ts';
export { createListingUseCases } from './listings/listings.store.ts';
export { createLockUseCases } from './locks/locks.store.ts';
export { createMessageRuleRunner } from './messages/message-rule-runner.ts';
export { createMessageRuleUseCases } from './messages/message-rules.store.ts';
export { createMessageUseCases } from './messages/messages.store.ts';
export { migrateToLatest } from './migrate.ts';
export { domainMigrations } from './migrations/index.ts';
export { createPricingUseCases } from './pricing/pricing.store.ts';
export { quoteStay } from './pricing/quote.store.ts';
export { createReservationUseCases } from './reservations/reservations.store.ts';
export { createReviewUseCases } from './reviews/reviews.store.ts';
export type { StoreDeps } from './store-deps.ts';
export { createWebhookUseCases } from './webhooks/webhooks.store.ts';
