import type { Channel } from '@innkeep/domain';
import {
  type Actor,
  applyMessageRuleChanges,
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
  updateMessageRuleInputSchema,
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

    async update(actor, rawInput) {
      assertCanWrite(actor);
      const { ruleId, ...changes } = parseInput(updateMessageRuleInputSchema, rawInput);
      return inTransaction(db, async (trx) => {
        const current = await trx
          .selectFrom('message_rules')
          .selectAll()
          .where('id', '=', ruleId)
          .where('account_id', '=', actor.accountId)
          .forUpdate()
          .executeTakeFirst();
        if (!current) throw notFound('message rule', ruleId);
        const changed = applyMessageRuleChanges(toMessageRule(current), changes);
        const listingIds = changed.listingIds === undefined ? null : [...new Set(changed.listingIds)];
        if (changes.listingIds && listingIds !== null) {
          await assertListingsInAccount(trx, actor.accountId, listingIds);
        }
        // The rule keeps its id, so the runner's record of who already got it still holds: an edited text
        // goes to guests not yet written to, never a second time to the others.
        const updated = await trx
          .updateTable('message_rules')
          .set({
            name: changed.name,
            trigger: changed.trigger,
            offset_days: changed.offsetDays,
            send_time: changed.sendTime ?? null,
            body: changed.body,
            last_minute_body: changed.lastMinuteBody ?? null,
            listing_ids: listingIds,
            channels: changed.channels === undefined ? null : [...new Set(changed.channels)],
            updated_at: clock.now(),
          })
          .where('id', '=', current.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        await recordAudit(trx, actor, {
          action: 'message_rule.update',
          targetType: 'message_rule',
          targetId: current.id,
          // Field names and the rule's outline as create logs it; texts stay out of the log, as on create.
          details: {
            changedFields: Object.entries(changes)
              .filter(([, value]) => value !== undefined)
              .map(([field]) => field),
            name: changed.name,
            trigger: changed.trigger,
            offsetDays: changed.offsetDays,
          },
        });
        return toMessageRule(updated);
      });
    },

    async delete(actor, rawInput) {
      assertCanWrite(actor);
      const { ruleId } = parseInput(messageRuleRefInputSchema, rawInput);
      return inTransaction(db, async (trx) => {
        // Messages the rule sent stay in their threads: their message_rule_id is set to null by the foreign
        // key (on delete set null), and the runner locks the rules it sends for before writing, so a run
        // racing this delete drops the rule's messages instead of failing on the missing rule.
        const deleted = await trx
          .deleteFrom('message_rules')
          .where('id', '=', ruleId)
          .where('account_id', '=', actor.accountId)
          .returning(['id', 'name'])
          .executeTakeFirst();
        if (!deleted) throw notFound('message rule', ruleId);
        await recordAudit(trx, actor, {
          action: 'message_rule.delete',
          targetType: 'message_rule',
          targetId: deleted.id,
          details: { name: deleted.name },
        });
        return { id: deleted.id, deleted: true } as const;
      });
    },
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
