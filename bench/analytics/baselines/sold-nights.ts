import { dayNumber, type NightRange } from '../local-dates.ts';
import {
  fetchLineItems,
  fetchNightlyRates,
  fetchReservations,
  type LineItemRow,
  type NightlyRateRow,
  type ReservationRow,
} from '../raw-rows.ts';
import type { BenchContext } from '../tool-case.ts';

/** One sold night in the period with its share of the stay's money, in minor units. */
export interface SoldNight {
  readonly reservationId: string;
  readonly listingId: string;
  readonly channel: string;
  readonly currency: string;
  readonly night: string;
  readonly accommodation: number;
  readonly fees: number;
  readonly channelFees: number;
  readonly payout: number;
}

// Line items that are the host's fees in total revenue; a negative host service fee is the channel's cut.
const feeTypes = new Set(['cleaning_fee', 'extra_guest_fee', 'pet_fee', 'other']);

/**
 * The sold (accepted) nights in `range` with their money, computed in JavaScript from reservations, their
 * nightly rates and their line items: rent as charged for the night; stay-level fees, channel fees and
 * payout split evenly over the stay's nights, the leftover cents on its first nights.
 */
export async function fetchSoldNights(context: BenchContext, range: NightRange): Promise<SoldNight[]> {
  const [reservations, rates, lineItems] = await Promise.all([
    fetchReservations(context.db, context.accountId, range),
    fetchNightlyRates(context.db, context.accountId, range),
    fetchLineItems(context.db, context.accountId, range),
  ]);
  return soldNightsOf(reservations, rates, lineItems);
}

/** {@link fetchSoldNights} on rows already fetched. */
export function soldNightsOf(
  reservations: readonly ReservationRow[],
  rates: readonly NightlyRateRow[],
  lineItems: readonly LineItemRow[],
): SoldNight[] {
  const sold = new Map<string, ReservationRow>();
  for (const reservation of reservations)
    if (reservation.status === 'accepted') sold.set(reservation.id, reservation);
  const stayMoney = new Map<string, { fees: number; channelFees: number }>();
  for (const item of lineItems) {
    if (!sold.has(item.reservation_id)) continue;
    const money = stayMoney.get(item.reservation_id) ?? { fees: 0, channelFees: 0 };
    if (feeTypes.has(item.type)) money.fees += item.amount_minor;
    else if (item.type === 'host_service_fee') money.channelFees -= item.amount_minor;
    stayMoney.set(item.reservation_id, money);
  }
  const nights: SoldNight[] = [];
  for (const rate of rates) {
    const reservation = sold.get(rate.reservation_id);
    if (reservation === undefined) continue;
    const money = stayMoney.get(reservation.id) ?? { fees: 0, channelFees: 0 };
    const index = dayNumber(rate.night) - dayNumber(reservation.start_date);
    nights.push({
      reservationId: reservation.id,
      listingId: reservation.listing_id,
      channel: reservation.channel,
      currency: reservation.currency,
      night: rate.night,
      accommodation: rate.accommodation_minor,
      fees: evenShare(money.fees, reservation.nights, index),
      channelFees: evenShare(money.channelFees, reservation.nights, index),
      payout: evenShare(reservation.host_payout_minor, reservation.nights, index),
    });
  }
  return nights;
}

/** Night `index`'s share of `total` split evenly over `nights`, the remainder on the first nights. */
function evenShare(total: number, nights: number, index: number): number {
  const remainder = ((total % nights) + nights) % nights;
  return (total - remainder) / nights + (index < remainder ? 1 : 0);
}
