import type { Arrival, Receiver } from './receiver.ts';

/** The arrivals of one phase held against the reservations it wrote. */
export interface CheckedArrivals {
  /** The first arrival for each written reservation. */
  readonly delivered: Map<string, Arrival>;
  /** Written reservations with no arrival. */
  readonly missing: string[];
  /** Arrivals of an event id that had already arrived. */
  readonly duplicates: number;
  /** Arrivals for no reservation of the phase. */
  readonly unexpected: number;
  readonly badSignatures: number;
  /** The first and last of the delivered arrivals' times (ms since the Unix epoch). */
  readonly firstArrivedAt: number;
  readonly lastArrivedAt: number;
}

/**
 * Takes the receiver's arrivals until one has come for each of `reservationIds` or `waitMs` has passed, and
 * then half a second more, so that a duplicate right behind the last delivery is counted too.
 */
export async function collectArrivals(
  receiver: Receiver,
  reservationIds: ReadonlySet<string>,
  waitMs: number,
): Promise<Arrival[]> {
  const arrivals: Arrival[] = [];
  const arrived = new Set<string>();
  const deadline = performance.now() + waitMs;
  while (performance.now() < deadline) {
    for (const arrival of receiver.take()) {
      arrivals.push(arrival);
      if (arrival.reservationId !== undefined) arrived.add(arrival.reservationId);
    }
    if ([...reservationIds].every((id) => arrived.has(id))) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  arrivals.push(...receiver.take());
  return arrivals;
}

/** Holds `arrivals` against the reservations written: each should arrive once, signed. */
export function checkArrivals(
  reservationIds: ReadonlySet<string>,
  arrivals: readonly Arrival[],
): CheckedArrivals {
  const delivered = new Map<string, Arrival>();
  const seenEvents = new Set<string>();
  let duplicates = 0;
  let unexpected = 0;
  for (const arrival of arrivals) {
    if (seenEvents.has(arrival.eventId)) duplicates += 1;
    seenEvents.add(arrival.eventId);
    if (arrival.reservationId === undefined || !reservationIds.has(arrival.reservationId)) unexpected += 1;
    else if (!delivered.has(arrival.reservationId)) delivered.set(arrival.reservationId, arrival);
  }
  const times = [...delivered.values()].map((arrival) => arrival.arrivedAt);
  return {
    delivered,
    missing: [...reservationIds].filter((id) => !delivered.has(id)),
    duplicates,
    unexpected,
    badSignatures: arrivals.filter((arrival) => !arrival.signatureValid).length,
    firstArrivedAt: Math.min(...times),
    lastArrivedAt: Math.max(...times),
  };
}

/** Whether every reservation arrived exactly once with a good signature, and nothing else came. */
export function allDeliveredOnce(checked: CheckedArrivals): boolean {
  return (
    checked.missing.length === 0 &&
    checked.duplicates === 0 &&
    checked.unexpected === 0 &&
    checked.badSignatures === 0
  );
}
