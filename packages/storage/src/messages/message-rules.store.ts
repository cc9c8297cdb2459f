import type { Channel } from '@innkeep/domain';
import {
  type Actor,
  assertCanWrite,
  createMessageRuleInputSchema,
  decodeCursor,
  listMessageRulesInputSchema,
  type MessageRule,
  type MessageRuleRefInput,
  type MessageRuleTrigger,
  type MessageRuleUseCases,
  messageRuleRefInputSchema,
  newId,
  notFound,
  parseInput,
  toPage,
} from '@innkeep/domain';
import { type Selectable, sql } from 'kysely';
import type { MessageRulesTable } from '../database.ts';
import { assertListingsInAccount } from '../listings/listings.store.ts';
import type { StoreDeps } from '../store-deps.ts';
import { inTransaction, recordAudit } from '../transaction.ts';

/** Message rule use cases over PostgreSQL. */
export function createMessageRuleUseCases({ db, clock }: StoreDeps): MessageRuleUseCases {
  /** Sets a rule's paused flag; a rule already in that state is returned untouched and nothing is logged. */
  async function setPaused(
    actor: Actor,
    rawInput: MessageRuleRefInput,
    paused: boolean,
  ): Promise<MessageRule> {
    assertCanWrite(actor);
    const { ruleId } = parseInput(messageRuleRefInputSchema, rawInput);
    return inTransaction(db, async (trx) => {
      const current = await trx
        .selectFrom('message_rules')
        .selectAll()
        .where('id', '=', ruleId)
        .where('account_id', '=', actor.accountId)
        .forUpdate()
        .executeTakeFirst();
      if (!current) throw notFound('message rule', ruleId);
      if (current.paused === paused) return toMessageRule(current);
      const now = clock.now();
      const updated = await trx
        .updateTable('message_rules')
        .set({ paused, paused_at: paused ? now : null, updated_at: now })
        .where('id', '=', current.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordAudit(trx, actor, {
        action: paused ? 'message_rule.pause' : 'message_rule.resume',
        targetType: 'message_rule',
        targetId: current.id,
      });
      return toMessageRule(updated);
    });
  }

  return {
    async list(actor, rawInput) {
      const input = parseInput(listMessageRulesInputSchema, rawInput);
      let query = db.selectFrom('message_rules').selectAll().where('account_id', '=', actor.accountId);
      if (input.listingId !== undefined) {
        const listingId = input.listingId;
        // Checked because all-listing rules would otherwise "apply" to any id, even one that is not ours.
        const listing = await db
          .selectFrom('listings')
          .select('id')
          .where('id', '=', listingId)
          .where('account_id', '=', actor.accountId)
          .executeTakeFirst();
        if (!listing) throw notFound('listing', listingId);
        query = query.where((eb) =>
          eb.or([
            eb('listing_ids', 'is', null),
            eb(sql<string>`${listingId}`, '=', sql<string>`any(listing_ids)`),
          ]),
        );
      }
      if (input.cursor !== undefined) {
        const [name, id] = decodeCursor(input.cursor, 2).map(String);
        query = query.where((eb) => eb(eb.refTuple('name', 'id'), '>', eb.tuple(name ?? '', id ?? '')));
      }
      const rows = await query
        .orderBy('name')
        .orderBy('id')
        .limit(input.limit + 1)
        .execute();
      return toPage(rows, input.limit, toMessageRule, (row) => [row.name, row.id]);
    },

    async create(actor, rawInput) {
      assertCanWrite(actor);
      const input = parseInput(createMessageRuleInputSchema, rawInput);
      const listingIds = input.listingIds === undefined ? null : [...new Set(input.listingIds)];
      const ruleChannels = input.channels === undefined ? null : [...new Set(input.channels)];
      return inTransaction(db, async (trx) => {
        if (listingIds !== null) {
          await assertListingsInAccount(trx, actor.accountId, listingIds);
        }
        const now = clock.now();
        const created = await trx
          .insertInto('message_rules')
          .values({
            id: newId('messageRule'),
            account_id: actor.accountId,
            name: input.name,
            trigger: input.trigger,
            offset_days: input.offsetDays,
            send_time: input.sendTime ?? null,
            body: input.body,
            last_minute_body: input.lastMinuteBody ?? null,
            listing_ids: listingIds,
            channels: ruleChannels,
            paused: false,
            paused_at: null,
            created_at: now,
            updated_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await recordAudit(trx, actor, {
          action: 'message_rule.create',
          targetType: 'message_rule',
          targetId: created.id,
          details: { name: input.name, trigger: input.trigger, offsetDays: input.offsetDays },
        });
        return toMessageRule(created);
      });
    },

    pause: (actor, input) => setPaused(actor, input, true),
    resume: (actor, input) => setPaused(actor, input, false),
  };
}

function toMessageRule(row: Selectable<MessageRulesTable>): MessageRule {
  return {
    id: row.id,
    name: row.name,
    trigger: row.trigger as MessageRuleTrigger,
    offsetDays: row.offset_days,
    sendTime: row.send_time,
    body: row.body,
    lastMinuteBody: row.last_minute_body,
    listingIds: row.listing_ids,
    channels: row.channels as Channel[] | null,
    paused: row.paused,
    pausedAt: row.paused_at === null ? null : row.paused_at.toISOString(),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
