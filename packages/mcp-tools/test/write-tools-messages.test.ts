import type { Message } from '@innkeep/domain';
import { testDatabaseKinds } from '@innkeep/storage/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendMessageTool } from '../src/tools/messages/send-message.tool.ts';
import { createMessageRuleTool } from '../src/tools/rules/create-message-rule.tool.ts';
import { pauseMessageRuleTool } from '../src/tools/rules/pause-message-rule.tool.ts';
import {
  auditEntries,
  errorOf,
  expectAuditedOnce,
  latestAuditId,
  listingNamed,
  openWriteWorld,
  outputOf,
  reservationsFrom,
  type WriteWorld,
} from './write-tools-support.ts';

describe.each(testDatabaseKinds)('message write tools (%s)', (kind) => {
  let world: WriteWorld;

  beforeAll(async () => {
    world = await openWriteWorld(kind);
  }, 120_000);

  afterAll(async () => {
    await world?.close();
  });

  /** Every message of a reservation's thread, oldest first. */
  const thread = async (reservationId: string): Promise<Message[]> => {
    const messages: Message[] = [];
    let cursor: string | undefined;
    do {
      const page = await world.context.domain.messages.getThread(world.owner, {
        reservationId,
        cursor,
        limit: 100,
      });
      messages.push(...page.messages.items);
      cursor = page.messages.nextCursor ?? undefined;
    } while (cursor !== undefined);
    return messages;
  };

  const upcomingStay = async () => {
    const [stay] = await reservationsFrom(world, '2026-07-01', { statuses: ['accepted'] });
    if (stay === undefined) throw new Error('the demo has no upcoming stay');
    return stay;
  };

  const allRules = async () =>
    (await world.context.domain.messageRules.list(world.owner, { limit: 500 })).items;

  describe('send_message', () => {
    it('stores a host message on the reservation’s thread, not_delivered on a server without email', async () => {
      const stay = await upcomingStay();
      const before = await thread(stay.id);
      const body = 'Hi! The pool heater is fixed, enjoy your stay. — Avery';

      const message = outputOf(
        await world.call(sendMessageTool, { reservationId: stay.id, body: `  ${body}\n` }),
        sendMessageTool.output,
      );
      expect(message).toMatchObject({
        sender: 'host',
        body,
        deliveryStatus: 'not_delivered',
        deliveryError: expect.any(String),
        authorUserId: world.owner.userId,
        messageRuleId: null,
        sentAt: world.clock.now().toISOString(),
      });
      const after = await thread(stay.id);
      expect(after).toHaveLength(before.length + 1);
      expect(after.at(-1)).toEqual(message);
      const entry = await expectAuditedOnce(world, 'message.send', message.id);
      expect(entry.details).toMatchObject({ reservationId: stay.id });
    });

    it('refuses empty or overlong text, and unknown or foreign reservations, sending nothing', async () => {
      const stay = await upcomingStay();
      const before = await thread(stay.id);
      const audit = await latestAuditId(world);
      for (const body of ['   ', 'x'.repeat(5001)]) {
        const error = errorOf(await world.call(sendMessageTool, { reservationId: stay.id, body }));
        expect(error.code).toBe('invalid_argument');
        expect(error.message).toContain('body');
      }
      for (const reservationId of ['res_nope', world.foreign.reservationId]) {
        const error = errorOf(await world.call(sendMessageTool, { reservationId, body: 'Hello' }));
        expect(error.code).toBe('not_found');
        expect(error.message).toContain(reservationId);
      }
      expect(await thread(stay.id)).toEqual(before);
      expect(await latestAuditId(world)).toBe(audit);
    });
  });

  describe('create_message_rule', () => {
    it('creates an active rule for chosen listings and channels', async () => {
      const listing = await listingNamed(world, 'Tidewater');
      const rule = outputOf(
        await world.call(createMessageRuleTool, {
          name: 'Dock key reminder',
          trigger: 'check_in',
          offsetDays: -1,
          sendTime: '16:00',
          body: 'Hi {{guest_first_name}}, the dock key is in the lockbox.',
          listingIds: [listing.id],
          channels: ['direct', 'airbnb'],
        }),
        createMessageRuleTool.output,
      );
      expect(rule).toMatchObject({
        name: 'Dock key reminder',
        trigger: 'check_in',
        offsetDays: -1,
        sendTime: '16:00',
        body: 'Hi {{guest_first_name}}, the dock key is in the lockbox.',
        lastMinuteBody: null,
        listingIds: [listing.id],
        channels: ['direct', 'airbnb'],
        paused: false,
        pausedAt: null,
      });
      const forListing = await world.context.domain.messageRules.list(world.owner, { listingId: listing.id });
      expect(forListing.items).toContainEqual(rule);
      await expectAuditedOnce(world, 'message_rule.create', rule.id);
    });

    it('refuses unknown variables and impossible timing as invalid_argument, and foreign listings as not_found', async () => {
      const before = await allRules();
      const audit = await latestAuditId(world);
      const rule = { name: 'Bad rule', trigger: 'check_out', body: 'Bye {{guest_first_name}}' };
      const invalid: [Record<string, unknown>, string][] = [
        [{ body: 'Your size: {{guest_shoe_size}}' }, '{{guest_shoe_size}}'],
        [{ trigger: 'booking_confirmed', offsetDays: -2 }, 'offsetDays'],
        [{ lastMinuteBody: 'Late? {{guest_first_name}}' }, 'lastMinuteBody'],
        [{ sendTime: '25:00' }, 'sendTime'],
        [{ trigger: 'on_arrival' }, 'trigger'],
      ];
      for (const [change, names] of invalid) {
        const error = errorOf(await world.call(createMessageRuleTool, { ...rule, ...change }));
        expect(error.code, JSON.stringify(change)).toBe('invalid_argument');
        expect(error.message).toContain(names);
      }
      const foreign = errorOf(
        await world.call(createMessageRuleTool, { ...rule, listingIds: [world.foreign.listingId] }),
      );
      expect(foreign.code).toBe('not_found');
      expect(foreign.message).toContain(world.foreign.listingId);
      expect(await allRules()).toEqual(before);
      expect(await latestAuditId(world)).toBe(audit);
    });
  });

  describe('pause_message_rule', () => {
    it('pauses by default, changes nothing when repeated, and resumes with paused false', async () => {
      const created = await world.context.domain.messageRules.create(world.owner, {
        name: 'Checkout reminder (test)',
        trigger: 'check_out',
        offsetDays: -1,
        body: 'Checkout is at {{check_out_time}} tomorrow.',
      });

      const paused = outputOf(
        await world.call(pauseMessageRuleTool, { ruleId: created.id }),
        pauseMessageRuleTool.output,
      );
      expect(paused).toMatchObject({
        id: created.id,
        paused: true,
        pausedAt: world.clock.now().toISOString(),
      });
      expect((await allRules()).find((rule) => rule.id === created.id)).toEqual(paused);
      await expectAuditedOnce(world, 'message_rule.pause', created.id);

      const audit = await latestAuditId(world);
      const again = outputOf(
        await world.call(pauseMessageRuleTool, { ruleId: created.id, paused: true }),
        pauseMessageRuleTool.output,
      );
      expect(again).toEqual(paused);
      expect(await latestAuditId(world)).toBe(audit);

      const resumed = outputOf(
        await world.call(pauseMessageRuleTool, { ruleId: created.id, paused: false }),
        pauseMessageRuleTool.output,
      );
      expect(resumed).toMatchObject({ id: created.id, paused: false, pausedAt: null });
      expect((await allRules()).find((rule) => rule.id === created.id)).toEqual(resumed);
      await expectAuditedOnce(world, 'message_rule.resume', created.id);
      expect(await auditEntries(world, 'message_rule.pause', created.id)).toHaveLength(1);
    });

    it('refuses bad input as invalid_argument and unknown or foreign rules as not_found', async () => {
      const [rule] = await allRules();
      if (rule === undefined) throw new Error('the demo has no message rules');
      const before = await allRules();
      const audit = await latestAuditId(world);

      const invalid = errorOf(await world.call(pauseMessageRuleTool, { ruleId: rule.id, paused: 'yes' }));
      expect(invalid.code).toBe('invalid_argument');
      expect(invalid.message).toContain('paused');

      const unknown = errorOf(await world.call(pauseMessageRuleTool, { ruleId: 'mru_nope' }));
      expect(unknown.code).toBe('not_found');
      expect(unknown.message).toContain('mru_nope');
      // The demo account's rule, asked for by the owner of another account.
      const foreign = errorOf(await world.call(pauseMessageRuleTool, { ruleId: rule.id }, world.stranger));
      expect(foreign.code).toBe('not_found');

      expect(await allRules()).toEqual(before);
      expect(await latestAuditId(world)).toBe(audit);
    });
  });
});
