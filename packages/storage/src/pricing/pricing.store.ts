import type { StayQuote } from '@innkeep/domain';
import {
  assertCanWrite,
  createPricingRuleInputSchema,
  decodeCursor,
  listPricingRulesInputSchema,
  newId,
  type PricingUseCases,
  parseInput,
  type Quote,
  quoteInputSchema,
  toMajorUnits,
  toPage,
} from '@innkeep/domain';
import { sql } from 'kysely';
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
        await trx.selectFrom('accounts').select('id').where('id', '=', actor.accountId).forUpdate().execute();
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
            name: input.name,
            position: (last?.position ?? 0) + 1,
            enabled: input.enabled,
            listing_ids: input.listingIds ?? null,
            adjustment_kind: input.adjustment.kind,
            adjustment_amount: input.adjustment.amount,
            days_of_week: input.daysOfWeek ? [...input.daysOfWeek].sort((a, b) => a - b) : null,
            start_date: input.startDate ?? null,
            end_date: input.endDate ?? null,
            last_minute_days: input.lastMinuteDays ?? null,
            orphan_gap_max_nights: input.orphanGapMaxNights ?? null,
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
  };
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
