import { type RawBuilder, sql } from 'kysely';
import type { Executor } from '../database.ts';
import { daySeconds, hourSeconds } from './response-measure-sql.ts';

/**
 * How a response-time question counts a reply: `host`, only the host's own message; `any`, the host's or an
 * automated message sent during the wait, whichever came first.
 */
export type ReplyCounting = 'host' | 'any';

/** The reply counting of a question that does, or does not, count automated messages as answers. */
export function replyCounting(countAutomatedReplies: boolean): ReplyCounting {
  return countAutomatedReplies ? 'any' : 'host';
}

/** The response time of the wait `w` as `replies` counts it, in seconds; null while unanswered. */
export function repliedSeconds(replies: ReplyCounting): RawBuilder<number | null> {
  return replies === 'any' ? sql`least(w.response_seconds, w.automated_seconds)` : sql`w.response_seconds`;
}

/**
 * `cross join lateral` rows `d (dimension, group_key)` placing the wait `w` in its group of every small
 * dimension of the breakdown: overall (key ''), channel, stage, local hour and local weekday (as text).
 */
export const dimensionGroupsOfWait: RawBuilder<unknown> = sql`
  cross join lateral (values
    ('overall', ''), ('channel', w.channel), ('stage', w.stage), ('hour', w.local_hour::text),
    ('weekday', w.local_weekday::text)
  ) d (dimension, group_key)`;

/**
 * The counts of one bucket row over waits `w` whose response time is `r.seconds`, each wait weighing `sign`
 * (1; -1 for a wait a write took away): waits, answered, summed seconds (for the mean), answered within the
 * hour and within the day.
 */
export function bucketCountColumns(sign: RawBuilder<unknown> = sql`1`): RawBuilder<unknown> {
  return sql`
    coalesce(sum(${sign}), 0)::integer as waits,
    coalesce(sum(${sign}) filter (where r.seconds is not null), 0)::integer as answered,
    coalesce(sum(${sign} * r.seconds), 0)::bigint as total_seconds,
    coalesce(sum(${sign}) filter (where r.seconds <= ${hourSeconds}::integer), 0)::integer as within_hour,
    coalesce(sum(${sign}) filter (where r.seconds <= ${daySeconds}::integer), 0)::integer as within_day`;
}

/** The answered times, unsorted, of the waits `w` of a bucket row that `keep` selects. */
export function bucketTimes(keep: RawBuilder<unknown> = sql`true`): RawBuilder<number[]> {
  return sql`coalesce(array_agg(r.seconds) filter (where r.seconds is not null and ${keep}), '{}')`;
}

/** A wait as the buckets and listing months count it: the `guest_waits` columns they read. */
export interface BucketedWait {
  account_id: string;
  listing_id: string;
  local_date: string;
  channel: string;
  stage: string;
  local_hour: number;
  local_weekday: number;
  response_seconds: number | null;
  automated_seconds: number | null;
}

/** The columns of {@link BucketedWait}, to return from writes to `guest_waits`. */
export const bucketedWaitColumns: RawBuilder<unknown> = sql`
  account_id, listing_id, local_date, channel, stage, local_hour, local_weekday, response_seconds, automated_seconds`;

/**
 * The bucket rows of both reply countings over the signed waits `w` of `source` (a `sign` column: 1 added, -1
 * removed), by key: the signed {@link bucketCountColumns}, and the times taken away and brought in.
 */
function signedBucketRows(source: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`
    select w.account_id, r.replies, date_trunc('month', w.local_date)::date as month, d.dimension, d.group_key,
      guest_wait_bucket(r.seconds) as bucket, ${bucketCountColumns(sql`w.sign`)},
      ${bucketTimes(sql`w.sign < 0`)} as removed_times, ${bucketTimes(sql`w.sign > 0`)} as added_times
    from ${source}
    cross join lateral (values ('host', ${repliedSeconds('host')}), ('any', ${repliedSeconds('any')})) r (replies, seconds)
    ${dimensionGroupsOfWait}
    group by w.account_id, r.replies, date_trunc('month', w.local_date)::date, d.dimension, d.group_key,
      guest_wait_bucket(r.seconds)`;
}

/**
 * The limits of `listing_wait_months`' answered-within counts (`within_60` … `within_122880`), in seconds:
 * a minute, doubling up to 34 hours. Summed over a listing's months they say between which two limits its
 * median lies.
 */
