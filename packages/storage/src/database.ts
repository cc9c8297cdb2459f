import type { ColumnType, Generated, Insertable, Kysely, Selectable, Transaction } from 'kysely';

// Row types of the account model, column for column as the migrations create them (snake_case).
// Dates are `YYYY-MM-DD` strings (the connection turns off pg's Date parsing for `date`), money columns
// are integer minor units, `numeric` columns arrive as strings.

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type RequiredTimestamp = ColumnType<Date, Date | string, Date | string>;
type Numeric = ColumnType<string, string | number, string | number>;
type NullableNumeric = ColumnType<string | null, string | number | null | undefined, string | number | null>;
type Json = ColumnType<unknown, string, string>;

export interface AccountsTable {
  id: string;
  name: string;
  time_zone: string;
  currency: string;
  created_at: Timestamp;
}

export interface SubscriptionsTable {
  account_id: string;
  plan: string;
  status: string;
  current_period_end: Date | null;
  updated_at: Timestamp;
}

export interface UsersTable {
  id: string;
  account_id: string;
  role: string;
  email: string;
  first_name: string;
  last_name: string;
  password_hash: string | null;
  auth_token_hash: string | null;
  auth_token_created_at: Date | null;
  created_at: Timestamp;
}

export interface ChannelAccountsTable {
  id: string;
  account_id: string;
  channel: string;
  external_account_id: string | null;
  display_name: string;
  email: string | null;
  connection_type: string;
  status: string;
  last_sync_at: Date | null;
  last_error: string | null;
  created_at: Timestamp;
}

