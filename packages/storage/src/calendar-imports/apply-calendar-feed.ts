import {
  type AppliedCalendarImport,
  addDays,
  type CalendarImportConflict,
  type Channel,
  type FeedStay,
  type HoldKind,
  type LocalDate,
  maxDate,
  minDate,
  newId,
  type WebhookEventRecord,
} from '@innkeep/domain';
import { sql } from 'kysely';
import type { Executor } from '../database.ts';
import { recordEvents } from '../webhooks/record-event.ts';

/** A reservation or block that holds some of the nights a feed stay asks for. */
type Clash = CalendarImportConflict['clashes'][number];

/** The channel link whose feed is applied, as its transaction has locked it. */
export interface ImportingLink {
  readonly accountId: string;
  readonly listingId: string;
  readonly channelAccountId: string;
  readonly channel: Channel;
  /**
   * The listing's today. Only holds still to come are compared with the feed: feeds (and the poller) drop
   * stays that have ended, and a stay that has ended stays held here, as the history analytics count.
   */
  readonly today: LocalDate;
}

/** A hold of the listing as the feed is compared with it. */
interface HeldNights {
  readonly id: string;
  readonly startDate: LocalDate;
  readonly endDate: LocalDate;
  readonly kind: HoldKind;
  readonly reservationId: string | null;
  /** The feed event's UID when the hold is one of this link's stays, else null. */
  readonly importUid: string | null;
}

/**
 * Writes a feed's stays as the link's `channel` holds, in the caller's transaction, which must hold the
 * listing's lock (the one reservations and blocks are written under) so no other hold lands in between.
 *
 * A held stay whose nights are unchanged stays; one whose nights changed is moved; a new UID is held; a stay
 * gone from the feed is released. A stay whose nights clash with any hold that is not this link's (a
 * reservation, a host block, another channel's stay, or a stay of the same feed already held) is not written:
 * it is an open conflict, and its old hold, if any, is released, since the feed says those nights are no
 * longer the stay's. A conflict first seen now (or whose nights changed) is announced once; `calendar.updated`
 * spans the nights whose holds changed.
 */
export async function applyCalendarFeed(
  trx: Executor,
  link: ImportingLink,
  stays: readonly FeedStay[],
  now: Date,
): Promise<AppliedCalendarImport> {
  const feed = firstOfEachUid(stays);
  const ownHolds = await selectOwnHolds(trx, link);
  const ownByUid = new Map(ownHolds.map((hold) => [hold.importUid ?? '', hold]));

  // Held stays whose nights are unchanged take their nights first: a stay of the feed that overlaps one of
  // them clashes with it rather than the other way round.
  const kept = feed.filter((stay) => {
    const held = ownByUid.get(stay.uid);
    return held !== undefined && held.startDate === stay.startDate && held.endDate === stay.endDate;
  });
  const keptUids = new Set(kept.map((stay) => stay.uid));
  // Moved stays leave their old nights before any stay is written, so two stays that swap nights never
  // overlap at any moment.
  const leaving = ownHolds.filter((hold) => !keptUids.has(hold.importUid ?? ''));
  if (leaving.length > 0) {
    await trx
      .deleteFrom('calendar_holds')
      .where(
        'id',
        'in',
        leaving.map((hold) => hold.id),
      )
      .execute();
  }

  const toPlace = feed
    .filter((stay) => !keptUids.has(stay.uid))
    .sort((a, b) => a.startDate.localeCompare(b.startDate) || a.uid.localeCompare(b.uid));
  const otherHolds = await selectOtherHolds(trx, link, toPlace);
  const taken: HeldNights[] = [...otherHolds, ...kept.map(feedHold)];
  const placed: FeedStay[] = [];
  const conflicts: { stay: FeedStay; clashes: Clash[] }[] = [];
  for (const stay of toPlace) {
    const clashes = taken.filter((hold) => hold.startDate < stay.endDate && stay.startDate < hold.endDate);
    if (clashes.length > 0) {
      conflicts.push({ stay, clashes: clashes.map(toClash) });
      continue;
    }
    placed.push(stay);
    taken.push(feedHold(stay));
  }
  if (placed.length > 0) {
    await retireEndedUids(trx, link, placed);
    await trx
      .insertInto('calendar_holds')
      .values(
        placed.map((stay) => ({
          // A moved stay keeps its hold's id, which its export UID is made of: channels reading this calendar
          // see the stay move, not one end and another begin.
          id: ownByUid.get(stay.uid)?.id ?? newId('block'),
          account_id: link.accountId,
          listing_id: link.listingId,
          nights: `[${stay.startDate},${stay.endDate})`,
          kind: 'block',
          reservation_id: null,
          block_reason: 'channel',
          note: stay.summary?.trim() || null,
          created_by: null,
          channel_account_id: link.channelAccountId,
          import_uid: stay.uid,
        })),
      )
      .execute();
  }

  const newConflicts = await recordConflicts(trx, link, conflicts, now);
  const changedNights = [...leaving, ...placed];
  await recordCalendarUpdated(trx, link, changedNights);
  const moved = placed.filter((stay) => ownByUid.has(stay.uid)).length;
  return {
    added: placed.length - moved,
    moved,
    // Gone from the feed, or moved onto nights that clash: either way their nights are free now.
    released: leaving.length - moved,
    conflicts: conflicts.length,
    newConflicts,
  };
}

