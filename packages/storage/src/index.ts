// Everything that touches SQL: the database drivers, migrations and the use cases over PostgreSQL/PGlite.

export { rebuildGuestWaits } from './analytics/guest-waits.ts';
export { rebuildStayNightFacts } from './analytics/stay-night-facts.ts';
export { createCalendarFeedReader } from './calendar-feeds/calendar-feeds.store.ts';
export { createCalendarImportQueue } from './calendar-imports/calendar-import.store.ts';
export type { DatabaseHandle } from './connection.ts';
export { openDatabase } from './connection.ts';
export { createPostgresDomain } from './create-domain.ts';
export type {
  CalendarChannelPricesTable,
  CalendarDaysTable,
  ChannelAccountsTable,
  Database,
  Executor,
  ListingChannelLinksTable,
  ListingGroupMembersTable,
  ListingGroupsTable,
  ListingsTable,
  LockListingsTable,
  LocksTable,
  MessageRulesTable,
  PricingRulesTable,
  UsersTable,
} from './database.ts';
export type { HelpSyncResult } from './help/help.store.ts';
export { syncHelpArticles } from './help/help.store.ts';
export type { RemovedRows, RemoveExpiredRowsOptions } from './housekeeping.ts';
export { defaultWebhookEventRetentionDays, removeExpiredRows } from './housekeeping.ts';
export { createIdentityUseCases } from './identity/identity.store.ts';
export { createOperatorUseCases } from './identity/operator.store.ts';
export { createMessageDeliveryQueue } from './messages/message-delivery.store.ts';
export { createMessageRuleRunner } from './messages/message-rule-runner.ts';
export { migrateToLatest } from './migrate.ts';
export { domainMigrations } from './migrations/index.ts';
export { inTransaction } from './transaction.ts';
export { recordEvents } from './webhooks/record-event.ts';
export { createWebhookDeliveryStore } from './webhooks/webhook-delivery.store.ts';
