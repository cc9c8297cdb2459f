import {
  type AccessCodeSource,
  type AccessCodeStatus,
  accessCodeStatusAt,
  decodeCursor,
  type Lock,
  type LockUseCases,
  listAccessCodesInputSchema,
  listLocksInputSchema,
  notFound,
  parseInput,
  toPage,
} from '@innkeep/domain';
import type { Selectable } from 'kysely';
import type { Executor, LocksTable } from '../database.ts';
import type { StoreDeps } from '../store-deps.ts';

/** Smart-lock use cases over PostgreSQL. */
export function createLockUseCases({ db, clock }: StoreDeps): LockUseCases {
  return {
    async list(actor, rawInput) {
      const input = parseInput(listLocksInputSchema, rawInput);
      let query = db.selectFrom('locks').selectAll().where('account_id', '=', actor.accountId);
      if (input.cursor !== undefined) {
        const [name, id] = decodeCursor(input.cursor, 2);
        query = query.where((eb) => eb(eb.refTuple('name', 'id'), '>', eb.tuple(String(name), String(id))));
      }
      const rows = await query
        .orderBy('name')
        .orderBy('id')
        .limit(input.limit + 1)
        .execute();
      const listings = await loadLockListings(
        db,
        rows.slice(0, input.limit).map((row) => row.id),
      );
      return toPage(
        rows,
        input.limit,
        (row) => toLock(row, listings.get(row.id) ?? []),
        (row) => [row.name, row.id],
      );
    },

    async get(actor, lockId) {
      const row = await db
        .selectFrom('locks')
        .selectAll()
        .where('id', '=', lockId)
        .where('account_id', '=', actor.accountId)
        .executeTakeFirst();
      if (!row) throw notFound('lock', lockId);
      const listings = await loadLockListings(db, [row.id]);
      return toLock(row, listings.get(row.id) ?? []);
    },

    async listAccessCodes(actor, rawInput) {
      const { reservationId } = parseInput(listAccessCodesInputSchema, rawInput);
      const reservation = await db
        .selectFrom('reservations')
        .select('id')
        .where('id', '=', reservationId)
        .where('account_id', '=', actor.accountId)
        .executeTakeFirst();
      if (!reservation) throw notFound('reservation', reservationId);
      const rows = await db
        .selectFrom('access_codes')
        .innerJoin('locks', 'locks.id', 'access_codes.lock_id')
        .selectAll('access_codes')
        .select('locks.name as lock_name')
        .where('access_codes.reservation_id', '=', reservation.id)
        .where('access_codes.account_id', '=', actor.accountId)
        .orderBy('locks.name')
        .orderBy('access_codes.id')
        .execute();
      const now = clock.now();
      return rows.map((row) => ({
        id: row.id,
        reservationId: row.reservation_id,
        lockId: row.lock_id,
        lockName: row.lock_name,
        code: row.code,
        source: row.source as AccessCodeSource,
        validFrom: row.valid_from.toISOString(),
        validTo: row.valid_to.toISOString(),
        status: accessCodeStatusAt(row.status as AccessCodeStatus, row.valid_from, row.valid_to, now),
      }));
    },
  };
}

async function loadLockListings(db: Executor, lockIds: readonly string[]): Promise<Map<string, string[]>> {
  const listings = new Map<string, string[]>();
  if (lockIds.length === 0) return listings;
  const rows = await db
    .selectFrom('lock_listings')
    .select(['lock_id', 'listing_id'])
    .where('lock_id', 'in', lockIds)
    .orderBy('listing_id')
    .execute();
  for (const { lock_id, listing_id } of rows) {
    const list = listings.get(lock_id);
    if (list) list.push(listing_id);
    else listings.set(lock_id, [listing_id]);
  }
  return listings;
}

function toLock(row: Selectable<LocksTable>, listingIds: string[]): Lock {
  return {
    id: row.id,
    name: row.name,
    provider: row.provider,
    listingIds,
    online: row.online,
    batteryPct: row.battery_pct,
    codeLength: row.code_length,
    createdAt: row.created_at.toISOString(),
  };
}