export const listingWithinSeconds = [
  60, 120, 240, 480, 960, 1920, 3840, 7680, 15360, 30720, 61440, 122880,
] as const;

/** The column of `listing_wait_months` counting the waits answered within `seconds`. */
export function listingWithinColumn(seconds: (typeof listingWithinSeconds)[number]): string {
  return `within_${seconds}`;
}

const listingWithinColumns = listingWithinSeconds.map((seconds) => sql.ref(listingWithinColumn(seconds)));

/**
 * The answered-within counts of `listing_wait_months` over waits `w` whose response time is `r.seconds`, each
 * wait weighing `sign`, in the order of {@link listingWithinSeconds}.
 */
export function listingWithinCounts(sign: RawBuilder<unknown> = sql`1`): RawBuilder<unknown> {
  return sql.join(
    listingWithinSeconds.map(
      (seconds) =>
        sql`coalesce(sum(${sign}) filter (where r.seconds <= ${sql.lit(seconds)}), 0)::integer as ${sql.ref(listingWithinColumn(seconds))}`,
    ),
  );
}

/**
 * The `listing_wait_months` rows of both reply countings over the signed waits `w` of `source`, as
 * {@link signedBucketRows} gives the buckets': one per account, reply counting, month and listing.
 */
function signedListingMonthRows(source: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`
    select w.account_id, r.replies, date_trunc('month', w.local_date)::date as month, w.listing_id,
      ${bucketCountColumns(sql`w.sign`)}, ${listingWithinCounts(sql`w.sign`)},
      ${bucketTimes(sql`w.sign < 0`)} as removed_times, ${bucketTimes(sql`w.sign > 0`)} as added_times
    from ${source}
    cross join lateral (values ('host', ${repliedSeconds('host')}), ('any', ${repliedSeconds('any')})) r (replies, seconds)
    group by w.account_id, r.replies, date_trunc('month', w.local_date)::date, w.listing_id`;
}

const listingMonthColumns = sql`
  (account_id, replies, month, listing_id, waits, answered, total_seconds, within_hour, within_day,
   ${sql.join(listingWithinColumns)}, times)`;

const bucketColumns = sql`
  (account_id, replies, month, dimension, group_key, bucket, waits, answered, total_seconds, within_hour,
   within_day, times)`;

/** Rebuilds every `guest_wait_buckets` and `listing_wait_months` row of one account from its `guest_waits`. */
export async function rebuildGuestWaitBuckets(trx: Executor, accountId: string): Promise<void> {
  await sql`delete from guest_wait_buckets where account_id = ${accountId}`.execute(trx);
  await sql`
    insert into guest_wait_buckets ${bucketColumns}
    select m.account_id, m.replies, m.month, m.dimension, m.group_key, m.bucket, m.waits, m.answered,
      m.total_seconds, m.within_hour, m.within_day, m.added_times
    from (${signedBucketRows(sql`(select g.*, 1 as sign from guest_waits g where g.account_id = ${accountId}) w`)}) m`.execute(
    trx,
  );
  await sql`delete from listing_wait_months where account_id = ${accountId}`.execute(trx);
  await sql`
    insert into listing_wait_months ${listingMonthColumns}
    select m.account_id, m.replies, m.month, m.listing_id, m.waits, m.answered, m.total_seconds, m.within_hour,
      m.within_day, ${sql.join(listingWithinColumns.map((column) => sql`m.${column}`))}, m.added_times
    from (${signedListingMonthRows(sql`(select g.*, 1 as sign from guest_waits g where g.account_id = ${accountId}) w`)}) m
    -- In key order, so that a month's rows share pages (a year is then a sixth of them to read).
    order by m.replies, m.month, m.listing_id`.execute(trx);
}

/**
 * Moves the buckets and the listing months by a write to `guest_waits`: out of the `removed` waits, into the
 * `added` ones. Call it once in the transaction of the write. A wait rewritten unchanged (most of a
 * thread's, as each message rewrites the whole thread's waits) moves nothing.
 *
 * The waits of an account's month share rows (every group spans all of its listings), so two
 * writers of one account taking rows in the order their statements reach them could each hold one the other
 * waits for. So the rows are first locked in key order, missing ones created empty, before any of them moves;
 * every writer takes the buckets' rows before the listing months'.
 */
