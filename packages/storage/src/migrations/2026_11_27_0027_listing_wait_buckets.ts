import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports no application types and is never edited once released. The backfill
// below counts the waits as they stand when it runs; `guest-wait-buckets.ts` moves the rows from then on, in
// the transaction of every write to `guest_waits`.

/** The limits of the answered-within counts, in seconds: a minute, doubling up to 34 hours. */
const withinSeconds = [60, 120, 240, 480, 960, 1920, 3840, 7680, 15360, 30720, 61440, 122880];

/**
 * `listing_wait_months`: the response times of `guest_waits` per account, way of counting a reply (`host`:
 * the host's own; `any`: the host's or an automated message, whichever came first), calendar month (of the
 * guest's listing-local date) and listing, with the counts and sums of the listing's measures, how many of
 * its waits were answered within each of the doubling limits `within_60` … `within_122880` (seconds), and
 * its answered times unsorted in `times`.
 *
 * The response-time breakdown ranks every listing by its median and shows the slowest few. A year of a
 * 2,000-listing portfolio is about 137,000 waits, which the ranking read, gathered and sorted on every call,
 * listing by listing. A year of these rows is 24,000, and their summed answered-within counts say between
 * which two limits each listing's median lies; only the listings whose median may reach the slowest few need
 * their times sorted (`wait_times_concat` gathers a listing's times in the same pass). The times are kept
 * whole rather than bucketed: a listing's month holds a handful of waits, so a bucket of them would hold
 * about one.
 *
 * It is moved beside `guest_wait_buckets` by the same writes as `guest_waits` (`guest-wait-buckets.ts`), in
 * their transaction, and starts as their sum.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Concatenates a listing's months' times in the pass that sums their counts.
  await sql`
    create aggregate wait_times_concat(integer[]) (sfunc = array_cat, stype = integer[], initcond = '{}')`.execute(
    db,
  );
  const withinColumns = withinSeconds.map((seconds) => sql.raw(`within_${seconds}`));
  await sql`
    create table listing_wait_months (
      account_id text not null,
      replies text collate "C" not null check (replies in ('host', 'any')),
      month date not null,
      listing_id text collate "C" not null,
      waits integer not null,
      answered integer not null,
      total_seconds bigint not null,
      within_hour integer not null,
      within_day integer not null,
      ${sql.join(withinColumns.map((column) => sql`${column} integer not null`))},
      times integer[] not null,
      primary key (account_id, replies, month, listing_id)
    )`.execute(db);
  await sql`
    insert into listing_wait_months
      (account_id, replies, month, listing_id, waits, answered, total_seconds, within_hour, within_day,
       ${sql.join(withinColumns)}, times)
    select w.account_id, r.replies, date_trunc('month', w.local_date)::date, w.listing_id, count(*),
      count(r.seconds), coalesce(sum(r.seconds), 0), count(*) filter (where r.seconds <= 3600),
      count(*) filter (where r.seconds <= 86400),
      ${sql.join(withinSeconds.map((seconds) => sql`count(*) filter (where r.seconds <= ${sql.lit(seconds)})`))},
      coalesce(array_agg(r.seconds) filter (where r.seconds is not null), '{}')
    from guest_waits w
    cross join lateral (values
      ('host', w.response_seconds), ('any', least(w.response_seconds, w.automated_seconds))
    ) r (replies, seconds)
    group by w.account_id, r.replies, date_trunc('month', w.local_date)::date, w.listing_id
    -- In key order, so that a month's rows share pages: a year of a large account then reads a sixth of them.
    order by w.account_id, r.replies, date_trunc('month', w.local_date)::date, w.listing_id`.execute(db);
}

/** Drops the listing months and their aggregate. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists listing_wait_months`.execute(db);
  await sql`drop aggregate if exists wait_times_concat(integer[])`.execute(db);
}
