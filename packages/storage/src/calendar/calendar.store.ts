import type { Clock } from '@innkeep/domain';
import {
  type Actor,
  addDays,
  assertCanWrite,
  assertNotBeforeToday,
  type CalendarDay,
  type CalendarHold,
  type CalendarUseCases,
  type ChangedDay,
  channelNightPrice,
  channels,
  DomainError,
  daysBetween,
  getCalendarInputSchema,
  holdConflict,
  type LocalDate,
  maxDate,
  minDate,
  type NightlyPrice,
  newId,
  nightsOf,
  type PriceEntry,
  type PriceOutcome,
  type PriceStep,
  parseInput,
  priceNights,
  setAvailabilityInputSchema,
  setPricesInputSchema,
  toMajorUnits,
  toMinorUnits,
} from '@innkeep/domain';
import type { Insertable } from 'kysely';
import type { CalendarDaysTable, Executor, ListingRow } from '../database.ts';
import {
  findListingRowOrThrow,
  holdOn,
  type LoadedPricing,
  loadHolds,
  loadPricing,
} from '../pricing/pricing-inputs.ts';
import type { StoreDeps } from '../store-deps.ts';
import { inTransaction, isOverlapViolation, recordAudit } from '../transaction.ts';
import { recordEvent } from '../webhooks/record-event.ts';

