import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports no application types and is never edited once released.

/**
 * `guest_wait_buckets`: the response times of `guest_waits` per account, calendar month (of the guest's
 * listing-local date), way of counting a reply (`host`: the host's own; `any`: the host's or an automated
 * message, whichever came first), dimension group (overall, a channel, a stage, a local hour, a local
 * weekday) and time bucket, with the counts and sums of the group's measures and the bucket's times
 * unsorted in `times`.
 *
 * A year of a large portfolio's response-time breakdown needed its hundred thousand answered times sorted
 * once per dimension to find each group's median and 90th percentile. With the times bucketed, the counts
 * of whole months say which bucket holds each percentile and at which rank, and only those buckets' times
 * are sorted. `guest_wait_bucket` numbers the buckets: 0 below 30 seconds, then each about 15% wider than
 * the last up to 6 days, 71 beyond; unanswered waits are bucket -1, with no times.
 *
 * It is moved by the same writes as `guest_waits`, in the same transaction (`guest-wait-buckets.ts`), and
 * starts as their sum.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function guest_wait_bucket(seconds integer) returns smallint
    language sql immutable parallel safe
    as $$
      select coalesce(width_bucket(seconds, '{30,34,40,46,52,60,69,80,92,106,121,140,161,185,212,244,281,323,371,
        427,491,565,649,747,859,988,1136,1306,1502,1727,1986,2284,2627,3021,3474,3995,4595,5284,6076,6988,8036,
        9241,10627,12222,14055,16163,18588,21376,24582,28269,32510,37386,42994,49443,56860,65389,75197,86477,
        99448,114365,131520,151248,173935,200025,230029,264534,304214,349846,402323,462671,532072}'::integer[]),
        -1)::smallint
    $$`.execute(db);
  await sql`
    create table guest_wait_buckets (
      account_id text not null,
      replies text collate "C" not null check (replies in ('host', 'any')),
      month date not null,
      dimension text collate "C" not null check (dimension in ('overall', 'channel', 'stage', 'hour', 'weekday')),
      group_key text collate "C" not null,
      bucket smallint not null,
      waits integer not null,
      answered integer not null,
      total_seconds bigint not null,
      within_hour integer not null,
      within_day integer not null,
      times integer[] not null,
      primary key (account_id, replies, month, dimension, group_key, bucket)
    )`.execute(db);
  await sql`
    insert into guest_wait_buckets
      (account_id, replies, month, dimension, group_key, bucket, waits, answered, total_seconds, within_hour,
       within_day, times)
    select w.account_id, r.replies, date_trunc('month', w.local_date)::date, d.dimension, d.group_key,
      guest_wait_bucket(r.seconds), count(*), count(r.seconds), coalesce(sum(r.seconds), 0),
      count(*) filter (where r.seconds <= 3600), count(*) filter (where r.seconds <= 86400),
      coalesce(array_agg(r.seconds) filter (where r.seconds is not null), '{}')
    from guest_waits w
    cross join lateral (values
      ('host', w.response_seconds), ('any', least(w.response_seconds, w.automated_seconds))
    ) r (replies, seconds)
    cross join lateral (values
      ('overall', ''), ('channel', w.channel), ('stage', w.stage), ('hour', w.local_hour::text),
      ('weekday', w.local_weekday::text)
    ) d (dimension, group_key)
    group by w.account_id, r.replies, date_trunc('month', w.local_date)::date, d.dimension, d.group_key,
      guest_wait_bucket(r.seconds)`.execute(db);
}

/** Drops the buckets and their numbering. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists guest_wait_buckets`.execute(db);
  await sql`drop function if exists guest_wait_bucket(integer)`.execute(db);
}
