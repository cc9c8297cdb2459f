import { newId } from '@innkeep/domain';
import { type Kysely, sql } from 'kysely';
import type { Database, Executor } from '../../src/database.ts';

/** A gap as tests compare them: listing, its account, first open night, next held night. */
export type GapRow = [listingId: string, accountId: string, startDate: string, endDate: string];

/**
 * Every gap between two holds recomputed from `calendar_holds` alone, with its listing's account, in listing
 * and date order: what the derived gap tables must hold after any write.
 */
export async function gapsFromHolds(db: Kysely<Database>): Promise<GapRow[]> {
  const { rows } = await sql<{
    listing_id: string;
    account_id: string;
    start_date: string;
    end_date: string;
  }>`
    select g.listing_id, l.account_id, g.start_date::text, g.end_date::text
    from (
      select listing_id, upper(nights) as start_date,
        lead(lower(nights)) over (partition by listing_id order by lower(nights)) as end_date
      from calendar_holds
    ) g
    join listings l on l.id = g.listing_id
    where g.end_date > g.start_date
    order by g.listing_id, g.start_date`.execute(db);
  return rows.map((row) => [row.listing_id, row.account_id, row.start_date, row.end_date]);
}

/** How many of `blocks` (first night, night after the last) fall inside `period`, both ends included. */
export function blockedNightsIn(
  blocks: readonly (readonly [string, string])[],
  period: { startDate: string; endDate: string },
): number {
  const day = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;
  const first = day(period.startDate);
  const after = day(period.endDate) + 1;
  return blocks.reduce(
    (sum, [startDate, endDate]) =>
      sum + Math.max(0, Math.min(after, day(endDate)) - Math.max(first, day(startDate))),
    0,
  );
}

/** Inserts an owner block of `accountId` on `listingId` from `startDate` up to `endDate`; returns its id. */
export async function insertOwnerBlock(
  executor: Executor,
  accountId: string,
  listingId: string,
  startDate: string,
  endDate: string,
): Promise<string> {
  const id = newId('block');
  await executor
    .insertInto('calendar_holds')
    .values({
      id,
      account_id: accountId,
      listing_id: listingId,
      nights: `[${startDate},${endDate})`,
      kind: 'block',
      block_reason: 'owner',
    })
    .execute();
  return id;
}