/**
 * Frees the nights still to come that the link's feed held and drops its open conflicts, in the caller's
 * transaction: the link no longer imports. Stays that have ended stay held, as history. Records
 * `calendar.updated` over the freed nights, if any.
 */
export async function releaseCalendarImport(trx: Executor, link: ImportingLink): Promise<void> {
  const released = await trx
    .deleteFrom('calendar_holds')
    .where('listing_id', '=', link.listingId)
    .where('channel_account_id', '=', link.channelAccountId)
    .where(sql<boolean>`upper(nights) > ${link.today}::date`)
    .returning([
      sql<string>`to_char(lower(nights), 'YYYY-MM-DD')`.as('start_date'),
      sql<string>`to_char(upper(nights), 'YYYY-MM-DD')`.as('end_date'),
    ])
    .execute();
  await trx
    .deleteFrom('calendar_import_conflicts')
    .where('listing_id', '=', link.listingId)
    .where('channel_account_id', '=', link.channelAccountId)
    .execute();
  await recordCalendarUpdated(
    trx,
    link,
    released.map((row) => ({ startDate: row.start_date, endDate: row.end_date })),
  );
}

/**
 * Renames the UID of any stay of the link that has ended and whose UID a stay of the feed now uses, to the UID
 * and its check-out day: the ended stay stays held, as history, and the new one can be held under the UID (a
 * link's UIDs are unique). Channels give each stay its own UID, so this is for a feed that reuses one.
 */
async function retireEndedUids(
  trx: Executor,
  link: ImportingLink,
  stays: readonly FeedStay[],
): Promise<void> {
  await trx
    .updateTable('calendar_holds')
    .set({ import_uid: sql<string>`import_uid || ' (ended ' || to_char(upper(nights), 'YYYY-MM-DD') || ')'` })
    .where('listing_id', '=', link.listingId)
    .where('channel_account_id', '=', link.channelAccountId)
    .where(sql<boolean>`upper(nights) <= ${link.today}::date`)
    .where(
      'import_uid',
      'in',
      stays.map((stay) => stay.uid),
    )
    .execute();
}

/** The first stay of each UID: a feed that repeats a UID is read as its first event. */
function firstOfEachUid(stays: readonly FeedStay[]): FeedStay[] {
  const byUid = new Map<string, FeedStay>();
  for (const stay of stays) if (!byUid.has(stay.uid)) byUid.set(stay.uid, stay);
  return [...byUid.values()];
}

/** A stay of the feed as the hold it becomes, for the clash checks of the stays after it. */
function feedHold(stay: FeedStay): HeldNights {
  return {
    id: '',
    startDate: stay.startDate,
    endDate: stay.endDate,
    kind: 'block',
    reservationId: null,
    importUid: stay.uid,
  };
}

function toClash(hold: HeldNights): Clash {
  return {
    startDate: hold.startDate,
    endDate: hold.endDate,
    kind: hold.kind,
    reservationId: hold.reservationId,
  };
}

/** This link's own holds of the listing. */
async function selectOwnHolds(trx: Executor, link: ImportingLink): Promise<HeldNights[]> {
  const rows = await holdColumns(trx)
    .where('listing_id', '=', link.listingId)
    .where('channel_account_id', '=', link.channelAccountId)
    .where(sql<boolean>`upper(nights) > ${link.today}::date`)
    .execute();
  return rows.map(toHeldNights);
}

/** The listing's holds that are not this link's and take any night of `stays`. */
async function selectOtherHolds(
  trx: Executor,
  link: ImportingLink,
  stays: readonly FeedStay[],
): Promise<HeldNights[]> {
  if (stays.length === 0) return [];
  const from = stays.map((stay) => stay.startDate).reduce(minDate);
  const to = stays.map((stay) => stay.endDate).reduce(maxDate);
  const rows = await holdColumns(trx)
    .where('listing_id', '=', link.listingId)
    .where((eb) =>
      eb.or([eb('channel_account_id', 'is', null), eb('channel_account_id', '!=', link.channelAccountId)]),
    )
    .where(sql<boolean>`nights && daterange(${from}::date, ${to}::date, '[)')`)
    .execute();
  return rows.map(toHeldNights);
}

