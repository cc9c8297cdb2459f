import { unknownTemplateVariables, verifyPassword } from '@innkeep/domain';
import type { Database, DatabaseHandle } from '@innkeep/storage';
import { openTestDatabase, testDatabaseKinds } from '@innkeep/storage/testing';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoLogin } from '../src/demo-login.ts';
import { demoTables } from '../src/demo-writer.ts';
import {
  type DemoProgress,
  type DemoSummary,
  demoExtraLogins,
  hasDemoAccount,
  seedDemoData,
} from '../src/seed-demo-data.ts';

const today = '2026-11-21';
// The generator's "now": 18:00 UTC on today, which is today in every demo time zone.
const now = '2026-11-21T18:00:00Z';

/**
 * One count and one md5 over every row of every table, rows ordered by their text; password hashes and
 * calendar export tokens (secrets PostgreSQL draws at random) left out.
 */
async function digestAll(db: Kysely<Database>): Promise<Record<string, string>> {
  const digests: Record<string, string> = {};
  for (const table of demoTables) {
    const { rows } = await sql<{ n: number; digest: string }>`
      select count(*)::int as n, md5(coalesce(string_agg(x, E'\\n' order by x), '')) as digest
      from (select (to_jsonb(t) - 'password_hash' - 'calendar_export_token')::text as x from ${sql.table(table)} t) s`.execute(
      db,
    );
    digests[table] = `${rows[0]?.n}:${rows[0]?.digest}`;
  }
  return digests;
}

async function count(db: Kysely<Database>, query: RawBuilder<{ n: number }>): Promise<number> {
  const { rows } = await query.execute(db);
  return Number(rows[0]?.n ?? Number.NaN);
}