/** Calendar use cases over PostgreSQL. */
export function createCalendarUseCases({ db, clock }: StoreDeps): CalendarUseCases {
  return {
    async get(actor, rawInput) {
      const input = parseInput(getCalendarInputSchema, rawInput);
      const listing = await findListingRowOrThrow(db, actor.accountId, input.listingId);
      const to = addDays(input.endDate, 1);
      const loaded = await loadPricing(db, listing, clock.now(), { from: input.startDate, to });
      return {
        listingId: listing.id,
        currency: listing.currency,
        timeZone: listing.time_zone,
        days: toCalendarDays(listing, loaded, priceNights(loaded.inputs, nightsOf(input.startDate, to))),
      };
    },

    async setPrices(actor, rawInput) {
      assertCanWrite(actor);
      const input = parseInput(setPricesInputSchema, rawInput);
      return inTransaction(db, async (trx) => {
        const listing = await findListingRowOrThrow(trx, actor.accountId, input.listingId, {
          forUpdate: true,
        });
        assertNotPast(
          listing,
          clock,
          input.prices.map((entry) => entry.date),
        );
        const prices = input.prices.map((entry, index) => ({
          ...entry,
          priceMinor: toEntryMinor(entry.price, listing.currency, index),
        }));

        const dayEntries = prices.filter((entry) => entry.channel === undefined);
        if (dayEntries.length > 0) {
          const existing = await trx
            .selectFrom('calendar_days')
            .selectAll()
            .where('listing_id', '=', listing.id)
            .where(
              'date',
              'in',
              dayEntries.map((entry) => entry.date),
            )
            .execute();
          const byDate = new Map(existing.map((row) => [row.date, row]));
          const upserts: Insertable<CalendarDaysTable>[] = [];
          const cleared: LocalDate[] = [];
          for (const entry of dayEntries) {
            const current = byDate.get(entry.date);
            const next = {
              listing_id: listing.id,
              date: entry.date,
              price_minor: entry.priceMinor === undefined ? (current?.price_minor ?? null) : entry.priceMinor,
              min_nights: entry.minNights === undefined ? (current?.min_nights ?? null) : entry.minNights,
              closed_to_arrival: entry.closedToArrival ?? current?.closed_to_arrival ?? false,
              closed_to_departure: entry.closedToDeparture ?? current?.closed_to_departure ?? false,
              note: current?.note ?? null,
              updated_at: new Date(),
            };
            // A row equal to the defaults says nothing; "no row" is how the schema spells "defaults".
            const isDefault =
              next.price_minor === null &&
              next.min_nights === null &&
              !next.closed_to_arrival &&
              !next.closed_to_departure &&
              next.note === null;
            if (isDefault) cleared.push(entry.date);
            else upserts.push(next);
          }
          if (upserts.length > 0) {
            await trx
              .insertInto('calendar_days')
              .values(upserts)
              .onConflict((conflict) =>
                conflict.columns(['listing_id', 'date']).doUpdateSet((eb) => ({
                  price_minor: eb.ref('excluded.price_minor'),
                  min_nights: eb.ref('excluded.min_nights'),
                  closed_to_arrival: eb.ref('excluded.closed_to_arrival'),
                  closed_to_departure: eb.ref('excluded.closed_to_departure'),
                  updated_at: eb.ref('excluded.updated_at'),
                })),
              )
              .execute();
          }
          if (cleared.length > 0) {
            await trx
              .deleteFrom('calendar_days')
              .where('listing_id', '=', listing.id)
              .where('date', 'in', cleared)
              .execute();
          }
        }

        const channelSets = prices.flatMap((entry) =>
          entry.channel !== undefined && entry.priceMinor !== undefined && entry.priceMinor !== null
            ? [
                {
                  listing_id: listing.id,
                  date: entry.date,
                  channel: entry.channel,
                  price_minor: entry.priceMinor,
                },
              ]
            : [],
        );
        if (channelSets.length > 0) {
          await trx
            .insertInto('calendar_channel_prices')
            .values(channelSets)
            .onConflict((conflict) =>
              conflict
                .columns(['listing_id', 'date', 'channel'])
                .doUpdateSet((eb) => ({ price_minor: eb.ref('excluded.price_minor') })),
            )
            .execute();
        }
        for (const entry of prices) {
          if (entry.channel === undefined || entry.priceMinor !== null) continue;
          await trx
            .deleteFrom('calendar_channel_prices')
            .where('listing_id', '=', listing.id)
            .where('date', '=', entry.date)
            .where('channel', '=', entry.channel)
            .execute();
        }

        await recordAudit(trx, actor, {
          action: 'calendar.set_prices',
          targetType: 'listing',
          targetId: listing.id,
          details: { prices: input.prices },
        });

        const dates = [...new Set(prices.map((entry) => entry.date))].sort();
        const first = dates[0] ?? '';
        const last = dates[dates.length - 1] ?? first;
        await recordEvent(trx, {
          accountId: actor.accountId,
          event: 'calendar.updated',
          data: { listingId: listing.id, startDate: first, endDate: last, change: 'prices' },
        });
        const loaded = await loadPricing(trx, listing, clock.now(), { from: first, to: addDays(last, 1) });
        const nights = priceNights(loaded.inputs, dates);
        const outcomes = nights.map((night) =>
          input.prices.flatMap((entry) =>
            entry.date === night.date && entry.price !== undefined
              ? [priceOutcome(listing, loaded, night, entry)]
              : [],
          ),
        );
        return toCalendarDays(listing, loaded, nights).map(
          (day, index): ChangedDay => ({ ...day, priceOutcomes: outcomes[index] ?? [] }),
        );
      });
    },

    async setAvailability(actor, rawInput) {
      assertCanWrite(actor);
      const input = parseInput(setAvailabilityInputSchema, rawInput);
      return inTransaction(db, async (trx) => {
        const listing = await findListingRowOrThrow(trx, actor.accountId, input.listingId, {
          forUpdate: true,
        });
        assertNotPast(listing, clock, [input.startDate]);
        const rangeEnd = addDays(input.endDate, 1);
        const holds = await loadHolds(trx, listing, input.startDate, rangeEnd);
        const reservations = holds.filter((hold) => hold.kind === 'reservation');
        // Nights a channel's calendar holds are the channel's: opening them here would last only until the
        // next poll, and blocking them again would say nothing more. They stay as they are either way.
        const channelHolds = holds.filter((hold) => hold.blockReason === 'channel');
        const blocks = holds.filter((hold) => hold.kind === 'block' && hold.blockReason !== 'channel');
        const blockedNights = blocks.reduce(
          (sum, block) => sum + overlapNights(block, input.startDate, rangeEnd),
          0,
        );

        if (!input.available && reservations.length > 0) {
          throw holdConflict(
            `Cannot block ${input.startDate} to ${input.endDate}; reservations hold some of those nights`,
            reservations,
            'Nothing was changed. Block the nights around the reservations, or move or cancel them first.',
          );
        }
        await trimBlocks(trx, blocks, input.startDate, rangeEnd);

        let changedNights: number;
        let stillBookedNights: LocalDate[] = [];
        if (input.available) {
          changedNights = blockedNights;
          stillBookedNights = [...reservations, ...channelHolds]
            .flatMap((hold) =>
              nightsOf(maxDate(hold.startDate, input.startDate), minDate(hold.endDate, rangeEnd)),
            )
            .sort();
        } else {
          const channelNights = channelHolds.reduce(
            (sum, hold) => sum + overlapNights(hold, input.startDate, rangeEnd),
            0,
          );
          changedNights = daysBetween(input.startDate, rangeEnd) - blockedNights - channelNights;
          for (const piece of rangesAround(input.startDate, rangeEnd, channelHolds)) {
            await insertBlock(trx, actor, listing, {
              ...piece,
              reason: input.reason,
              note: input.note ?? null,
            });
          }
        }

        await recordAudit(trx, actor, {
          action: 'calendar.set_availability',
          targetType: 'listing',
          targetId: listing.id,
          details: {
            startDate: input.startDate,
            endDate: input.endDate,
            available: input.available,
            reason: input.available ? null : input.reason,
            changedNights,
          },
        });
        // Opening nights none of which was blocked changes nothing; a block always rewrites the range's blocks
        // (their reason and note), so it is always news.
        if (!input.available || changedNights > 0) {
          await recordEvent(trx, {
            accountId: actor.accountId,
            event: 'calendar.updated',
            data: {
              listingId: listing.id,
              startDate: input.startDate,
              endDate: input.endDate,
              change: 'availability',
            },
          });
        }
        return {
          listingId: listing.id,
          startDate: input.startDate,
          endDate: input.endDate,
          available: input.available,
          changedNights,
          stillBookedNights,
        };
      });
    },
  };
}

