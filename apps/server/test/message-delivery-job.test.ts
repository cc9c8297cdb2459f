import { type Actor, systemClock } from '@innkeep/domain';
import type { MessageEmail } from '@innkeep/message-delivery';
import { createPostgresDomain, type DatabaseHandle } from '@innkeep/storage';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MailConfig } from '../src/config.ts';
import { startMessageDeliveryJob } from '../src/message-delivery-job.ts';
import type { PeriodicJobRun } from '../src/periodic-job.ts';
import { openOwnerDatabase, testOwner } from './support/app-deps.ts';
import { freePort } from './support/processes.ts';

/** Waits until `done` holds, checking every 25 ms, for at most 15 seconds. */
async function waitUntil(done: () => Promise<boolean> | boolean): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await done()) && Date.now() < deadline) await new Promise((wait) => setTimeout(wait, 25));
}

describe('the message delivery job', () => {
  let database: DatabaseHandle;
  let owner: Actor;
  let stays = 0;
  const listingId = 'lst_message_job';
  const mail: MailConfig = {
    smtpUrl: 'smtp://127.0.0.1:1',
    from: 'stays@example.test',
    replyTo: 'host@example.test',
  };
  const log = { info: () => {}, error: () => {} };

  beforeAll(async () => {
    database = await openOwnerDatabase();
    const user = await database.db
      .selectFrom('users')
      .select(['id', 'account_id'])
      .where('email', '=', testOwner.email)
      .executeTakeFirstOrThrow();
    owner = { accountId: user.account_id, userId: user.id, role: 'owner', via: 'rest', clientId: null };
    await database.db
      .insertInto('listings')
      .values({
        id: listingId,
        account_id: owner.accountId,
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
        min_nights: 1,
        enabled: true,
      })
      .execute();
  });

  beforeEach(async () => {
    await database.db.deleteFrom('messages').execute();
  });

  afterAll(async () => {
    await database?.close();
  });

  /** A host message to a new direct stay's guest, written on a server that emails: queued. */
  async function queueMessage(body: string): Promise<string> {
    const domain = createPostgresDomain({ db: database.db, clock: systemClock, emailDelivery: true });
    const startDate = new Date(Date.UTC(2030, 0, 1 + 2 * stays++)).toISOString().slice(0, 10);
    const endDate = new Date(Date.parse(startDate) + 86_400_000).toISOString().slice(0, 10);
    const reservation = await domain.reservations.create(owner, {
      listingId,
      startDate,
      endDate,
      guest: { firstName: 'Ana', lastName: 'Silva', email: 'ana@example.test' },
      adults: 1,
      guestPrice: 90,
    });
    const message = await domain.messages.send(owner, { reservationId: reservation.id, body });
    expect(message.deliveryStatus).toBe('queued');
    return message.id;
  }

  const statusOf = async (messageId: string) =>
    database.db
      .selectFrom('messages')
      .select(['delivery_status', 'delivery_error'])
      .where('id', '=', messageId)
      .executeTakeFirstOrThrow();

  it('emails queued messages in the background with the configured addresses', async () => {
    const messageId = await queueMessage('Welcome, Ana!');
    const sent: MessageEmail[] = [];
    const runs: PeriodicJobRun[] = [];
    const job = startMessageDeliveryJob({
      db: database.db,
      clock: systemClock,
      log,
      mail,
      transport: {
        sendMail: async (email: MessageEmail) => {
          sent.push(email);
          return {};
        },
      },
      firstRunDelayMs: 0,
      intervalMs: 20,
      onRun: (run) => runs.push(run),
    });
    try {
      await waitUntil(async () => (await statusOf(messageId)).delivery_status === 'sent');
    } finally {
      await job.stop();
    }
    expect(await statusOf(messageId)).toEqual({ delivery_status: 'sent', delivery_error: null });
    expect(sent).toEqual([
      expect.objectContaining({
        from: 'stays@example.test',
        replyTo: 'host@example.test',
        to: { name: 'Ana Silva', address: 'ana@example.test' },
        text: 'Welcome, Ana!',
      }),
    ]);
    expect(runs.every((run) => run.outcome === 'success')).toBe(true);
  });

  it('keeps a message queued, with the reason, while the SMTP server cannot be reached', async () => {
    const messageId = await queueMessage('Welcome again!');
    const job = startMessageDeliveryJob({
      db: database.db,
      clock: systemClock,
      log,
      mail: { ...mail, smtpUrl: `smtp://127.0.0.1:${await freePort()}` },
      firstRunDelayMs: 0,
      intervalMs: 20,
    });
    try {
      await waitUntil(async () => (await statusOf(messageId)).delivery_error !== null);
    } finally {
      await job.stop();
    }
    expect(await statusOf(messageId)).toEqual({
      delivery_status: 'queued',
      delivery_error: expect.stringMatching(/ECONNREFUSED|connect/i),
    });
  });
});