export interface ListingsTable {
  id: string;
  account_id: string;
  name: string;
  nickname: string | null;
  property_type: string;
  address: string;
  city: string;
  region: string | null;
  country_code: string;
  postal_code: string | null;
  latitude: NullableNumeric;
  longitude: NullableNumeric;
  time_zone: string;
  currency: string;
  bedrooms: number;
  bathrooms: Numeric;
  max_guests: number;
  base_price_minor: number;
  min_price_minor: number | null;
  cleaning_fee_minor: Generated<number>;
  extra_guest_fee_minor: Generated<number>;
  guests_included: Generated<number>;
  tax_rate_bp: Generated<number>;
  min_nights: Generated<number>;
  max_nights: Generated<number>;
  check_in_time: Generated<number>;
  check_out_time: Generated<number>;
  weekly_discount_pct: ColumnType<string, string | number | undefined, string | number>;
  monthly_discount_pct: ColumnType<string, string | number | undefined, string | number>;
  enabled: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ListingChannelLinksTable {
  listing_id: string;
  channel_account_id: string;
  external_listing_id: string;
  url: string | null;
  /** The secret of the link's iCal feed; drawn by PostgreSQL, reissued by setting it to its default (migration 0032). */
  calendar_export_token: Generated<string>;
  /** The channel's iCal URL polled for its stays, and the import's state and queue (migration 0034). */
  calendar_import_url: ColumnType<string | null, string | null | undefined, string | null>;
  /** `pending`, `connected` or `error`; null exactly when there is no import URL. */
  import_status: ColumnType<string | null, string | null | undefined, string | null>;
  import_etag: ColumnType<string | null, string | null | undefined, string | null>;
  import_last_modified: ColumnType<string | null, string | null | undefined, string | null>;
  import_last_success_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  import_last_error_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  import_last_error: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the import is next due; null: due at once. */
  import_next_poll_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** Until when the poller that claimed the link holds it. */
  import_lease_until: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface ListingGroupsTable {
  id: string;
  account_id: string;
  name: string;
  owner_name: string | null;
  owner_email: string | null;
  owner_import_token: string | null;
  created_at: Timestamp;
}

export interface ListingGroupMembersTable {
  group_id: string;
  listing_id: string;
  /** The listing's name, copied by a trigger on every write of the membership or rename of the listing. */
  listing_name: Generated<string>;
}

export interface CalendarDaysTable {
  listing_id: string;
  date: string;
  price_minor: number | null;
  min_nights: number | null;
  closed_to_arrival: Generated<boolean>;
  closed_to_departure: Generated<boolean>;
  note: string | null;
  updated_at: Timestamp;
}

export interface CalendarChannelPricesTable {
  listing_id: string;
  date: string;
  channel: string;
  price_minor: number;
}

export interface ReservationsTable {
  id: string;
  account_id: string;
  listing_id: string;
  channel: string;
  channel_account_id: string | null;
  confirmation_code: string;
  status: string;
  cancelled_by: string | null;
  guest_first_name: string;
  guest_last_name: string;
  guest_email: string | null;
  guest_phone: string | null;
  adults: Generated<number>;
  children: Generated<number>;
  infants: Generated<number>;
  pets: Generated<number>;
  start_date: string;
  end_date: string;
  nights: ColumnType<number, never, never>;
  /** Listing-local date of `confirmed_at`, else `created_at`; set by a trigger (migration 0004). */
  booked_on: ColumnType<string, never, never>;
  /** Whether a review of the account names this stay; kept by triggers on reviews (migration 0009). */
  reviewed: ColumnType<boolean, never, never>;
  currency: string;
  accommodation_minor: number;
  guest_price_minor: number;
  host_payout_minor: number;
  check_in_time: number | null;
  check_out_time: number | null;
  access_code: string | null;
  notes: string | null;
  inquiry_at: Date | null;
  pending_at: Date | null;
  confirmed_at: Date | null;
  cancelled_at: Date | null;
  declined_at: Date | null;
  expired_at: Date | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CalendarHoldsTable {
  id: string;
  account_id: string;
  listing_id: string;
  /** A `[start, end)` daterange literal such as `[2026-05-01,2026-05-04)`. */
  nights: string;
  kind: string;
  reservation_id: string | null;
  block_reason: string | null;
  note: string | null;
  created_by: string | null;
  created_at: Timestamp;
  /** The channel account whose calendar holds these nights, set exactly for reason `channel` (migration 0034). */
  channel_account_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The UID of the feed event these nights come from, set exactly for reason `channel`. */
  import_uid: ColumnType<string | null, string | null | undefined, string | null>;
}

/** The open conflicts of calendar imports: feed stays that clash with other holds (migration 0034). */
export interface CalendarImportConflictsTable {
  account_id: string;
  listing_id: string;
  channel_account_id: string;
  event_uid: string;
  start_date: string;
  end_date: string;
  summary: string | null;
  /** The clashing holds, as the domain's `CalendarImportClash` array. */
  clashes: Json;
  first_seen_at: RequiredTimestamp;
}

/** When each listing's holds last changed, stamped by triggers on `calendar_holds` (migration 0032). */
export interface ListingHoldChangesTable {
  listing_id: string;
  changed_at: Date;
}

export interface ReservationLineItemsTable {
  id: string;
  reservation_id: string;
  position: number;
  type: string;
  name: string;
  amount_minor: number;
  paid_by: string;
  paid_to_host: boolean;
}

export interface ReservationNightsTable {
  reservation_id: string;
  night: string;
  accommodation_minor: number;
}

/** A sold night with its pro-rated money; maintained by `refreshStayNightFacts`. */
export interface StayNightFactsTable {
  reservation_id: string;
  night: string;
  account_id: string;
  listing_id: string;
  channel: string;
  currency: string;
  accommodation_minor: number;
  fees_minor: number;
  channel_fees_minor: number;
  payout_minor: number;
}

/**
 * A run of open nights between two consecutive holds of a listing: `start_date` is its first open night,
 * `end_date` the next held one. Rebuilt by triggers on `calendar_holds` in every hold write (migration 0011).
 */
export interface CalendarGapsTable {
  listing_id: ColumnType<string, never, never>;
  start_date: ColumnType<string, never, never>;
  end_date: ColumnType<string, never, never>;
}

/**
 * Per listing and year, its `calendar_gaps` starting in that year packed in first-night order: eight bytes a
 * gap, first open night and next held night as big-endian 32-bit day numbers from 2000-01-01. Rebuilt with the
 * gaps by the triggers on `calendar_holds` (migration 0031); read by listed-price analytics.
 */
export interface CalendarGapYearsTable {
  listing_id: ColumnType<string, never, never>;
  year: ColumnType<number, never, never>;
  account_id: ColumnType<string, never, never>;
  gaps: ColumnType<Uint8Array, never, never>;
}

/**
 * Per listing with holds, its first held night and the night after its last held one. Rebuilt by triggers on
 * `calendar_holds` in every hold write (migration 0014).
 */
export interface CalendarHoldSpansTable {
  listing_id: ColumnType<string, never, never>;
  account_id: ColumnType<string, never, never>;
  first_night: ColumnType<string, never, never>;
  end_night: ColumnType<string, never, never>;
}

/**
 * The check-in cohort by account, check-in month, channel, live (accepted) or cancelled, and lead days, with
 * reservations and their nights. Kept by statement triggers on `reservations` in every write (migration 0013).
 */
export interface CheckInMonthFactsTable {
  account_id: ColumnType<string, never, never>;
  month: ColumnType<string, never, never>;
  channel: ColumnType<string, never, never>;
  live: ColumnType<boolean, never, never>;
  lead_days: ColumnType<number, never, never>;
  reservations: ColumnType<number, never, never>;
  nights: ColumnType<number, never, never>;
}

/**
 * Accepted reservations' check-in weekdays, booking weekdays, stay lengths, party sizes (by check-in month) and
 * booked nights by weekday (by night's month), per account and channel: a `tally` per `kind` and `value`. Moved
 * by triggers on `reservations` (migration 0026).
 */
export interface BookingPatternFactsTable {
  account_id: ColumnType<string, never, never>;
  month: ColumnType<string, never, never>;
  channel: ColumnType<string, never, never>;
  kind: ColumnType<string, never, never>;
  value: ColumnType<number, never, never>;
  tally: ColumnType<number, never, never>;
}

/**
 * Accepted change-log snapshots per account, stay month, UTC week begun and week replaced ('infinity' while
 * valid) and currency: nights, even-spread rent, check-ins and stays crossing in. Moved by triggers on
 * `reservation_changes` (migration 0028).
 */
export interface PaceSnapshotMonthsTable {
  account_id: ColumnType<string, never, never>;
  stay_month: ColumnType<string, never, never>;
  began_week: ColumnType<string, never, never>;
  replaced_week: ColumnType<string, never, never>;
  currency: ColumnType<string, never, never>;
  nights: ColumnType<string, never, never>;
  rent_minor: ColumnType<string, never, never>;
  checks_in: ColumnType<number, never, never>;
  crosses_in: ColumnType<number, never, never>;
}

/**
 * Per accepted stay, its check-out and the days until its listing's next accepted check-in (null without
 * one). Rebuilt per listing by triggers on `reservations` (migration 0024), like the two tallies below.
 */
export interface TurnoverFactsTable {
  listing_id: ColumnType<string, never, never>;
  check_out: ColumnType<string, never, never>;
  reservation_id: ColumnType<string, never, never>;
  account_id: ColumnType<string, never, never>;
  channel: ColumnType<string, never, never>;
  turnaround_days: ColumnType<number | null, never, never>;
}

/**
 * Per listing and channel (null: all channels), running totals of turnovers and same-day turnovers by month
 * from `first_month_number`, so any run of whole months is the difference of two elements.
 */
export interface TurnoverListingTotalsTable {
  listing_id: ColumnType<string, never, never>;
  account_id: ColumnType<string, never, never>;
  channel: ColumnType<string | null, never, never>;
  first_month_number: ColumnType<number, never, never>;
  turnovers: ColumnType<number[], never, never>;
  same_day: ColumnType<number[], never, never>;
}

/** Turnovers per account, check-out month, channel and turnaround days. */
export interface TurnoverAccountMonthsTable {
  account_id: ColumnType<string, never, never>;
  month: ColumnType<string, never, never>;
  channel: ColumnType<string, never, never>;
  turnaround_days: ColumnType<number | null, never, never>;
  turnovers: ColumnType<number, never, never>;
}

/**
 * Reservations per account, check-in month, channel, currency, status and who cancelled ('' for nobody):
 * count, nights and rent. Moved by triggers on `reservations` (migration 0029).
 */
export interface ReservationMonthFactsTable {
  account_id: ColumnType<string, never, never>;
  month: ColumnType<string, never, never>;
  channel: ColumnType<string, never, never>;
  currency: ColumnType<string, never, never>;
  status: ColumnType<string, never, never>;
  cancelled_by: ColumnType<string, never, never>;
  reservations: ColumnType<number, never, never>;
  nights: ColumnType<string, never, never>;
  rent_minor: ColumnType<string, never, never>;
}

/** Nights of calendar blocks per account, month, listing currency and reason; moved by triggers on `calendar_holds`. */
export interface BlockMonthFactsTable {
  account_id: ColumnType<string, never, never>;
  month: ColumnType<string, never, never>;
  currency: ColumnType<string, never, never>;
  reason: ColumnType<string, never, never>;
  nights: ColumnType<number, never, never>;
}

/** Sold nights and money per listing, month, channel and currency; moved with every `stay_night_facts` change. */
export interface StayMonthFactsTable {
  listing_id: string;
  month: string;
  channel: string;
  currency: string;
  account_id: string;
  nights: number;
  accommodation_minor: number;
  fees_minor: number;
  channel_fees_minor: number;
  payout_minor: number;
}

/** `stay_month_facts` summed over the listings; maintained beside it by `refreshStayNightFacts`. */
export interface StayAccountMonthFactsTable {
  account_id: string;
  month: string;
  channel: string;
  currency: string;
  nights: number;
  accommodation_minor: number;
  fees_minor: number;
  channel_fees_minor: number;
  payout_minor: number;
}

export interface ReservationChangesTable {
  id: Generated<number>;
  reservation_id: string;
  account_id: string;
  changed_at: RequiredTimestamp;
  change: string;
  status: string;
  start_date: string;
  end_date: string;
  guests: number;
  accommodation_minor: number;
  guest_price_minor: number;
  host_payout_minor: number;
  currency: string;
  diff: ColumnType<unknown, string | undefined, string>;
  actor_user_id: string | null;
  client_id: string | null;
  /** The reservation's listing and channel, and the next snapshot's `changed_at` (null for the latest one):
   * filled by a statement trigger after every insert (migration 0004), so null only inside that statement. */
  listing_id: ColumnType<string | null, never, never>;
  channel: ColumnType<string | null, never, never>;
  valid_until: ColumnType<Date | null, never, never>;
}

/** One wait of a guest for a reply; maintained by `refreshGuestWaits` in every message insert. */
export interface GuestWaitsTable {
  guest_message_id: string;
  reservation_id: string;
  account_id: string;
  listing_id: string;
  channel: string;
  stage: string;
  guest_message_at: Date;
  local_date: string;
  local_hour: number;
  local_weekday: number;
  response_seconds: number | null;
  automated_seconds: number | null;
}

/**
 * Response times of `guest_waits` per account, month, way of counting a reply, dimension group and time
 * bucket; maintained beside it by `refreshGuestWaits`.
 */
export interface GuestWaitBucketsTable {
  account_id: string;
  replies: 'host' | 'any';
  month: string;
  dimension: 'overall' | 'channel' | 'stage' | 'hour' | 'weekday';
  group_key: string;
  bucket: number;
  waits: number;
  answered: number;
  total_seconds: number;
  within_hour: number;
  within_day: number;
  times: number[];
}

/**
 * Response times per account, way of counting a reply, month and listing: counts, sums, answered-within
 * counts at doubling limits (60 s … 122,880 s) and the answered times unsorted. Moved beside
 * `guest_wait_buckets` by every write of `guest_waits` (migration 0027).
 */
export interface ListingWaitMonthsTable {
  account_id: string;
  replies: 'host' | 'any';
  month: string;
  listing_id: string;
  waits: number;
  answered: number;
  total_seconds: number;
  within_hour: number;
  within_day: number;
  within_60: number;
  within_120: number;
  within_240: number;
  within_480: number;
  within_960: number;
  within_1920: number;
  within_3840: number;
  within_7680: number;
  within_15360: number;
  within_30720: number;
  within_61440: number;
  within_122880: number;
  times: number[];
}

export interface MessageRulesTable {
  id: string;
  account_id: string;
  name: string;
  trigger: string;
  offset_days: Generated<number>;
  send_time: string | null;
  body: string;
  last_minute_body: string | null;
  listing_ids: string[] | null;
  channels: string[] | null;
  paused: Generated<boolean>;
  paused_at: Date | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MessagesTable {
  id: string;
  account_id: string;
  reservation_id: string;
  sender: string;
  body: string;
  sent_at: RequiredTimestamp;
  message_rule_id: string | null;
  author_user_id: string | null;
  /** One of the domain's `deliveryStatuses`. */
  delivery_status: string;
  /** Why it is `failed` or `not_delivered`; null otherwise. */
  delivery_error: string | null;
  /** Email attempts made so far. */
  delivery_attempts: Generated<number>;
  /** When the next email attempt is due; set exactly while `queued`. */
  next_delivery_at: Date | null;
  /** Until when the sender that claimed it holds it; null when nobody does. */
  delivery_lease_until: Date | null;
}

export interface PricingRulesTable {
  id: string;
  account_id: string;
  name: string;
  position: number;
  enabled: Generated<boolean>;
  listing_ids: string[] | null;
  adjustment_kind: string;
  adjustment_amount: Numeric;
  days_of_week: number[] | null;
  start_date: string | null;
  end_date: string | null;
  last_minute_days: number | null;
  orphan_gap_max_nights: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface LocksTable {
  id: string;
  account_id: string;
  provider: string;
  name: string;
  online: Generated<boolean>;
  battery_pct: number | null;
  code_length: Generated<number>;
  created_at: Timestamp;
}

export interface LockListingsTable {
  lock_id: string;
  listing_id: string;
}

export interface AccessCodesTable {
  id: string;
  account_id: string;
  reservation_id: string;
  lock_id: string;
  code: string;
  source: string;
  valid_from: RequiredTimestamp;
  valid_to: RequiredTimestamp;
  status: string;
}

export interface ReviewsTable {
  id: string;
  account_id: string;
  listing_id: string;
  reservation_id: string | null;
  channel: string;
  overall_rating: number;
  cleanliness_rating: number | null;
  accuracy_rating: number | null;
  check_in_rating: number | null;
  communication_rating: number | null;
  location_rating: number | null;
  value_rating: number | null;
  public_text: string | null;
  private_feedback: string | null;
  host_response: string | null;
  responded_at: Date | null;
  submitted_at: RequiredTimestamp;
  /** Listing-local date of `submitted_at`; set by a trigger (migration 0009). */
  local_date: ColumnType<string, never, never>;
}

export interface HelpArticlesTable {
  id: string;
  slug: string;
  title: string;
  collection: string;
  summary: string;
  body: string;
  updated_at: Timestamp;
}

export interface WebhookSubscriptionsTable {
  id: string;
  account_id: string;
  url: string;
  events: string[];
  secret: string;
  active: Generated<boolean>;
  disabled_reason: string | null;
  consecutive_failures: Generated<number>;
  created_at: Timestamp;
  /** `innkeep` or `hosttools` (migration 0018); at most one `hosttools` row per account. */
  format: Generated<string>;
  /** The secret before the last rotation, still signing until `previous_secret_expires_at` (migration 0022). */
  previous_secret: string | null;
  previous_secret_expires_at: Timestamp | null;
}

/** The outbox of webhook events (migration 0020): one row per event a write recorded. */
export interface WebhookEventsTable {
  /** `evt_…`, the id receivers deduplicate on. */
  id: string;
  account_id: string;
  /** One of the domain's `webhookEvents`. */
  event: string;
  created: Timestamp;
  data: Json;
  /** Null until a dispatcher has taken the event over. */
  dispatched_at: Date | null;
}

/** The delivery queue (migration 0021): one row per event and subscription, with its schedule and log. */
export interface WebhookDeliveriesTable {
  /** `whd_…`. */
  id: string;
  account_id: string;
  event_id: string;
  subscription_id: string;
  /** One of the domain's `webhookDeliveryStatuses`. */
  status: string;
  attempts: Generated<number>;
  /** When the next attempt is due; set exactly while `pending`. */
  next_attempt_at: Date | null;
  /** Until when the sender that claimed the attempt holds it; null when nobody does. */
  lease_until: Date | null;
  /** When the current schedule's first attempt was made: the start of its retry window. */
  first_attempt_at: Date | null;
  last_attempt_at: Date | null;
  last_status_code: number | null;
  last_error: string | null;
  last_latency_ms: number | null;
  delivered_at: Date | null;
  created_at: RequiredTimestamp;
}

export interface PartnerApiKeysTable {
  id: string;
  partner_name: string;
  contact_email: string | null;
  key_hash: string;
  created_at: Timestamp;
  revoked_at: Date | null;
}

export interface AuditLogTable {
  id: Generated<number>;
  account_id: string;
  user_id: string | null;
  via: string;
  client_id: string | null;
  action: string;
  target_type: string;
  target_id: string | null;
  details: Json;
  created_at: Timestamp;
}

export interface IdempotencyKeysTable {
  account_id: string;
  key: string;
  request_fingerprint: string;
  response_status: number;
  response_body: Json;
  created_at: Timestamp;
}

/** Every table of the account model, for `Kysely<Database>`. */
export interface Database {
  accounts: AccountsTable;
  subscriptions: SubscriptionsTable;
  users: UsersTable;
  channel_accounts: ChannelAccountsTable;
  listings: ListingsTable;
  listing_channel_links: ListingChannelLinksTable;
  listing_groups: ListingGroupsTable;
  listing_group_members: ListingGroupMembersTable;
  calendar_days: CalendarDaysTable;
  calendar_channel_prices: CalendarChannelPricesTable;
  reservations: ReservationsTable;
  calendar_holds: CalendarHoldsTable;
  calendar_import_conflicts: CalendarImportConflictsTable;
  calendar_gaps: CalendarGapsTable;
  calendar_gap_years: CalendarGapYearsTable;
  calendar_hold_spans: CalendarHoldSpansTable;
  block_month_facts: BlockMonthFactsTable;
  listing_hold_changes: ListingHoldChangesTable;
  reservation_line_items: ReservationLineItemsTable;
  reservation_nights: ReservationNightsTable;
  reservation_changes: ReservationChangesTable;
  stay_night_facts: StayNightFactsTable;
  stay_month_facts: StayMonthFactsTable;
  stay_account_month_facts: StayAccountMonthFactsTable;
  check_in_month_facts: CheckInMonthFactsTable;
  booking_pattern_facts: BookingPatternFactsTable;
  reservation_month_facts: ReservationMonthFactsTable;
  turnover_facts: TurnoverFactsTable;
  turnover_listing_totals: TurnoverListingTotalsTable;
  turnover_account_months: TurnoverAccountMonthsTable;
  pace_snapshot_months: PaceSnapshotMonthsTable;
  message_rules: MessageRulesTable;
  messages: MessagesTable;
  guest_waits: GuestWaitsTable;
  guest_wait_buckets: GuestWaitBucketsTable;
  listing_wait_months: ListingWaitMonthsTable;
  pricing_rules: PricingRulesTable;
  locks: LocksTable;
  lock_listings: LockListingsTable;
  access_codes: AccessCodesTable;
  reviews: ReviewsTable;
  help_articles: HelpArticlesTable;
  webhook_subscriptions: WebhookSubscriptionsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  partner_api_keys: PartnerApiKeysTable;
  audit_log: AuditLogTable;
  idempotency_keys: IdempotencyKeysTable;
}

/** A connection or an open transaction; store functions accept either. */
export type Executor = Kysely<Database> | Transaction<Database>;

/** Row shapes, for mappers. */
export type ListingRow = Selectable<ListingsTable>;
export type ReservationRow = Selectable<ReservationsTable>;
export type NewReservationRow = Insertable<ReservationsTable>;
