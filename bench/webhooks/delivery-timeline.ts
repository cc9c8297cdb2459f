import pg from 'pg';

/** What the server recorded about one reservation's delivery, its times in ms since the Unix epoch. */
export interface RecordedDelivery {
  readonly reservationId: string;
  /** When the write stamped its event (inside the write's transaction). */
  readonly eventCreatedAt: number;
  /** When a tick fanned the event out into a delivery. */
  readonly dispatchedAt: number;
  /** How long the sender's attempt took, connect to answer. */
  readonly sendMs: number;
  /** When the attempt's outcome was recorded (after the answer, in its own transaction). */
  readonly deliveredAt: number | undefined;
  readonly attempts: number;
}

/**
 * Reads, from the benchmark database, when each `reservation.created` event was stamped, fanned out and
 * recorded as delivered. The server's times are its wall clock on this machine, the same clock the bench
 * stamps with, to the millisecond.
 */
export async function recordedDeliveries(databaseUrl: string): Promise<Map<string, RecordedDelivery>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{
      reservation_id: string;
      created: Date;
      dispatched_at: Date;
      last_latency_ms: number | null;
      delivered_at: Date | null;
      attempts: number;
    }>(
      `select e.data->>'reservationId' as reservation_id, e.created, e.dispatched_at, d.last_latency_ms,
              d.delivered_at, d.attempts
         from webhook_events e
         join webhook_deliveries d on d.event_id = e.id
        where e.event = 'reservation.created'`,
    );
    return new Map(
      rows.map((row) => [
        row.reservation_id,
        {
          reservationId: row.reservation_id,
          eventCreatedAt: row.created.getTime(),
          dispatchedAt: row.dispatched_at.getTime(),
          sendMs: row.last_latency_ms ?? Number.NaN,
          deliveredAt: row.delivered_at?.getTime(),
          attempts: row.attempts,
        },
      ]),
    );
  } finally {
    await client.end();
  }
}