/** The calendar days of `nights`, priced by the engine from `loaded`. */
function toCalendarDays(
  listing: ListingRow,
  loaded: LoadedPricing,
  nights: readonly NightlyPrice[],
): CalendarDay[] {
  const money = (minor: number) => toMajorUnits(minor, listing.currency);
  return nights.map((night) => {
    const hold = holdOn(loaded.holds, night.date);
    const day = loaded.days.get(night.date);
    const channelPrices: CalendarDay['channelPrices'] = {};
    const own = loaded.channelPrices.get(night.date) ?? {};
    for (const channel of channels) {
      const price = own[channel];
      if (price !== undefined) {
        channelPrices[channel] = money(channelNightPrice(night.priceMinor, price, listing.min_price_minor));
      }
    }
    return {
      date: night.date,
      status: hold === undefined ? 'available' : hold.kind === 'reservation' ? 'booked' : 'blocked',
      reservationId: hold?.reservationId ?? null,
      blockReason: hold?.blockReason ?? null,
      price: money(night.priceMinor),
      minNights: day?.min_nights ?? listing.min_nights,
      closedToArrival: day?.closed_to_arrival ?? false,
      closedToDeparture: day?.closed_to_departure ?? false,
      channelPrices,
      appliedRuleIds: night.appliedRuleIds,
      note: hold?.kind === 'block' && hold.note !== null ? hold.note : (day?.note ?? null),
    };
  });
}

/**
 * What came of one price a setPrices entry set on `night`: the price asked, the price the night now starts
 * from, what a guest pays, and each pricing rule or floor in between, from the engine's own steps. A
 * channel's own price takes no rules, only the floor; a removed channel price follows the every-channel one.
 */
function priceOutcome(
  listing: ListingRow,
  loaded: LoadedPricing,
  night: NightlyPrice,
  entry: PriceEntry,
): PriceOutcome {
  const money = (minor: number) => toMajorUnits(minor, listing.currency);
  const floorStep: PriceStep = {
    by: 'minimum_price',
    name:
      (listing.min_price_minor ?? 0) > 0 ? 'the listing’s minimum price' : 'zero (no price goes below it)',
    priceAfter: money(Math.max(listing.min_price_minor ?? 0, 0)),
  };
  const asked = {
    ...(entry.channel === undefined ? {} : { channel: entry.channel }),
    askedPrice: entry.price ?? null,
  };
  const channelMinor =
    entry.channel === undefined ? undefined : loaded.channelPrices.get(night.date)?.[entry.channel];
  if (channelMinor !== undefined) {
    const guestMinor = channelNightPrice(night.priceMinor, channelMinor, listing.min_price_minor);
    return {
      ...asked,
      storedPrice: money(channelMinor),
      guestPrice: money(guestMinor),
      steps: guestMinor > channelMinor ? [floorStep] : [],
    };
  }
  const ruleSteps = night.ruleSteps.map(
    (step): PriceStep => ({
      by: 'pricing_rule',
      ruleId: step.ruleId,
      name: loaded.ruleNames.get(step.ruleId) ?? step.ruleId,
      priceAfter: money(step.priceAfterMinor),
    }),
  );
  return {
    ...asked,
    storedPrice: money(night.startMinor),
    guestPrice: money(night.priceMinor),
    steps: night.floorApplied ? [...ruleSteps, floorStep] : ruleSteps,
  };
}