describe.each(testDatabaseKinds)('demo data on %s', (kind) => {
  let first: DatabaseHandle;
  let second: DatabaseHandle;
  let other: DatabaseHandle;
  let db: Kysely<Database>;
  let summary: DemoSummary;
  const progress: DemoProgress[] = [];

  beforeAll(async () => {
    first = await openTestDatabase(kind);
    second = await openTestDatabase(kind);
    other = await openTestDatabase(kind);
    db = first.db;
    summary = await seedDemoData(db, { today, onProgress: (event) => progress.push(event) });
    await seedDemoData(second.db, { today, seed: 1, listings: 12, historyYears: 2, forwardMonths: 12 });
    await seedDemoData(other.db, { today, seed: 2 });
    // Three whole demo accounts; on the embedded database, beside every other package's suite on two cores,
    // this has taken over two minutes.
  }, 360_000);

  afterAll(async () => {
    await first?.close();
    await second?.close();
    await other?.close();
  });

  describe('determinism', () => {
    it('writes identical rows for the same seed and today, and different ones for another seed', async () => {
      const a = await digestAll(first.db);
      const b = await digestAll(second.db);
      const c = await digestAll(other.db);
      expect(b).toEqual(a);
      for (const table of [
        'listings',
        'reservations',
        'reservation_nights',
        'messages',
        'reviews',
      ] as const) {
        expect(c[table]).not.toEqual(a[table]);
      }
    });

    it('reports the rows it wrote and its progress', async () => {
      for (const table of demoTables) {
        const rows = await count(db, sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`);
        expect(summary.counts[table], table).toBe(rows);
      }
      expect(summary.counts.reservations).toBeGreaterThan(1000);
      expect(progress[0]).toEqual({ phase: 'setup', done: 1, total: 1 });
      // 12 demo listings and the lapsed account's 2, then the derived analytics tables of both accounts, then
      // the planner's statistics.
      expect(progress.filter((event) => event.phase === 'activity').at(-1)).toEqual({
        phase: 'activity',
        done: 14,
        total: 14,
      });
      expect(progress.filter((event) => event.phase === 'analytics').at(-1)).toEqual({
        phase: 'analytics',
        done: 2,
        total: 2,
      });
      expect(progress.at(-1)).toEqual({ phase: 'statistics', done: 1, total: 1 });
      const activity = progress.filter((event) => event.phase === 'activity').map((event) => event.done);
      expect(activity).toEqual([...activity].sort((x, y) => x - y));
      expect(activity.at(-1)).toBe(14);
    });

    it('refuses to seed a second demo account and leaves the first as it was', async () => {
      expect(await hasDemoAccount(db)).toBe(true);
      await expect(seedDemoData(db, { today })).rejects.toMatchObject({ code: 'conflict' });
      await expect(seedDemoData(db, { today: '2026-02-30' })).rejects.toMatchObject({
        code: 'invalid_argument',
      });
      expect(await count(db, sql<{ n: number }>`select count(*)::int as n from accounts`)).toBe(2);
    });
  });

  describe('accounts', () => {
    it('has the demo owner with the published password, a manager, and four channel connections', async () => {
      const users = await db
        .selectFrom('users')
        .selectAll()
        .where('account_id', '=', summary.accountId)
        .orderBy('role', 'desc')
        .execute();
      expect(users.map((user) => [user.role, user.email])).toEqual([
        ['owner', demoLogin.email],
        ['manager', demoExtraLogins.manager],
      ]);
      expect(await verifyPassword(demoLogin.password, users[0]?.password_hash ?? '')).toBe(true);
      const subscription = await db
        .selectFrom('subscriptions')
        .selectAll()
        .where('account_id', '=', summary.accountId)
        .executeTakeFirstOrThrow();
      expect(subscription.status).toBe('active');
      const channels = await db
        .selectFrom('channel_accounts')
        .select('channel')
        .where('account_id', '=', summary.accountId)
        .orderBy('channel')
        .execute();
      expect(channels.map((row) => row.channel)).toEqual(['airbnb', 'booking', 'direct', 'vrbo']);
      const account = await db
        .selectFrom('accounts')
        .selectAll()
        .where('id', '=', summary.accountId)
        .executeTakeFirstOrThrow();
      expect(account.time_zone).toBe('America/Chicago');
    });

    it('salts each demo user’s password hash on its own, and every one verifies with the demo password', async () => {
      const users = await db.selectFrom('users').select(['email', 'password_hash']).execute();
      expect(users.map((user) => user.email).sort()).toEqual(
        [demoLogin.email, demoExtraLogins.manager, demoExtraLogins.lapsedOwner].sort(),
      );
      // scrypt$N$r$p$salt$key
      const salts = users.map((user) => user.password_hash?.split('$')[4]);
      expect(salts.every((salt) => typeof salt === 'string' && salt.length > 0)).toBe(true);
      expect(new Set(salts).size).toBe(users.length);
      for (const user of users) {
        expect(await verifyPassword(demoLogin.password, user.password_hash ?? '')).toBe(true);
      }
    });

    it('has a lapsed account with a past-due subscription, its own owner and two listings', async () => {
      const subscription = await db
        .selectFrom('subscriptions')
        .selectAll()
        .where('account_id', '=', summary.lapsedAccountId)
        .executeTakeFirstOrThrow();
      expect(subscription.status).toBe('past_due');
      const owner = await db
        .selectFrom('users')
        .selectAll()
        .where('account_id', '=', summary.lapsedAccountId)
        .executeTakeFirstOrThrow();
      expect(owner).toMatchObject({ role: 'owner', email: demoExtraLogins.lapsedOwner });
      const listings = await db
        .selectFrom('listings')
        .select('id')
        .where('account_id', '=', summary.lapsedAccountId)
        .execute();
      expect(listings).toHaveLength(2);
    });

    it('spreads the listings over three cities in three time zones with groups, locks and channel links', async () => {
      const cities = await db
        .selectFrom('listings')
        .select(['city', 'time_zone', 'currency'])
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('account_id', '=', summary.accountId)
        .groupBy(['city', 'time_zone', 'currency'])
        .orderBy('city')
        .execute();
      expect(cities.map((row) => [row.city, row.time_zone, row.currency])).toEqual([
        ['Breckenridge', 'America/Denver', 'USD'],
        ['Gulf Shores', 'America/Chicago', 'USD'],
        ['Lisbon', 'Europe/Lisbon', 'EUR'],
      ]);
      expect(cities.reduce((sum, row) => sum + Number(row.n), 0)).toBe(12);
      expect(
        await count(
          db,
          sql<{ n: number }>`select count(*)::int as n from listings l where not exists
            (select 1 from listing_channel_links k where k.listing_id = l.id)`,
        ),
      ).toBe(0);
      expect(
        await count(
          db,
          sql<{ n: number }>`select count(*)::int as n from listing_groups where owner_name is not null`,
        ),
      ).toBeGreaterThan(0);
      expect(
        await count(db, sql<{ n: number }>`select count(*)::int as n from lock_listings`),
      ).toBeGreaterThan(0);
    });
  });

  describe('invariants', () => {
    it('gives every live reservation exactly one hold over its own nights, and nothing else a reservation hold', async () => {
      expect(
        await count(
          db,
          sql<{ n: number }>`select count(*)::int as n from reservations r
            where r.status in ('accepted', 'pending') and (select count(*) from calendar_holds h
              where h.reservation_id = r.id and h.nights = daterange(r.start_date, r.end_date, '[)')) <> 1`,
        ),
      ).toBe(0);
      expect(
        await count(
          db,
          sql<{
            n: number;
          }>`select count(*)::int as n from calendar_holds h join reservations r on r.id = h.reservation_id
            where r.status not in ('accepted', 'pending')`,
        ),
      ).toBe(0);
      expect(
        await count(
          db,
          sql<{ n: number }>`select count(*)::int as n from reservations where status = 'pending'`,
        ),
      ).toBeGreaterThan(0);
      expect(
        await count(
          db,
          sql<{ n: number }>`select count(*)::int as n from calendar_holds where kind = 'block'`,
        ),
      ).toBeGreaterThan(0);
    });

    it('has nightly rates that add up to the accommodation, one per night', async () => {
      expect(
        await count(
          db,
          sql<{ n: number }>`select count(*)::int as n from reservations r
            where r.accommodation_minor <> (select coalesce(sum(n.accommodation_minor), 0) from reservation_nights n where n.reservation_id = r.id)
               or r.nights <> (select count(*) from reservation_nights n where n.reservation_id = r.id
                               and n.night >= r.start_date and n.night < r.end_date)`,
        ),
      ).toBe(0);
    });

    it('prices stays like the listing says, and line items add up to guest price and payout', async () => {
      expect(
        await count(
          db,
          sql<{
            n: number;
          }>`select count(*)::int as n from reservations r join listings l on l.id = r.listing_id
            where r.currency <> l.currency or l.currency not in ('USD', 'EUR')
               or exists (select 1 from reservation_changes c where c.reservation_id = r.id and c.currency <> r.currency)`,
        ),
      ).toBe(0);
      // Computed here from the listing's terms: fees, tax on accommodation plus fees, and each channel's commission.
      expect(
        await count(
          db,
          sql<{ n: number }>`
            with p as (
              select r.*, l.cleaning_fee_minor
                + l.extra_guest_fee_minor * greatest(0, r.adults + r.children - l.guests_included) * r.nights as fees,
                l.tax_rate_bp
              from reservations r join listings l on l.id = r.listing_id),
            m as (select p.*, accommodation_minor + fees as taxable,
                         round((accommodation_minor + fees) * tax_rate_bp / 10000.0) as tax from p)
            select count(*)::int as n from m where guest_price_minor <> taxable + tax
              or host_payout_minor <> case channel
                when 'airbnb' then taxable - round(taxable * 0.155)
                when 'vrbo' then taxable + tax - round(taxable * 0.08)
                when 'booking' then taxable + tax - round(taxable * 0.15)
                else taxable + tax end`,
        ),
      ).toBe(0);
      expect(
        await count(
          db,
          sql<{ n: number }>`select count(*)::int as n from reservations r where
            r.guest_price_minor <> (select sum(amount_minor) from reservation_line_items i where i.reservation_id = r.id and i.paid_by = 'guest')
            or r.host_payout_minor <> (select sum(amount_minor) from reservation_line_items i
                where i.reservation_id = r.id and (i.paid_to_host or i.paid_by = 'host'))
            or r.accommodation_minor <> (select sum(amount_minor) from reservation_line_items i
                where i.reservation_id = r.id and i.type in ('accommodation', 'discount'))`,
        ),
      ).toBe(0);
    });

    it('records a created row and one row per status change, so the books can be replayed for any date', async () => {
      expect(
        await count(
          db,
          sql<{ n: number }>`select count(*)::int as n from reservations r where
            (select count(*) from reservation_changes c where c.reservation_id = r.id and c.change = 'created'
               and c.changed_at = r.created_at) <> 1
            or (select c.status from reservation_changes c where c.reservation_id = r.id
                order by c.changed_at desc, c.id desc limit 1) <> r.status
            or exists (select 1 from reservation_changes c where c.reservation_id = r.id and c.changed_at > ${now}::timestamptz)`,
        ),
      ).toBe(0);
      // On the books a year ago, once from the change log and once from the reservations' own timestamps.
      const asOf = '2025-11-21T00:00:00Z';
      const fromChanges = await count(
        db,
        sql<{ n: number }>`select count(*)::int as n from (
          select distinct on (reservation_id) reservation_id, status from reservation_changes
          where changed_at <= ${asOf}::timestamptz order by reservation_id, changed_at desc, id desc) last
          where last.status = 'accepted'`,
      );
      const fromTimestamps = await count(
        db,
        sql<{
          n: number;
        }>`select count(*)::int as n from reservations where confirmed_at <= ${asOf}::timestamptz
          and (cancelled_at is null or cancelled_at > ${asOf}::timestamptz)`,
      );
      expect(fromChanges).toBe(fromTimestamps);
      expect(fromChanges).toBeGreaterThan(100);
    });

    it('keeps every event in order and in the past: booked, confirmed, cancelled before check-in', async () => {
      expect(
        await count(
          db,
          sql<{
            n: number;
          }>`select count(*)::int as n from reservations r join listings l on l.id = r.listing_id where
            r.created_at > ${now}::timestamptz or r.updated_at > ${now}::timestamptz
            or r.confirmed_at < r.created_at or r.cancelled_at < r.confirmed_at
            or r.cancelled_at >= (r.start_date::timestamp + make_interval(hours => l.check_in_time)) at time zone l.time_zone
            or r.confirmed_at >= (r.start_date::timestamp + make_interval(hours => l.check_in_time)) at time zone l.time_zone
            or (r.status = 'cancelled') <> (r.cancelled_at is not null)`,
        ),
      ).toBe(0);
      expect(
        await count(
          db,
          sql<{
            n: number;
          }>`select count(*)::int as n from messages m join reservations r on r.id = m.reservation_id
            where m.sent_at > ${now}::timestamptz or m.sent_at < r.created_at`,
        ),
      ).toBe(0);
      expect(
        await count(
          db,
          sql<{
            n: number;
          }>`select count(*)::int as n from reviews v join reservations r on r.id = v.reservation_id
            where r.status <> 'accepted' or v.submitted_at > ${now}::timestamptz
               or v.submitted_at::date < r.end_date or v.responded_at < v.submitted_at`,
        ),
      ).toBe(0);
    });

    it('writes message rules with known template variables only, and automated messages fully rendered', async () => {
      const rules = await db.selectFrom('message_rules').select(['body', 'last_minute_body']).execute();
      expect(rules.length).toBeGreaterThan(3);
      for (const rule of rules) {
        expect(unknownTemplateVariables(rule.body)).toEqual([]);
        expect(unknownTemplateVariables(rule.last_minute_body ?? '')).toEqual([]);
      }
      expect(
        await count(db, sql<{ n: number }>`select count(*)::int as n from messages where body like '%{{%'`),
      ).toBe(0);
      expect(
        await count(
          db,
          sql<{
            n: number;
          }>`select count(*)::int as n from messages where sender = 'automation' and message_rule_id is null`,
        ),
      ).toBe(0);
    });

    it('issues access codes of the lock’s length for stays in house or coming up', async () => {
      expect(
        await count(db, sql<{ n: number }>`select count(*)::int as n from access_codes`),
      ).toBeGreaterThan(0);
      expect(
        await count(
          db,
          sql<{ n: number }>`select count(*)::int as n from access_codes a join locks k on k.id = a.lock_id
            join reservations r on r.id = a.reservation_id
            where length(a.code) <> k.code_length or a.code <> r.access_code or r.status <> 'accepted'
              or r.end_date < ${today}::date or a.valid_to <= a.valid_from`,
        ),
      ).toBe(0);
    });
  });

  describe('plausibility', () => {
    it('fills Friday and Saturday nights more than the rest of the week', async () => {
      const { rows } = await sql<{ weekend: number; midweek: number }>`
        select count(*) filter (where extract(dow from n.night) in (5, 6)) / 2.0 as weekend,
               count(*) filter (where extract(dow from n.night) not in (5, 6)) / 5.0 as midweek
        from reservation_nights n join reservations r on r.id = n.reservation_id
        where r.status = 'accepted' and n.night < ${today}::date`.execute(db);
      const { weekend, midweek } = rows[0] ?? { weekend: 0, midweek: 1 };
      expect(Number(weekend) / Number(midweek)).toBeGreaterThan(1.04);
    });

    it('mixes channels roughly 55 / 20 / 15 / 10 and cancels around one booking in ten', async () => {
      const { rows } = await sql<{ channel: string; share: number }>`
        select channel, count(*)::float / sum(count(*)) over () as share from reservations
        where status in ('accepted', 'cancelled') group by channel`.execute(db);
      const share = Object.fromEntries(rows.map((row) => [row.channel, Number(row.share)]));
      expect(share.airbnb).toBeGreaterThan(0.45);
      expect(share.airbnb).toBeLessThan(0.65);
      expect(share.booking).toBeGreaterThan(0.12);
      expect(share.booking).toBeLessThan(0.28);
      expect(share.vrbo).toBeGreaterThan(0.08);
      expect(share.vrbo).toBeLessThan(0.22);
      expect(share.direct).toBeGreaterThan(0.04);
      expect(share.direct).toBeLessThan(0.16);
      const { rows: cancelled } = await sql<{ rate: number }>`
        select avg((status = 'cancelled')::int)::float as rate from reservations where status in ('accepted', 'cancelled')`.execute(
        db,
      );
      expect(Number(cancelled[0]?.rate)).toBeGreaterThan(0.06);
      expect(Number(cancelled[0]?.rate)).toBeLessThan(0.14);
    });

    it('books the beach town far more in summer than in winter', async () => {
      const { rows } = await sql<{ summer: number; winter: number }>`
        select count(*) filter (where extract(month from n.night) in (6, 7, 8)) as summer,
               count(*) filter (where extract(month from n.night) in (12, 1, 2)) as winter
        from reservation_nights n join reservations r on r.id = n.reservation_id join listings l on l.id = r.listing_id
        where r.status = 'accepted' and l.city = 'Gulf Shores' and n.night >= '2025-03-01' and n.night < '2026-03-01'`.execute(
        db,
      );
      expect(Number(rows[0]?.summer)).toBeGreaterThan(2 * Number(rows[0]?.winter));
    });

    it('reviews most past stays, and hosts mostly answer within the hour with some threads waiting', async () => {
      const { rows } = await sql<{ rate: number }>`
        select (select count(*) from reviews)::float / count(*) as rate from reservations
        where status = 'accepted' and end_date <= ${today}::date`.execute(db);
      expect(Number(rows[0]?.rate)).toBeGreaterThan(0.45);
      expect(Number(rows[0]?.rate)).toBeLessThan(0.75);
      const { rows: waits } = await sql<{ within_hour: number; unanswered: number }>`
        with g as (select m.*, (select min(h.sent_at) from messages h where h.reservation_id = m.reservation_id
                                and h.sender = 'host' and h.sent_at >= m.sent_at) as replied_at
                   from messages m where m.sender = 'guest')
        select avg((replied_at - sent_at <= interval '1 hour')::int) filter (where replied_at is not null)::float as within_hour,
               count(*) filter (where replied_at is null and sent_at > ${now}::timestamptz - interval '3 days')::int as unanswered
        from g`.execute(db);
      expect(Number(waits[0]?.within_hour)).toBeGreaterThan(0.4);
      expect(Number(waits[0]?.within_hour)).toBeLessThan(0.85);
      expect(Number(waits[0]?.unanswered)).toBeGreaterThan(0);
    });
  });
});
