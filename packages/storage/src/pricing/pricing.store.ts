import type { PricingRuleDefinition, StayQuote } from '@innkeep/domain';
import {
  applyPricingRuleChanges,
  assertCanWrite,
  createPricingRuleInputSchema,
  DomainError,
  decodeCursor,
  listPricingRulesInputSchema,
  newId,
  notFound,
  type PricingRule,
  type PricingUseCases,
  parseInput,
  pricingRuleRefInputSchema,
  type Quote,
  quoteInputSchema,
  reorderPricingRulesInputSchema,
  toMajorUnits,
  toPage,
  updatePricingRuleInputSchema,
} from '@innkeep/domain';
import { type Insertable, sql } from 'kysely';
import type { Executor, PricingRulesTable } from '../database.ts';
import { assertListingsInAccount } from '../listings/listings.store.ts';
import type { StoreDeps } from '../store-deps.ts';
import { inTransaction, recordAudit } from '../transaction.ts';
import { findListingRowOrThrow, toPricingRule } from './pricing-inputs.ts';
import { quoteStay } from './quote.store.ts';

/** Pricing use cases over PostgreSQL: quotes and pricing rules. */
export function createPricingUseCases({ db, clock }: StoreDeps): PricingUseCases {
  return {
    async getQuote(actor, rawInput) {
      const input = parseInput(quoteInputSchema, rawInput);
      return toQuote(await quoteStay(db, actor.accountId, clock, input));
    },

    async listRules(actor, rawInput) {
      const input = parseInput(listPricingRulesInputSchema, rawInput);
      let query = db
        .selectFrom('pricing_rules')
        .selectAll()
        // Full-precision text of created_at, so the cursor finds the exact row again.
        .select(sql<string>`created_at::text`.as('created_at_key'))
        .where('account_id', '=', actor.accountId);
      if (input.listingId !== undefined) {
        const listing = await findListingRowOrThrow(db, actor.accountId, input.listingId);
        query = query.where((eb) =>
          eb.or([eb('listing_ids', 'is', null), eb(eb.val(listing.id), '=', eb.fn.any('listing_ids'))]),
        );
      }
      if (input.cursor !== undefined) {
        const [position, createdAt, id] = decodeCursor(input.cursor, 3);
        query = query.where(
          sql<boolean>`(position, created_at, id) > (${Number(position)}, ${String(createdAt)}::timestamptz, ${String(id)})`,
        );
      }
      const rows = await query
        .orderBy('position')
        .orderBy('created_at')
        .orderBy('id')
        .limit(input.limit + 1)
        .execute();
      return toPage(rows, input.limit, toPricingRule, (row) => [row.position, row.created_at_key, row.id]);
    },

    async createRule(actor, rawInput) {
      assertCanWrite(actor);
      const input = parseInput(createPricingRuleInputSchema, rawInput);
      return inTransaction(db, async (trx) => {
        // Locking the account serializes rule creation, so each new rule really lands last.
        await lockAccountRules(trx, actor.accountId);
        if (input.listingIds !== undefined) {
          await assertListingsInAccount(trx, actor.accountId, input.listingIds);
        }
        const last = await trx
          .selectFrom('pricing_rules')
          .select((eb) => eb.fn.max('position').as('position'))
          .where('account_id', '=', actor.accountId)
          .executeTakeFirst();
        const id = newId('pricingRule');
        const row = await trx
          .insertInto('pricing_rules')
          .values({
            id,
            account_id: actor.accountId,
            position: (last?.position ?? 0) + 1,
            ...ruleColumns(input),
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await recordAudit(trx, actor, {
          action: 'pricing_rule.create',
          targetType: 'pricing_rule',
          targetId: id,
          details: { rule: input },
        });
        return toPricingRule(row);
      });
    },

    async updateRule(actor, rawInput) {
      assertCanWrite(actor);
      const { ruleId, ...changes } = parseInput(updatePricingRuleInputSchema, rawInput);
      return inTransaction(db, async (trx) => {
        const current = await trx
          .selectFrom('pricing_rules')
          .selectAll()
          .where('id', '=', ruleId)
          .where('account_id', '=', actor.accountId)
          .forUpdate()
          .executeTakeFirst();
        if (!current) throw notFound('pricing rule', ruleId);
        const changed = applyPricingRuleChanges(toPricingRule(current), changes);
        if (changes.listingIds) await assertListingsInAccount(trx, actor.accountId, changes.listingIds);
        const row = await trx
          .updateTable('pricing_rules')
          .set({
            ...ruleColumns(changed),
            // The database's clock, like created_at's default, so updatedAt never precedes createdAt.
            updated_at: sql<Date>`now()`,
          })
          .where('id', '=', current.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        await recordAudit(trx, actor, {
          action: 'pricing_rule.update',
          targetType: 'pricing_rule',
          targetId: current.id,
          details: { changed: changes },
        });
        return toPricingRule(row);
      });
    },

    async deleteRule(actor, rawInput) {
      assertCanWrite(actor);
      const { ruleId } = parseInput(pricingRuleRefInputSchema, rawInput);
      return inTransaction(db, async (trx) => {
        // The same lock as create and reorder take, so positions are renumbered by one writer at a time.
        await lockAccountRules(trx, actor.accountId);
        const deleted = await trx
          .deleteFrom('pricing_rules')
          .where('id', '=', ruleId)
          .where('account_id', '=', actor.accountId)
          .returning(['id', 'name', 'position'])
          .executeTakeFirst();
        if (!deleted) throw notFound('pricing rule', ruleId);
        // Closing the gap keeps positions 1…n, as create assumes, and leaves the others' order as it was.
        await trx
          .updateTable('pricing_rules')
          .set((eb) => ({ position: eb('position', '-', 1) }))
          .where('account_id', '=', actor.accountId)
          .where('position', '>', deleted.position)
          .execute();
        await recordAudit(trx, actor, {
          action: 'pricing_rule.delete',
          targetType: 'pricing_rule',
          targetId: deleted.id,
          details: { name: deleted.name },
        });
        return { id: deleted.id, deleted: true } as const;
      });
    },

    async reorderRules(actor, rawInput) {
      assertCanWrite(actor);
      const { ruleIds } = parseInput(reorderPricingRulesInputSchema, rawInput);
      return inTransaction(db, async (trx) => {
        await lockAccountRules(trx, actor.accountId);
        const existing = await trx
          .selectFrom('pricing_rules')
          .select('id')
          .where('account_id', '=', actor.accountId)
          .orderBy('position')
          .orderBy('created_at')
          .orderBy('id')
          .execute();
        assertCompleteOrder(
          existing.map((row) => row.id),
          ruleIds,
        );
        // Only rules whose place changes count as updated.
        await sql`
          update pricing_rules
          set position = wanted.position, updated_at = now()
          from unnest(${ruleIds}::text[]) with ordinality as wanted (id, position)
          where pricing_rules.id = wanted.id
            and pricing_rules.account_id = ${actor.accountId}
            and pricing_rules.position <> wanted.position`.execute(trx);
        await recordAudit(trx, actor, {
          action: 'pricing_rule.reorder',
          targetType: 'pricing_rule',
          targetId: null,
          details: { ruleIds },
        });
        return listAllRules(trx, actor.accountId);
      });
    },
  };
}

/** The stored columns of a rule's definition; days of the week are kept sorted. */
function ruleColumns(
  rule: PricingRuleDefinition,
): Omit<Insertable<PricingRulesTable>, 'id' | 'account_id' | 'position'> {
  return {
    name: rule.name,
    enabled: rule.enabled,
    listing_ids: rule.listingIds ?? null,
    adjustment_kind: rule.adjustment.kind,
    adjustment_amount: rule.adjustment.amount,
    days_of_week: rule.daysOfWeek ? [...rule.daysOfWeek].sort((a, b) => a - b) : null,
    start_date: rule.startDate ?? null,
    end_date: rule.endDate ?? null,
    last_minute_days: rule.lastMinuteDays ?? null,
    orphan_gap_max_nights: rule.orphanGapMaxNights ?? null,
  };
}

/**
 * Locks the account row until the transaction ends. Every write that assigns positions (create, delete,
 * reorder) takes it first, so each sees the positions the previous one left. `no key update` still lets
 * inserts that refer to the account (the audit log's) through: an update holding a rule's row lock while it
 * audits therefore never waits on a reorder that waits on that rule.
 */
async function lockAccountRules(trx: Executor, accountId: string): Promise<void> {
  await trx.selectFrom('accounts').select('id').where('id', '=', accountId).forNoKeyUpdate().execute();
}

/**
 * Refuses a new order that is not exactly the account's rules: `invalid_argument` naming the rules left out
 * and the ids that are not rules of this account (another account's rules read as unknown, like any id).
 */
function assertCompleteOrder(existingIds: readonly string[], orderedIds: readonly string[]): void {
  const existing = new Set(existingIds);
  const ordered = new Set(orderedIds);
  const missingRuleIds = existingIds.filter((id) => !ordered.has(id));
  const unknownRuleIds = orderedIds.filter((id) => !existing.has(id));
  if (missingRuleIds.length === 0 && unknownRuleIds.length === 0) return;
  const problems = [
    missingRuleIds.length > 0 ? `missing ${missingRuleIds.join(', ')}` : null,
    unknownRuleIds.length > 0 ? `not pricing rules of this account: ${unknownRuleIds.join(', ')}` : null,
  ].filter((problem) => problem !== null);
  throw new DomainError(
    'invalid_argument',
    `ruleIds must list each of the account's ${existingIds.length} pricing rules exactly once — ${problems.join('; ')}.`,
    { details: { missingRuleIds, unknownRuleIds } },
  );
}

/** Every rule of the account in application order. */
async function listAllRules(db: Executor, accountId: string): Promise<PricingRule[]> {
  const rows = await db
    .selectFrom('pricing_rules')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('position')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toPricingRule);
}

/** A stay quote in major units, as the routes return it. */
export function toQuote(quote: StayQuote): Quote {
  const money = (minor: number) => toMajorUnits(minor, quote.currency);
  return {
    listingId: quote.listingId,
    currency: quote.currency,
    startDate: quote.startDate,
    endDate: quote.endDate,
    nights: quote.nights,
    guests: quote.guests,
    nightly: quote.nightly.map((night) => ({ date: night.date, price: money(night.priceMinor) })),
    accommodation: money(quote.accommodationMinor),
    discount: money(quote.discountMinor),
    cleaningFee: money(quote.cleaningFeeMinor),
    extraGuestFee: money(quote.extraGuestFeeMinor),
    taxes: money(quote.taxesMinor),
    total: money(quote.totalMinor),
    lineItems: quote.lineItems.map((item) => ({
      type: item.type,
      name: item.name,
      amount: money(item.amountMinor),
    })),
  };
}