/** Refuses changes to nights before the listing's local today; they are history. */
function assertNotPast(listing: ListingRow, clock: Clock, dates: readonly LocalDate[]): void {
  assertNotBeforeToday(
    listing.time_zone,
    clock.now(),
    dates,
    "Nights before the listing's today cannot be changed",
  );
}

function toEntryMinor(
  price: number | null | undefined,
  currency: string,
  index: number,
): number | null | undefined {
  if (price === undefined || price === null) return price;
  try {
    return toMinorUnits(price, currency);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    throw new DomainError('invalid_argument', `prices.${index}.price: ${error.message}`, {
      details: { issues: [{ path: `prices.${index}.price`, message: error.message }] },
    });
  }
}

/** Nights of `hold` from `from` up to (not including) `to`. */
function overlapNights(hold: CalendarHold, from: LocalDate, to: LocalDate): number {
  return Math.max(0, daysBetween(maxDate(hold.startDate, from), minDate(hold.endDate, to)));
}

/** The pieces of `[from, to)` that none of `holds` (sorted by start) takes. */
function rangesAround(
  from: LocalDate,
  to: LocalDate,
  holds: readonly CalendarHold[],
): { startDate: LocalDate; endDate: LocalDate }[] {
  const pieces: { startDate: LocalDate; endDate: LocalDate }[] = [];
  let cursor = from;
  for (const hold of holds) {
    if (hold.startDate > cursor) pieces.push({ startDate: cursor, endDate: minDate(hold.startDate, to) });
    cursor = maxDate(cursor, hold.endDate);
  }
  if (cursor < to) pieces.push({ startDate: cursor, endDate: to });
  return pieces;
}

/** Cuts `[from, to)` out of each block: blocks inside go, blocks across an edge shrink, a block around it splits. */
async function trimBlocks(
  trx: Executor,
  blocks: readonly CalendarHold[],
  from: LocalDate,
  to: LocalDate,
): Promise<void> {
  for (const block of blocks) {
    const left = block.startDate < from ? { startDate: block.startDate, endDate: from } : null;
    const right = block.endDate > to ? { startDate: to, endDate: block.endDate } : null;
    const kept = left ?? right;
    if (kept === null) {
      await trx.deleteFrom('calendar_holds').where('id', '=', block.id).execute();
      continue;
    }
    // Shrink first, then add the right-hand piece, so the pieces never overlap at any moment.
    await trx
      .updateTable('calendar_holds')
      .set({ nights: rangeLiteral(kept.startDate, kept.endDate) })
      .where('id', '=', block.id)
      .execute();
    if (left !== null && right !== null) {
      const row = await trx
        .selectFrom('calendar_holds')
        .selectAll()
        .where('id', '=', block.id)
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('calendar_holds')
        .values({ ...row, id: newId('block'), nights: rangeLiteral(right.startDate, right.endDate) })
        .execute();
    }
  }
}

async function insertBlock(
  trx: Executor,
  actor: Actor,
  listing: ListingRow,
  block: { startDate: LocalDate; endDate: LocalDate; reason: string; note: string | null },
): Promise<void> {
  try {
    await trx
      .insertInto('calendar_holds')
      .values({
        id: newId('block'),
        account_id: listing.account_id,
        listing_id: listing.id,
        nights: rangeLiteral(block.startDate, block.endDate),
        kind: 'block',
        reservation_id: null,
        block_reason: block.reason,
        note: block.note,
        created_by: actor.userId,
      })
      .execute();
  } catch (error) {
    // A reservation booked between our read and this insert: the exclusion constraint caught it.
    if (!isOverlapViolation(error)) throw error;
    throw new DomainError(
      'conflict',
      `A reservation took some nights between ${block.startDate} and ${block.endDate} just now; nothing was ` +
        'changed. Read the calendar again and block around it.',
      { cause: error, details: { startDate: block.startDate, endDate: block.endDate } },
    );
  }
}

function rangeLiteral(startDate: LocalDate, endDate: LocalDate): string {
  return `[${startDate},${endDate})`;
}
