import type { Clock } from '@innkeep/domain';
import type { Database } from '@innkeep/storage';
import { openTestDatabase, type TestDatabase } from '@innkeep/storage/testing';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type MessageRuleJobRun,
  messageRuleLockKey,
  runMessageRulesOnce,
  startMessageRuleJob,
} from '../src/message-rule-job.ts';
import { runCli } from './support/processes.ts';

let sequence = 0;

/** An account with one listing and a booking_confirmed rule; `stays` reservations confirmed at `confirmedAt`. */
async function seedDueMessages(db: Kysely<Database>, stays: number, confirmedAt: Date): Promise<string[]> {
  sequence += 1;
  const suffix = `${process.pid}_${sequence}`;
  const accountId = `acc_job_${suffix}`;
  const listingId = `lst_job_${suffix}`;
  await db
    .insertInto('accounts')
    .values({ id: accountId, name: 'Job Test', time_zone: 'Europe/Lisbon', currency: 'EUR' })
    .execute();
  await db
    .insertInto('users')
    .values({
      id: `usr_job_${suffix}`,
      account_id: accountId,
      role: 'owner',
      email: `owner_${suffix}@example.test`,
      first_name: 'Maria',
      last_name: 'Lopes',
      password_hash: null,
      auth_token_hash: null,
      auth_token_created_at: null,
    })
    .execute();
  await db
    .insertInto('listings')
    .values({
      id: listingId,
      account_id: accountId,
      name: 'Alfama Flat',
      property_type: 'apartment',
      address: 'Rua 1',
      city: 'Lisbon',
      country_code: 'PT',
      time_zone: 'Europe/Lisbon',
      currency: 'EUR',
      bedrooms: 1,
      bathrooms: 1,
      max_guests: 2,
      base_price_minor: 9_000,
      min_price_minor: null,
    })
    .execute();
  await db
    .insertInto('message_rules')
    .values({
      id: `mru_job_${suffix}`,
      account_id: accountId,
      name: 'Thanks',
      trigger: 'booking_confirmed',
      body: 'Thanks for booking {{listing_name}}, {{guest_first_name}}!',
      listing_ids: [listingId],
    })
    .execute();
  const ids: string[] = [];
  for (let index = 0; index < stays; index += 1) {
    const id = `res_job_${suffix}_${index}`;
    ids.push(id);
    await db
      .insertInto('reservations')
      .values({
        id,
        account_id: accountId,
        listing_id: listingId,
        channel: 'direct',
        confirmation_code: `DIR-${suffix}-${index}`,
        status: 'accepted',
        guest_first_name: 'Ana',
        guest_last_name: 'Silva',
        start_date: '2030-06-01',
        end_date: '2030-06-04',
        currency: 'EUR',
        accommodation_minor: 27_000,
        guest_price_minor: 27_000,
        host_payout_minor: 27_000,
        confirmed_at: confirmedAt,
      })
      .execute();
  }
  return ids;
}

async function messageCounts(db: Kysely<Database>, reservationIds: string[]): Promise<number[]> {
  const rows = await db
    .selectFrom('messages')
    .select(['reservation_id', 'body'])
    .where('reservation_id', 'in', reservationIds)
    .execute();
  return reservationIds.map((id) => rows.filter((row) => row.reservation_id === id).length);
}

const confirmedAt = new Date('2030-05-01T12:00:00Z');
const clock: Clock = { now: () => new Date('2030-05-01T12:05:00Z') };

