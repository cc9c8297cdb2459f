import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports no application types and is never edited once released.
// A later change to the schema is a new migration beside it.

/** Creates the whole account model. */
export async function up(db: Kysely<unknown>): Promise<void> {
  // btree_gist lets one GiST exclusion constraint compare listing ids with = and stays with &&.
  await sql`create extension if not exists btree_gist`.execute(db);

  await sql`
    create table accounts (
      id text primary key,
      name text not null,
      time_zone text not null,
      currency char(3) not null,
      created_at timestamptz not null default now()
    )`.execute(db);

  await sql`
    create table subscriptions (
      account_id text primary key references accounts (id) on delete cascade,
      plan text not null,
      status text not null check (status in ('trialing', 'active', 'past_due', 'canceled', 'unpaid')),
      current_period_end timestamptz,
      updated_at timestamptz not null default now()
    )`.execute(db);

  await sql`
    create table users (
      id text primary key,
      account_id text not null references accounts (id) on delete cascade,
      role text not null check (role in ('owner', 'manager', 'viewer')),
      email text not null,
      first_name text not null,
      last_name text not null,
      password_hash text,
      auth_token_hash text unique,
      auth_token_created_at timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index users_email_key on users (lower(email))`.execute(db);
  await sql`create unique index users_one_owner_per_account on users (account_id) where role = 'owner'`.execute(
    db,
  );

  await sql`
    create table channel_accounts (
      id text primary key,
      account_id text not null references accounts (id) on delete cascade,
      channel text not null check (channel in ('airbnb', 'vrbo', 'booking', 'direct')),
      external_account_id text,
      display_name text not null,
      email text,
      connection_type text not null check (connection_type in ('api', 'ical', 'messaging_only')),
      status text not null check (status in ('connected', 'needs_reauth', 'disconnected', 'error')),
      last_sync_at timestamptz,
      last_error text,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index channel_accounts_account on channel_accounts (account_id)`.execute(db);

  await sql`
    create table listings (
      id text primary key,
      account_id text not null references accounts (id) on delete cascade,
      name text not null,
      nickname text,
      property_type text not null,
      address text not null,
      city text not null,
      region text,
      country_code char(2) not null,
      postal_code text,
      latitude numeric(9, 6),
      longitude numeric(9, 6),
      time_zone text not null,
      currency char(3) not null,
      bedrooms smallint not null check (bedrooms >= 0),
      bathrooms numeric(3, 1) not null check (bathrooms >= 0),
      max_guests smallint not null check (max_guests >= 1),
      base_price_minor integer not null check (base_price_minor >= 0),
      min_price_minor integer check (min_price_minor >= 0),
      cleaning_fee_minor integer not null default 0 check (cleaning_fee_minor >= 0),
      extra_guest_fee_minor integer not null default 0 check (extra_guest_fee_minor >= 0),
      guests_included smallint not null default 1 check (guests_included >= 1),
      tax_rate_bp integer not null default 0 check (tax_rate_bp between 0 and 10000),
      min_nights smallint not null default 1 check (min_nights >= 1),
      max_nights smallint not null default 365 check (max_nights >= min_nights),
      check_in_time smallint not null default 16 check (check_in_time between 0 and 23),
      check_out_time smallint not null default 11 check (check_out_time between 0 and 23),
      weekly_discount_pct numeric(5, 2) not null default 0 check (weekly_discount_pct between 0 and 100),
      monthly_discount_pct numeric(5, 2) not null default 0 check (monthly_discount_pct between 0 and 100),
      enabled boolean not null default false,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index listings_account on listings (account_id, name, id)`.execute(db);

  await sql`
    create table listing_channel_links (
      listing_id text not null references listings (id) on delete cascade,
      channel_account_id text not null references channel_accounts (id) on delete cascade,
      external_listing_id text not null,
      url text,
      primary key (listing_id, channel_account_id)
    )`.execute(db);

  await sql`
    create table listing_groups (
      id text primary key,
      account_id text not null references accounts (id) on delete cascade,
      name text not null,
      owner_name text,
      owner_email text,
      owner_import_token text unique,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index listing_groups_account on listing_groups (account_id)`.execute(db);

  await sql`
    create table listing_group_members (
      group_id text not null references listing_groups (id) on delete cascade,
      listing_id text not null references listings (id) on delete cascade,
      primary key (group_id, listing_id)
    )`.execute(db);
  await sql`create index listing_group_members_listing on listing_group_members (listing_id)`.execute(db);

  // Per-date settings that differ from the listing's defaults. A missing row means "use the defaults".
  await sql`
    create table calendar_days (
      listing_id text not null references listings (id) on delete cascade,
      date date not null,
      price_minor integer check (price_minor >= 0),
      min_nights smallint check (min_nights >= 1),
      closed_to_arrival boolean not null default false,
      closed_to_departure boolean not null default false,
      note text,
      updated_at timestamptz not null default now(),
      primary key (listing_id, date)
    )`.execute(db);

  await sql`
    create table calendar_channel_prices (
      listing_id text not null references listings (id) on delete cascade,
      date date not null,
      channel text not null check (channel in ('airbnb', 'vrbo', 'booking', 'direct')),
      price_minor integer not null check (price_minor >= 0),
      primary key (listing_id, date, channel)
    )`.execute(db);

  await sql`
    create table reservations (
      id text primary key,
      account_id text not null references accounts (id) on delete cascade,
      listing_id text not null references listings (id) on delete restrict,
      channel text not null check (channel in ('airbnb', 'vrbo', 'booking', 'direct')),
      channel_account_id text references channel_accounts (id) on delete set null,
      confirmation_code text not null,
      status text not null
        check (status in ('inquiry', 'pending', 'accepted', 'declined', 'expired', 'cancelled')),
      cancelled_by text check (cancelled_by in ('guest', 'host', 'channel')),
      guest_first_name text not null,
      guest_last_name text not null,
      guest_email text,
      guest_phone text,
      adults smallint not null default 1 check (adults >= 1),
      children smallint not null default 0 check (children >= 0),
      infants smallint not null default 0 check (infants >= 0),
      pets smallint not null default 0 check (pets >= 0),
      start_date date not null,
      end_date date not null,
      nights integer generated always as (end_date - start_date) stored,
      currency char(3) not null,
      accommodation_minor integer not null check (accommodation_minor >= 0),
      guest_price_minor integer not null check (guest_price_minor >= 0),
      host_payout_minor integer not null,
      check_in_time smallint check (check_in_time between 0 and 23),
      check_out_time smallint check (check_out_time between 0 and 23),
      access_code text,
      notes text,
      inquiry_at timestamptz,
      pending_at timestamptz,
      confirmed_at timestamptz,
      cancelled_at timestamptz,
      declined_at timestamptz,
      expired_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      check (end_date > start_date),
      check ((status = 'cancelled') = (cancelled_by is not null)),
      unique (account_id, channel, confirmation_code)
    )`.execute(db);
  await sql`create index reservations_account_dates on reservations (account_id, start_date, end_date)`.execute(
    db,
  );
  await sql`create index reservations_listing_dates on reservations (listing_id, start_date)`.execute(db);
  await sql`create index reservations_account_created on reservations (account_id, created_at)`.execute(db);

  // Every night a live reservation or a block takes, as one range per row. The exclusion constraint is
  // what makes a double booking impossible, whatever the number of instances or concurrent writers.
  await sql`
    create table calendar_holds (
      id text primary key,
      account_id text not null references accounts (id) on delete cascade,
      listing_id text not null references listings (id) on delete cascade,
      nights daterange not null check (not isempty(nights) and lower_inc(nights) and not upper_inc(nights)),
      kind text not null check (kind in ('reservation', 'block')),
      reservation_id text unique references reservations (id) on delete cascade,
      block_reason text check (block_reason in ('owner', 'maintenance', 'manual')),
      note text,
      created_by text,
      created_at timestamptz not null default now(),
      check ((kind = 'reservation') = (reservation_id is not null)),
      check ((kind = 'block') = (block_reason is not null)),
      constraint calendar_holds_no_overlap exclude using gist (listing_id with =, nights with &&)
    )`.execute(db);
  await sql`create index calendar_holds_account on calendar_holds (account_id, listing_id)`.execute(db);

  // Money lines of a reservation. Signed: discounts and refunds are negative.
  await sql`
    create table reservation_line_items (
      id text primary key,
      reservation_id text not null references reservations (id) on delete cascade,
      position smallint not null,
      type text not null check (type in (
        'accommodation', 'cleaning_fee', 'extra_guest_fee', 'pet_fee', 'guest_service_fee',
        'host_service_fee', 'tax', 'discount', 'other')),
      name text not null,
      amount_minor integer not null,
      paid_by text not null check (paid_by in ('guest', 'host')),
      paid_to_host boolean not null,
      unique (reservation_id, position)
    )`.execute(db);

  // The accommodation price of each night of a stay, when the channel or the quote gave one.
  await sql`
    create table reservation_nights (
      reservation_id text not null references reservations (id) on delete cascade,
      night date not null,
      accommodation_minor integer not null check (accommodation_minor >= 0),
      primary key (reservation_id, night)
    )`.execute(db);

  // Append-only history: each row is the reservation's state right after a change, so "what was on the
  // books on date X" is the latest row at or before X (booking pace).
  await sql`
    create table reservation_changes (
      id bigint generated always as identity primary key,
      reservation_id text not null references reservations (id) on delete cascade,
      account_id text not null,
      changed_at timestamptz not null,
      change text not null check (change in ('created', 'status', 'dates', 'guests', 'price', 'details')),
      status text not null,
      start_date date not null,
      end_date date not null,
      guests smallint not null,
      accommodation_minor integer not null,
      guest_price_minor integer not null,
      host_payout_minor integer not null,
      currency char(3) not null,
      diff jsonb not null default '{}'::jsonb,
      actor_user_id text,
      client_id text
    )`.execute(db);
  await sql`create index reservation_changes_reservation on reservation_changes (reservation_id, changed_at)`.execute(
    db,
  );
  await sql`create index reservation_changes_account on reservation_changes (account_id, changed_at)`.execute(
    db,
  );

  await sql`
    create table message_rules (
      id text primary key,
      account_id text not null references accounts (id) on delete cascade,
      name text not null,
      trigger text not null check (trigger in (
        'inquiry', 'booking_confirmed', 'check_in', 'during_stay', 'check_out', 'cancelled', 'review_request')),
      offset_days smallint not null default 0 check (offset_days between -60 and 60),
      send_time char(5) check (send_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
      body text not null,
      last_minute_body text,
      listing_ids text[],
      channels text[],
      paused boolean not null default false,
      paused_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index message_rules_account on message_rules (account_id)`.execute(db);

  await sql`
    create table messages (
      id text primary key,
      account_id text not null references accounts (id) on delete cascade,
      reservation_id text not null references reservations (id) on delete cascade,
      sender text not null check (sender in ('guest', 'host', 'automation', 'system')),
      body text not null,
      sent_at timestamptz not null,
      message_rule_id text references message_rules (id) on delete set null,
      author_user_id text references users (id) on delete set null,
      delivery_status text not null check (delivery_status in ('received', 'queued', 'sent', 'failed'))
    )`.execute(db);
  await sql`create index messages_reservation on messages (reservation_id, sent_at)`.execute(db);
  await sql`create index messages_account on messages (account_id, sent_at)`.execute(db);

  await sql`
    create table pricing_rules (
      id text primary key,
      account_id text not null references accounts (id) on delete cascade,
      name text not null,
      position integer not null,
      enabled boolean not null default true,
      listing_ids text[],
      adjustment_kind text not null check (adjustment_kind in ('percent', 'fixed')),
      adjustment_amount numeric(12, 2) not null,
      days_of_week smallint[],
      start_date date,
      end_date date,
      last_minute_days smallint check (last_minute_days >= 0),
      orphan_gap_max_nights smallint check (orphan_gap_max_nights >= 1),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      check (start_date is null or end_date is null or end_date >= start_date)
    )`.execute(db);
  await sql`create index pricing_rules_account on pricing_rules (account_id, position)`.execute(db);

  await sql`
    create table locks (
      id text primary key,
      account_id text not null references accounts (id) on delete cascade,
      provider text not null,
      name text not null,
      online boolean not null default true,
      battery_pct smallint check (battery_pct between 0 and 100),
      code_length smallint not null default 4 check (code_length between 4 and 10),
      created_at timestamptz not null default now()
    )`.execute(db);

  await sql`
    create table lock_listings (
      lock_id text not null references locks (id) on delete cascade,
      listing_id text not null references listings (id) on delete cascade,
      primary key (lock_id, listing_id)
    )`.execute(db);

  await sql`
    create table access_codes (
      id text primary key,
      account_id text not null references accounts (id) on delete cascade,
      reservation_id text not null references reservations (id) on delete cascade,
      lock_id text not null references locks (id) on delete cascade,
      code text not null,
      source text not null check (source in ('guest_phone', 'random', 'custom')),
      valid_from timestamptz not null,
      valid_to timestamptz not null,
      status text not null check (status in ('scheduled', 'active', 'expired', 'failed')),
      unique (reservation_id, lock_id)
    )`.execute(db);

  await sql`
    create table reviews (
      id text primary key,
      account_id text not null references accounts (id) on delete cascade,
      listing_id text not null references listings (id) on delete cascade,
      reservation_id text unique references reservations (id) on delete set null,
      channel text not null check (channel in ('airbnb', 'vrbo', 'booking', 'direct')),
      overall_rating smallint not null check (overall_rating between 1 and 5),
      cleanliness_rating smallint check (cleanliness_rating between 1 and 5),
      accuracy_rating smallint check (accuracy_rating between 1 and 5),
      check_in_rating smallint check (check_in_rating between 1 and 5),
      communication_rating smallint check (communication_rating between 1 and 5),
      location_rating smallint check (location_rating between 1 and 5),
      value_rating smallint check (value_rating between 1 and 5),
      public_text text,
      private_feedback text,
      host_response text,
      responded_at timestamptz,
      submitted_at timestamptz not null
    )`.execute(db);
  await sql`create index reviews_account on reviews (account_id, submitted_at)`.execute(db);

  // Help-centre articles are the service's own documentation, the same for every account.
  await sql`
    create table help_articles (
      id text primary key,
      slug text not null unique,
      title text not null,
      collection text not null,
      summary text not null,
      body text not null,
      updated_at timestamptz not null default now()
    )`.execute(db);

  await sql`
    create table webhook_subscriptions (
      id text primary key,
      account_id text not null references accounts (id) on delete cascade,
      url text not null,
      events text[] not null,
      secret text not null,
      active boolean not null default true,
      disabled_reason text,
      consecutive_failures integer not null default 0,
      created_at timestamptz not null default now()
    )`.execute(db);

  await sql`
    create table partner_api_keys (
      id text primary key,
      partner_name text not null,
      contact_email text,
      key_hash text not null unique,
      created_at timestamptz not null default now(),
      revoked_at timestamptz
    )`.execute(db);

  await sql`
    create table audit_log (
      id bigint generated always as identity primary key,
      account_id text not null references accounts (id) on delete cascade,
      user_id text,
      via text not null,
      client_id text,
      action text not null,
      target_type text not null,
      target_id text,
      details jsonb not null default '{}'::jsonb,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index audit_log_account on audit_log (account_id, created_at)`.execute(db);

  await sql`
    create table idempotency_keys (
      account_id text not null references accounts (id) on delete cascade,
      key text not null,
      request_fingerprint text not null,
      response_status integer not null,
      response_body jsonb not null,
      created_at timestamptz not null default now(),
      primary key (account_id, key)
    )`.execute(db);
}

/** Drops the account model. */
export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'idempotency_keys',
    'audit_log',
    'partner_api_keys',
    'webhook_subscriptions',
    'help_articles',
    'reviews',
    'access_codes',
    'lock_listings',
    'locks',
    'pricing_rules',
    'messages',
    'message_rules',
    'reservation_changes',
    'reservation_nights',
    'reservation_line_items',
    'calendar_holds',
    'reservations',
    'calendar_channel_prices',
    'calendar_days',
    'listing_group_members',
    'listing_groups',
    'listing_channel_links',
    'listings',
    'channel_accounts',
    'users',
    'subscriptions',
    'accounts',
  ]) {
    await sql`drop table if exists ${sql.table(table)}`.execute(db);
  }
}