function holdColumns(trx: Executor) {
  return trx
    .selectFrom('calendar_holds')
    .select([
      'id',
      'kind',
      'reservation_id',
      'import_uid',
      sql<string>`to_char(lower(nights), 'YYYY-MM-DD')`.as('start_date'),
      sql<string>`to_char(upper(nights), 'YYYY-MM-DD')`.as('end_date'),
    ])
    .orderBy(sql`lower(nights)`);
}

function toHeldNights(row: {
  id: string;
  kind: string;
  reservation_id: string | null;
  import_uid: string | null;
  start_date: string;
  end_date: string;
}): HeldNights {
  return {
    id: row.id,
    startDate: row.start_date,
    endDate: row.end_date,
    kind: row.kind as HoldKind,
    reservationId: row.reservation_id,
    importUid: row.import_uid,
  };
}

/**
 * Makes the link's open conflicts exactly `conflicts`: rows of UIDs that no longer clash go; a conflict seen
 * before with the same nights keeps its first sighting (its clashes and summary refreshed) and is not announced
 * again; a new one, or one whose nights changed, is stamped `now` and announced. Returns how many were new.
 */
async function recordConflicts(
  trx: Executor,
  link: ImportingLink,
  conflicts: readonly { stay: FeedStay; clashes: Clash[] }[],
  now: Date,
): Promise<number> {
  const existing = await trx
    .selectFrom('calendar_import_conflicts')
    .select([
      'event_uid',
      sql<string>`to_char(start_date, 'YYYY-MM-DD')`.as('start_date'),
      sql<string>`to_char(end_date, 'YYYY-MM-DD')`.as('end_date'),
    ])
    .where('listing_id', '=', link.listingId)
    .where('channel_account_id', '=', link.channelAccountId)
    .execute();
  const seen = new Map(existing.map((row) => [row.event_uid, row]));
  const openUids = new Set(conflicts.map(({ stay }) => stay.uid));
  const resolved = existing.filter((row) => !openUids.has(row.event_uid)).map((row) => row.event_uid);
  if (resolved.length > 0) {
    await trx
      .deleteFrom('calendar_import_conflicts')
      .where('listing_id', '=', link.listingId)
      .where('channel_account_id', '=', link.channelAccountId)
      .where('event_uid', 'in', resolved)
      .execute();
  }
  if (conflicts.length === 0) return 0;

  const announced: WebhookEventRecord[] = [];
  const rows = conflicts.map(({ stay, clashes }) => {
    const before = seen.get(stay.uid);
    const isNew =
      before === undefined || before.start_date !== stay.startDate || before.end_date !== stay.endDate;
    if (isNew) {
      announced.push({
        accountId: link.accountId,
        event: 'calendar.import_conflict',
        data: {
          listingId: link.listingId,
          channelAccountId: link.channelAccountId,
          channel: link.channel,
          eventUid: stay.uid,
          startDate: stay.startDate,
          endDate: stay.endDate,
          clashes,
        },
      });
    }
    return {
      account_id: link.accountId,
      listing_id: link.listingId,
      channel_account_id: link.channelAccountId,
      event_uid: stay.uid,
      start_date: stay.startDate,
      end_date: stay.endDate,
      summary: stay.summary?.trim() || null,
      clashes: JSON.stringify(clashes),
      first_seen_at: now,
      isNew,
    };
  });
  await trx
    .insertInto('calendar_import_conflicts')
    .values(rows.map(({ isNew: _isNew, ...row }) => row))
    .onConflict((conflict) =>
      conflict.columns(['listing_id', 'channel_account_id', 'event_uid']).doUpdateSet((eb) => ({
        start_date: eb.ref('excluded.start_date'),
        end_date: eb.ref('excluded.end_date'),
        summary: eb.ref('excluded.summary'),
        clashes: eb.ref('excluded.clashes'),
        // A conflict whose nights moved is a new clash, seen now; one that stayed keeps its first sighting.
        first_seen_at: sql`case when calendar_import_conflicts.start_date = excluded.start_date
          and calendar_import_conflicts.end_date = excluded.end_date
          then calendar_import_conflicts.first_seen_at else excluded.first_seen_at end`,
      })),
    )
    .execute();
  await recordEvents(trx, announced);
  return announced.length;
}

/** Records `calendar.updated` (availability) spanning `changed` holds' nights; nothing when none changed. */
async function recordCalendarUpdated(
  trx: Executor,
  link: ImportingLink,
  changed: readonly { readonly startDate: LocalDate; readonly endDate: LocalDate }[],
): Promise<void> {
  if (changed.length === 0) return;
  const startDate = changed.map((nights) => nights.startDate).reduce(minDate);
  const afterLast = changed.map((nights) => nights.endDate).reduce(maxDate);
  await recordEvents(trx, [
    {
      accountId: link.accountId,
      event: 'calendar.updated',
      // The event names the last night changed, not the check-out day.
      data: {
        listingId: link.listingId,
        startDate,
        endDate: addDays(afterLast, -1),
        change: 'availability',
      },
    },
  ]);
}