describe('message rule job on PostgreSQL', () => {
  let database: TestDatabase;
  let url: string;

  beforeAll(async () => {
    database = await openTestDatabase('postgres');
    url = database.url ?? '';
  });

  afterAll(async () => {
    await database?.close();
  });

  it('does nothing while another instance holds the lock, and sends once it is free', async () => {
    const stays = await seedDueMessages(database.db, 1, confirmedAt);
    // Another instance's session, holding the lock across this runner's attempt.
    await database.db.connection().execute(async (other) => {
      await sql`select pg_advisory_lock(${messageRuleLockKey}::bigint)`.execute(other);
      try {
        expect(await runMessageRulesOnce(database.db, clock, false)).toBeNull();
        expect(await messageCounts(database.db, stays)).toEqual([0]);
      } finally {
        await sql`select pg_advisory_unlock(${messageRuleLockKey}::bigint)`.execute(other);
      }
    });
    expect(await runMessageRulesOnce(database.db, clock, false)).toEqual({ sent: 1, skipped: 0 });
    const [message] = await database.db
      .selectFrom('messages')
      .select(['body', 'sender', 'delivery_status'])
      .where('reservation_id', '=', stays[0] ?? '')
      .execute();
    expect(message).toEqual({
      body: 'Thanks for booking Alfama Flat, Ana!',
      sender: 'automation',
      // The job runs without email delivery (it takes no SMTP setting), so nothing would ever send it.
      delivery_status: 'not_delivered',
    });
  });

  it('two jobs on one database send each message once', async () => {
    const stays = await seedDueMessages(database.db, 20, confirmedAt);
    const logged: object[] = [];
    const log = {
      info: (details: object) => logged.push(details),
      error: (details: object) => logged.push(details),
    };
    const jobs = [0, 1].map(() =>
      startMessageRuleJob({
        db: database.db,
        clock,
        log,
        emailDelivery: false,
        firstRunDelayMs: 0,
        intervalMs: 5,
      }),
    );
    const deadline = Date.now() + 10_000;
    while ((await messageCounts(database.db, stays)).some((count) => count === 0) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // A few more rounds of both jobs, which must find nothing left to send.
    await new Promise((resolve) => setTimeout(resolve, 100));
    await Promise.all(jobs.map((job) => job.stop()));
    expect(await messageCounts(database.db, stays)).toEqual(stays.map(() => 1));
    expect(
      logged.reduce((total: number, entry) => total + ('sent' in entry ? Number(entry.sent) : 0), 0),
    ).toBe(20);
  });

  it('logs a failed run instead of throwing, reports it, and stops cleanly', async () => {
    const errors: object[] = [];
    const runs: MessageRuleJobRun[] = [];
    const broken = { transaction: () => ({ execute: () => Promise.reject(new Error('database is gone')) }) };
    const job = startMessageRuleJob({
      emailDelivery: false,
      db: broken as unknown as TestDatabase['db'],
      clock,
      log: { info: () => {}, error: (details) => errors.push(details) },
      firstRunDelayMs: 0,
      intervalMs: 1_000,
      onRun: (run) => runs.push(run),
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await job.stop();
    expect(errors).toHaveLength(1);
    expect(runs).toEqual([{ outcome: 'failure', durationMs: expect.any(Number) }]);
  });

  it('reports a run that sent as a success, and one another instance held as skipped', async () => {
    await seedDueMessages(database.db, 1, confirmedAt);
    const runs: MessageRuleJobRun[] = [];
    const runOnce = async () => {
      const job = startMessageRuleJob({
        emailDelivery: false,
        db: database.db,
        clock,
        log: { info: () => {}, error: () => {} },
        firstRunDelayMs: 0,
        intervalMs: 60_000,
        onRun: (run) => runs.push(run),
      });
      while (runs.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      await job.stop();
    };
    await runOnce();
    expect(runs.splice(0)).toEqual([{ outcome: 'success', durationMs: expect.any(Number) }]);
    await database.db.connection().execute(async (other) => {
      await sql`select pg_advisory_lock(${messageRuleLockKey}::bigint)`.execute(other);
      try {
        await runOnce();
      } finally {
        await sql`select pg_advisory_unlock(${messageRuleLockKey}::bigint)`.execute(other);
      }
    });
    expect(runs).toEqual([{ outcome: 'skipped', durationMs: expect.any(Number) }]);
  });

  it('run-message-rules sends what is due now and prints the counts', async () => {
    const stays = await seedDueMessages(database.db, 2, new Date(Date.now() - 60 * 60_000));
    const first = await runCli(['run-message-rules'], { DATABASE_URL: url });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toBe('Sent 2 messages; skipped 0.\n');
    const second = await runCli(['run-message-rules'], { DATABASE_URL: url });
    expect(second.stdout).toBe('Sent 0 messages; skipped 0.\n');
    expect(await messageCounts(database.db, stays)).toEqual([1, 1]);
  });
});

describe('message rule job on the embedded database', () => {
  it('takes the same lock and sends once', async () => {
    const database = await openTestDatabase('pglite');
    try {
      const stays = await seedDueMessages(database.db, 2, confirmedAt);
      expect(await runMessageRulesOnce(database.db, clock, false)).toEqual({ sent: 2, skipped: 0 });
      expect(await runMessageRulesOnce(database.db, clock, false)).toEqual({ sent: 0, skipped: 0 });
      expect(await messageCounts(database.db, stays)).toEqual([1, 1]);
    } finally {
      await database.close();
    }
  });
});
