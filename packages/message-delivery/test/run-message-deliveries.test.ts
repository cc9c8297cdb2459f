import { type Clock, messageEmailRetryDelaysMs } from '@innkeep/domain';
import { createMessageDeliveryQueue } from '@innkeep/storage';
import { openTestDatabase, type TestDatabase, testDatabaseKinds } from '@innkeep/storage/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunMessageDeliveriesOptions, runMessageDeliveries } from '../src/run-message-deliveries.ts';
import { createSmtpTransport } from '../src/smtp-transport.ts';
import { body, header, type SmtpSink, startSmtpSink } from './support/smtp-sink.ts';
import { createHost, queueHostMessage, type TestHost } from './support/world.ts';

const start = new Date('2026-04-01T12:00:00.000Z').getTime();

/** The time the queue and the runner see; cases move it by hand. */
let nowMs = start;
const clock: Clock = { now: () => new Date(nowMs) };

describe.each(testDatabaseKinds)('the message sender on %s', (kind) => {
  let handle: TestDatabase;
  let host: TestHost;
  let sink: SmtpSink;
  let transport: ReturnType<typeof createSmtpTransport>;
  let stays = 0;
  const queue = () => createMessageDeliveryQueue({ db: handle.db, clock });
  const options = (): RunMessageDeliveriesOptions => ({
    transport,
    from: '"Harbor Stays" <stays@example.test>',
    replyTo: 'host@example.test',
    now: clock.now,
    random: () => 0.5,
  });

  /** Queues a host message to a new stay's guest; each stay has its own nights. */
  function queueMessage(text = 'Hello Grace,\nSee you soon.') {
    const startDate = new Date(Date.UTC(2026, 4, 1 + 4 * stays++)).toISOString().slice(0, 10);
    return queueHostMessage(handle.db, clock, host, startDate, text);
  }

  async function stored(messageId: string) {
    return handle.db
      .selectFrom('messages')
      .select(['delivery_status', 'delivery_error', 'delivery_attempts'])
      .where('id', '=', messageId)
      .executeTakeFirstOrThrow();
  }

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    host = await createHost(handle.db);
    sink = await startSmtpSink();
    transport = createSmtpTransport(sink.url);
  }, 180_000);

  beforeEach(async () => {
    nowMs = start;
    sink.received.length = 0;
    await handle.db.deleteFrom('messages').execute();
  });

  afterAll(async () => {
    transport?.close();
    await sink?.close();
    await handle?.close();
  });

  it('emails a direct guest the message as written, from the sender, answering to the reply address', async () => {
    const messageId = await queueMessage();
    await expect(runMessageDeliveries(queue(), options())).resolves.toEqual({
      claimed: 1,
      sent: 1,
      retried: 0,
      failed: 0,
      deferred: 0,
    });
    expect(sink.received).toHaveLength(1);
    const [mail] = sink.received;
    expect(mail?.from).toBe('stays@example.test');
    expect(mail?.to).toEqual(['grace@example.test']);
    const raw = mail?.raw ?? '';
    expect(header(raw, 'From')).toBe('Harbor Stays <stays@example.test>');
    expect(header(raw, 'Reply-To')).toBe('host@example.test');
    expect(header(raw, 'To')).toBe('Grace Guest <grace@example.test>');
    expect(header(raw, 'Subject')).toBe('Your stay at Harbor Loft, 2026-05-01 to 2026-05-04');
    expect(header(raw, 'Content-Type')).toMatch(/^text\/plain/);
    expect(body(raw)).toBe('Hello Grace,\r\nSee you soon.');
    expect(await stored(messageId)).toEqual({
      delivery_status: 'sent',
      delivery_error: null,
      delivery_attempts: 1,
    });
    // Sent once: the next tick finds nothing.
    await expect(runMessageDeliveries(queue(), options())).resolves.toMatchObject({ claimed: 0 });
  });

  it('answers to the sender when no reply address is set', async () => {
    await queueMessage();
    const { replyTo: _, ...withoutReplyTo } = options();
    await runMessageDeliveries(queue(), withoutReplyTo);
    expect(header(sink.received[0]?.raw ?? '', 'Reply-To')).toBeUndefined();
  });

  it('fails a message the server refuses for good, with its answer', async () => {
    const messageId = await queueMessage();
    sink.answerNext({ code: 550, message: '5.1.1 Mailbox unavailable' });
    await expect(runMessageDeliveries(queue(), options())).resolves.toMatchObject({ failed: 1 });
    expect(await stored(messageId)).toEqual({
      delivery_status: 'failed',
      delivery_error: expect.stringContaining('550 5.1.1 Mailbox unavailable'),
      delivery_attempts: 1,
    });
    expect(sink.received).toEqual([]);
  });

  it('tries a message the server defers again later, and sends it then', async () => {
    const messageId = await queueMessage();
    sink.answerNext({ code: 451, message: '4.3.0 Try again later' });
    await expect(runMessageDeliveries(queue(), options())).resolves.toMatchObject({ retried: 1 });
    expect(await stored(messageId)).toEqual({
      delivery_status: 'queued',
      delivery_error: expect.stringContaining('451 4.3.0 Try again later'),
      delivery_attempts: 1,
    });
    // Not before its retry is due…
    nowMs += (messageEmailRetryDelaysMs[0] ?? 0) - 1;
    await expect(runMessageDeliveries(queue(), options())).resolves.toMatchObject({ claimed: 0 });
    // …and then it goes.
    nowMs += 1;
    await expect(runMessageDeliveries(queue(), options())).resolves.toMatchObject({ sent: 1 });
    expect(await stored(messageId)).toEqual({
      delivery_status: 'sent',
      delivery_error: null,
      delivery_attempts: 2,
    });
    expect(sink.received).toHaveLength(1);
  });

  it('retries when the server cannot be reached', async () => {
    const messageId = await queueMessage();
    const closed = await startSmtpSink();
    await closed.close();
    const unreachable = createSmtpTransport(closed.url);
    try {
      await expect(
        runMessageDeliveries(queue(), { ...options(), transport: unreachable }),
      ).resolves.toMatchObject({
        retried: 1,
      });
    } finally {
      unreachable.close();
    }
    expect(await stored(messageId)).toMatchObject({ delivery_status: 'queued', delivery_attempts: 1 });
  });

  it('sends each message once when two senders work one queue', async () => {
    const messageIds: string[] = [];
    for (let index = 0; index < 6; index += 1) messageIds.push(await queueMessage(`Message ${index}`));
    const second = createSmtpTransport(sink.url);
    try {
      const ticks = await Promise.all([
        runMessageDeliveries(queue(), { ...options(), claimLimit: 4 }),
        runMessageDeliveries(queue(), { ...options(), claimLimit: 4, transport: second }),
      ]);
      const sent = ticks.reduce((sum, tick) => sum + tick.sent, 0);
      // Whatever the first two ticks left, a third takes; nothing is sent twice.
      const third = await runMessageDeliveries(queue(), options());
      expect(sent + third.sent).toBe(6);
    } finally {
      second.close();
    }
    expect(sink.received.map((mail) => body(mail.raw)).sort()).toEqual(
      ['0', '1', '2', '3', '4', '5'].map((index) => `Message ${index}`),
    );
    for (const messageId of messageIds) {
      expect(await stored(messageId)).toMatchObject({ delivery_status: 'sent', delivery_attempts: 1 });
    }
  });

  it('starts no attempt it could not finish within the lease, and leaves those messages for the next claim', async () => {
    for (let index = 0; index < 5; index += 1) await queueMessage(`Message ${index}`);
    // A mail server that takes 100 s to accept each message; the lease is 5 minutes and an attempt may take
    // 50 s, so attempts start at 0, 100 and 200 s, and not at 300 s, when another sender may claim the rest.
    const slow = {
      sendMail: async (email: Parameters<typeof transport.sendMail>[0]) => {
        nowMs += 100_000;
        return transport.sendMail(email);
      },
    };
    const tick = await runMessageDeliveries(queue(), { ...options(), transport: slow, concurrency: 1 });
    expect(tick).toEqual({ claimed: 5, sent: 3, retried: 0, failed: 0, deferred: 2 });
    expect(sink.received).toHaveLength(3);

    // Nobody sends them while the lease runs; once it has run out they are claimed again, and sent once.
    nowMs = start + 5 * 60_000 - 1;
    expect(await runMessageDeliveries(queue(), options())).toMatchObject({ claimed: 0 });
    nowMs += 1;
    expect(await runMessageDeliveries(queue(), options())).toMatchObject({ claimed: 2, sent: 2 });
    expect(sink.received.map((mail) => body(mail.raw)).sort()).toEqual(
      ['0', '1', '2', '3', '4'].map((index) => `Message ${index}`),
    );
  });

  it('refuses a lease too short for one attempt', async () => {
    await expect(runMessageDeliveries(queue(), { ...options(), leaseMs: 50_000 })).rejects.toThrow(
      RangeError,
    );
  });

  it('fails a message whose guest no longer has an address', async () => {
    const messageId = await queueMessage();
    await handle.db.updateTable('reservations').set({ guest_email: null }).execute();
    await expect(runMessageDeliveries(queue(), options())).resolves.toMatchObject({ failed: 1 });
    expect(await stored(messageId)).toMatchObject({
      delivery_status: 'failed',
      delivery_error: 'The guest has no email address',
    });
    expect(sink.received).toEqual([]);
  });
});
