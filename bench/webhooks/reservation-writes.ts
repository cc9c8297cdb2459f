/** One stay to book: a listing and its check-in and check-out dates (YYYY-MM-DD). */
export interface Stay {
  readonly listingId: string;
  readonly startDate: string;
  readonly endDate: string;
}

/** A reservation the server booked, and when its answer came back. */
export interface CommittedWrite {
  readonly reservationId: string;
  /** When the 2xx answer arrived, in ms since the Unix epoch (sub-millisecond, this process's clock). */
  readonly committedAt: number;
}

/** What the writes did. */
export interface WriteResults {
  readonly committed: CommittedWrite[];
  /** Writes that did not answer 2xx, with the first few answers quoted. */
  readonly failures: number;
  readonly failureSamples: string[];
}

const nightsPerStay = 2;

/**
 * `count` two-night stays that overlap nothing: round-robin over `listingIds`, back to back on each listing
 * from `firstDate` (far enough ahead that the demo's bookings end before it).
 */
export function plannedStays(listingIds: readonly string[], count: number, firstDate: string): Stay[] {
  return Array.from({ length: count }, (_, index) => {
    const slot = Math.floor(index / listingIds.length);
    const startDate = addDays(firstDate, slot * nightsPerStay);
    return {
      listingId: listingIds[index % listingIds.length] as string,
      startDate,
      endDate: addDays(startDate, nightsPerStay),
    };
  });
}

/**
 * Books every stay over `POST /api/createReservation`, `writers` at a time. A write's commit time is taken as
 * the moment its 2xx answer arrives: the server answers just after its transaction commits, so latencies
 * measured from it are slightly understated.
 */
export async function writeReservations(options: {
  readonly baseUrl: string;
  readonly authToken: string;
  readonly stays: readonly Stay[];
  readonly writers: number;
}): Promise<WriteResults> {
  const committed: CommittedWrite[] = [];
  const failureSamples: string[] = [];
  let failures = 0;
  let next = 0;
  const writer = async () => {
    while (next < options.stays.length) {
      const stay = options.stays[next] as Stay;
      next += 1;
      const response = await fetch(`${options.baseUrl}/api/createReservation`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authToken: options.authToken },
        body: JSON.stringify({
          listingID: stay.listingId,
          startDate: stay.startDate,
          endDate: stay.endDate,
          firstName: 'Bench',
          lastName: `Guest ${next}`,
          guests: { adults: 2 },
          // A price given skips the quote, so dates beyond the calendar's prices can be booked.
          guestPrice: 300,
        }),
      });
      const answer = await response.text();
      const committedAt = performance.timeOrigin + performance.now();
      const reservationId = response.ok
        ? (JSON.parse(answer) as { reservationID?: string }).reservationID
        : undefined;
      if (reservationId === undefined) {
        failures += 1;
        if (failureSamples.length < 3) failureSamples.push(`${response.status} ${answer.slice(0, 300)}`);
        continue;
      }
      committed.push({ reservationId, committedAt });
    }
  };
  await Promise.all(Array.from({ length: options.writers }, writer));
  return { committed, failures, failureSamples };
}

/** `date` (YYYY-MM-DD) plus `days`. */
export function addDays(date: string, days: number): string {
  const day = new Date(`${date}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + days);
  return day.toISOString().slice(0, 10);
}