export async function moveGuestWaitBuckets(
  trx: Executor,
  removed: readonly BucketedWait[],
  added: readonly BucketedWait[],
): Promise<void> {
  const moved = netMoves(removed, added);
  if (moved.length === 0) return;
  const movedWaits = sql`
    jsonb_to_recordset(${JSON.stringify(moved)}::jsonb) as w (
      sign integer, account_id text, listing_id text, local_date date, channel text, stage text, local_hour smallint,
      local_weekday smallint, response_seconds integer, automated_seconds integer)`;
  await sql`
    insert into guest_wait_buckets as b ${bucketColumns}
    select m.account_id, m.replies, m.month, m.dimension, m.group_key, m.bucket, 0, 0, 0, 0, 0, '{}'
    from (${signedBucketRows(movedWaits)}) m
    order by m.account_id, m.replies, m.month, m.dimension, m.group_key, m.bucket
    on conflict (account_id, replies, month, dimension, group_key, bucket) do update set waits = b.waits`.execute(
    trx,
  );
  await sql`
    update guest_wait_buckets b set
      waits = b.waits + m.waits,
      answered = b.answered + m.answered,
      total_seconds = b.total_seconds + m.total_seconds,
      within_hour = b.within_hour + m.within_hour,
      within_day = b.within_day + m.within_day,
      -- A multiset difference: each removed time takes out one equal time, not all of them.
      times = case when cardinality(m.removed_times) = 0 then b.times
        else array(select t from unnest(b.times) t except all select t from unnest(m.removed_times) t) end
        || m.added_times
    from (${signedBucketRows(movedWaits)}) m
    where b.account_id = m.account_id and b.replies = m.replies and b.month = m.month
      and b.dimension = m.dimension and b.group_key = m.group_key and b.bucket = m.bucket`.execute(trx);
  await sql`
    insert into listing_wait_months as l ${listingMonthColumns}
    select m.account_id, m.replies, m.month, m.listing_id, 0, 0, 0, 0, 0,
      ${sql.join(listingWithinColumns.map(() => sql`0`))}, '{}'
    from (${signedListingMonthRows(movedWaits)}) m
    order by m.account_id, m.replies, m.month, m.listing_id
    on conflict (account_id, replies, month, listing_id) do update set waits = l.waits`.execute(trx);
  await sql`
    update listing_wait_months l set
      waits = l.waits + m.waits,
      answered = l.answered + m.answered,
      total_seconds = l.total_seconds + m.total_seconds,
      within_hour = l.within_hour + m.within_hour,
      within_day = l.within_day + m.within_day,
      ${sql.join(listingWithinColumns.map((column) => sql`${column} = l.${column} + m.${column}`))},
      times = case when cardinality(m.removed_times) = 0 then l.times
        else array(select t from unnest(l.times) t except all select t from unnest(m.removed_times) t) end
        || m.added_times
    from (${signedListingMonthRows(movedWaits)}) m
    where l.account_id = m.account_id and l.replies = m.replies and l.month = m.month
      and l.listing_id = m.listing_id`.execute(trx);
}

/** The waits that really moved, signed: a removed wait equal to an added one cancels out with it. */
function netMoves(
  removed: readonly BucketedWait[],
  added: readonly BucketedWait[],
): (BucketedWait & { sign: 1 | -1 })[] {
  const keyOf = (wait: BucketedWait) =>
    JSON.stringify([
      wait.account_id,
      wait.listing_id,
      wait.local_date,
      wait.channel,
      wait.stage,
      wait.local_hour,
      wait.local_weekday,
      wait.response_seconds,
      wait.automated_seconds,
    ]);
  const unmatched = new Map<string, BucketedWait[]>();
  for (const wait of removed) {
    const key = keyOf(wait);
    unmatched.set(key, [...(unmatched.get(key) ?? []), wait]);
  }
  const moves: (BucketedWait & { sign: 1 | -1 })[] = [];
  for (const wait of added) {
    const same = unmatched.get(keyOf(wait));
    if (same !== undefined && same.length > 0) same.pop();
    else moves.push({ ...wait, sign: 1 });
  }
  for (const waits of unmatched.values()) for (const wait of waits) moves.push({ ...wait, sign: -1 });
  return moves;
}
