import os from 'node:os';
import type { CheckedArrivals } from './arrival-check.ts';
import type { RecordedDelivery } from './delivery-timeline.ts';
import type { JobSample } from './job-sampler.ts';
import type { WriteResults } from './reservation-writes.ts';
import type { TransportCeiling } from './transport-ceiling.ts';

const targetDeliveriesPerSecond = 500;
const targetP99Ms = 1_000;

/** What the streaming phase measured: writes and deliveries at once. */
export interface StreamingResults {
  readonly writes: number;
  readonly writers: number;
  readonly deliveryWaitMs: number;
  readonly writesStarted: number;
  readonly writesEnded: number;
  readonly written: WriteResults;
  readonly checked: CheckedArrivals;
  readonly recorded: ReadonlyMap<string, RecordedDelivery>;
  readonly jobSamples: readonly JobSample[];
}

/** What the backlog phase measured: a fresh instance delivering what was booked while deliveries were off. */
export interface BacklogResults {
  readonly written: WriteResults;
  readonly checked: CheckedArrivals;
  /** When the delivering instance was started, and when it said it listened (its first tick starts then). */
  readonly drainStartedAt: number;
  readonly listeningAt: number;
  /** CPU the delivering instance used from listening to the end of the phase (half a second after the last arrival). */
  readonly serverCpuMs: number;
  /** CPU the benchmark database's backends used meanwhile. */
  readonly databaseCpuMs: number;
  readonly jobSamples: readonly JobSample[];
}

/** The streaming phase's headline figures, which the targets are held against. */
export interface StreamingFigures {
  /** From the first commit to the last arrival. */
  readonly deliveriesPerSecond: number;
  readonly p99Ms: number;
  readonly writesPerSecond: number;
}

/**
 * Prints the streaming phase: writes per second, deliveries per second, commit-to-arrival latency, and where
 * that time went.
 */
export function printStreamingReport(run: StreamingResults): StreamingFigures {
  const { checked } = run;
  const committedAt = new Map(run.written.committed.map((write) => [write.reservationId, write.committedAt]));
  const delivered = [...checked.delivered.values()];
  const latencies = delivered.map(
    (arrival) => arrival.arrivedAt - (committedAt.get(arrival.reservationId as string) as number),
  );
  const firstCommit = Math.min(...committedAt.values());
  const endToEndSeconds = (checked.lastArrivedAt - firstCommit) / 1000;
  const deliveryPhaseSeconds = (checked.lastArrivedAt - checked.firstArrivedAt) / 1000;
  const writeSeconds = (run.writesEnded - run.writesStarted) / 1000;

  console.log(
    `\nwebhook benchmark: ${run.writes} reservation writes over /api (${run.writers} writers), one subscription ` +
      'to reservation.created, loopback receiver, PostgreSQL',
  );
  // Everything here shares the machine's cores: other work on it slows every figure, the ceiling included.
  const [load1, load5] = os.loadavg();
  console.log(
    `machine: ${os.availableParallelism()} cores, load average ${load1?.toFixed(1)} (1 min), ${load5?.toFixed(1)} (5 min)`,
  );
  console.log('\nstreaming (booking while the server delivers)');
  printWrites(run.written, writeSeconds);
  printChecked(checked, run.deliveryWaitMs);
  console.log(
    `  throughput   first commit → last arrival ${endToEndSeconds.toFixed(2)} s: ` +
      `${(delivered.length / endToEndSeconds).toFixed(0)} deliveries/s; delivery phase (first → last ` +
      `arrival) ${deliveryPhaseSeconds.toFixed(2)} s: ${(delivered.length / deliveryPhaseSeconds).toFixed(0)} deliveries/s`,
  );
  console.log(`  commit → arrival ms                 ${distribution(latencies)}`);
  console.log(
    '    (a write counts as committed when its 2xx answer arrives, just after the commit: slightly understated)',
  );

  // The server's stamps are its wall clock on this machine, the bench's clock, to the millisecond.
  const waitForFanOut: number[] = [];
  const fanOutToArrival: number[] = [];
  const send: number[] = [];
  const recordAfterArrival: number[] = [];
  for (const [reservationId, arrival] of checked.delivered) {
    const recorded = run.recorded.get(reservationId);
    if (recorded === undefined) continue;
    waitForFanOut.push(recorded.dispatchedAt - (committedAt.get(reservationId) as number));
    fanOutToArrival.push(arrival.arrivedAt - recorded.dispatchedAt);
    send.push(recorded.sendMs);
    if (recorded.deliveredAt !== undefined) recordAfterArrival.push(recorded.deliveredAt - arrival.arrivedAt);
  }
  console.log('  where the time goes (ms)');
  console.log(`    commit → fanned out by a tick     ${distribution(waitForFanOut)}`);
  console.log(`    fanned out → arrival              ${distribution(fanOutToArrival)}`);
  console.log(`    the attempt (sender's own timer)  ${distribution(send)}`);
  console.log(`    arrival → outcome recorded        ${distribution(recordAfterArrival)}`);
  const batches = new Map<number, number>();
  for (const recorded of run.recorded.values()) {
    batches.set(recorded.dispatchedAt, (batches.get(recorded.dispatchedAt) ?? 0) + 1);
  }
  const batchTimes = [...batches.keys()].sort((a, b) => a - b);
  const gaps = batchTimes.slice(1).map((time, index) => time - (batchTimes[index] as number));
  console.log(
    `    fan-outs: ${batchTimes.length}; events per fan-out ${distribution([...batches.values()])}`,
  );
  console.log(`    gaps between fan-outs              ${distribution(gaps)}`);
  printJob(run.jobSamples);
  return {
    deliveriesPerSecond: delivered.length / endToEndSeconds,
    p99Ms: percentile(latencies, 99),
    writesPerSecond: run.written.committed.length / writeSeconds,
  };
}

/** Prints the backlog phase and answers its deliveries per second, from listening to the last arrival. */
export function printBacklogReport(run: BacklogResults): number {
  const { checked } = run;
  const delivered = checked.delivered.size;
  const drainSeconds = (checked.lastArrivedAt - run.listeningAt) / 1000;
  const arrivalSeconds = (checked.lastArrivedAt - checked.firstArrivedAt) / 1000;
  console.log('\nbacklog (booked with WEBHOOKS=off, then drained by a fresh instance)');
  printWrites(run.written, Number.NaN);
  printChecked(checked, Number.NaN);
  console.log(
    `  throughput   listening → last arrival ${drainSeconds.toFixed(2)} s: ${(delivered / drainSeconds).toFixed(0)} ` +
      `deliveries/s; first → last arrival ${arrivalSeconds.toFixed(2)} s: ${(delivered / arrivalSeconds).toFixed(0)} ` +
      `deliveries/s (start-up to listening took ${((run.listeningAt - run.drainStartedAt) / 1000).toFixed(1)} s)`,
  );
  const cpu = (label: string, ms: number) =>
    `${label} ${ms.toFixed(0)} ms, ${((ms * 1000) / delivered).toFixed(0)} µs a delivery, ` +
    `${((ms / 1000 / drainSeconds) * 100).toFixed(0)} % of one core`;
  console.log(
    `  CPU          ${cpu('server', run.serverCpuMs)}; ${cpu('database backends', run.databaseCpuMs)}`,
  );
  printJob(run.jobSamples);
  return delivered / drainSeconds;
}

/** Prints the transport ceiling, the ratios against it and the targets. */
export function printCeilingAndTargets(run: {
  readonly senderConcurrency: number;
  readonly bodyBytes: number;
  readonly ceiling: TransportCeiling;
  readonly ceilingBadSignatures: number;
  readonly streaming: StreamingFigures;
  readonly backlogPerSecond: number;
}): void {
  const { ceiling, streaming } = run;
  console.log(
    `\ntransport ceiling (baseline): ${ceiling.requests} signed POSTs of ${run.bodyBytes} bytes from the bench, ` +
      `kept-alive connections, ${run.senderConcurrency} at a time: ${ceiling.requestsPerSecond.toFixed(0)} req/s ` +
      `(${ceiling.failures} failed, ${run.ceilingBadSignatures} bad signatures)`,
  );
  console.log('\nratios and targets');
  console.log(
    `  streaming deliveries/s vs ceiling:  ${percent(streaming.deliveriesPerSecond, ceiling.requestsPerSecond)} %` +
      `   (${streaming.deliveriesPerSecond.toFixed(0)}/s, first commit → last arrival)`,
  );
  console.log(
    `  backlog deliveries/s vs ceiling:    ${percent(run.backlogPerSecond, ceiling.requestsPerSecond)} %` +
      `   (${run.backlogPerSecond.toFixed(0)}/s, listening → last arrival)`,
  );
  console.log(
    `  streaming deliveries/s: ${streaming.deliveriesPerSecond.toFixed(0)}   [>= ${targetDeliveriesPerSecond}/s] ` +
      `${streaming.deliveriesPerSecond >= targetDeliveriesPerSecond ? 'met' : 'NOT met'}`,
  );
  console.log(
    `  backlog deliveries/s:   ${run.backlogPerSecond.toFixed(0)}   [>= ${targetDeliveriesPerSecond}/s] ` +
      `${run.backlogPerSecond >= targetDeliveriesPerSecond ? 'met' : 'NOT met'}`,
  );
  console.log(
    `  commit → arrival p99:   ${streaming.p99Ms.toFixed(0)} ms   [< ${targetP99Ms.toLocaleString('en-US')} ms] ` +
      `${streaming.p99Ms < targetP99Ms ? 'met' : 'NOT met'}`,
  );
  console.log(`  writes/s (streaming):   ${streaming.writesPerSecond.toFixed(0)}`);
}

function printWrites(written: WriteResults, seconds: number): void {
  const rate = Number.isNaN(seconds)
    ? ''
    : ` in ${seconds.toFixed(2)} s: ${(written.committed.length / seconds).toFixed(0)} writes/s;`;
  console.log(`  writes       ${written.committed.length} booked${rate} ${written.failures} failed`);
  for (const sample of written.failureSamples) console.log(`                 ${sample}`);
}

function printChecked(checked: CheckedArrivals, waitMs: number): void {
  console.log(
    `  deliveries   ${checked.delivered.size} received, ${checked.missing.length} missing, ` +
      `${checked.duplicates} duplicates, ${checked.badSignatures} bad signatures, ${checked.unexpected} unexpected`,
  );
  if (checked.missing.length > 0) {
    const after = Number.isNaN(waitMs) ? '' : ` ${waitMs / 1000} s after the last write`;
    console.log(
      `                 not received${after}: ${checked.missing.slice(0, 5).join(', ')}${checked.missing.length > 5 ? ', …' : ''}`,
    );
  }
}

/**
 * The webhook job as the metrics saw it: ticks, their cost, the pauses of 1.5 s or more between ticks (the
 * job waits 250 ms when idle, so these are stalls) with the ticks run between them, and the queries waiting
 * for the pool.
 */
function printJob(samples: readonly JobSample[]): void {
  const first = samples[0];
  const last = samples.at(-1);
  if (first === undefined || last === undefined) return;
  const ticks = last.ticks - first.ticks;
  const tickSeconds = last.tickSeconds - first.tickSeconds;
  const wallSeconds = (last.at - first.at) / 1000;
  // A pause is time between ticks with none running: the gap between two tick ends, less the later tick's
  // own duration (a long tick is not a pause).
  const ticksBetweenPauses: number[] = [];
  let lastTickEndedAt = first.at;
  let ticksSincePause = 0;
  for (let index = 1; index < samples.length; index += 1) {
    const sample = samples[index] as JobSample;
    const previous = samples[index - 1] as JobSample;
    if (sample.ticks === previous.ticks) continue;
    const idleMs = sample.at - lastTickEndedAt - (sample.tickSeconds - previous.tickSeconds) * 1000;
    if (idleMs >= 1_500) {
      ticksBetweenPauses.push(ticksSincePause);
      ticksSincePause = 0;
    }
    ticksSincePause += sample.ticks - previous.ticks;
    lastTickEndedAt = sample.at;
  }
  const waiting = samples.map((sample) => sample.poolWaiting);
  console.log(
    `  job          ${ticks} ticks, ${((tickSeconds * 1000) / Math.max(ticks, 1)).toFixed(0)} ms each on average, ` +
      `busy ${((tickSeconds / wallSeconds) * 100).toFixed(0)} % of ${wallSeconds.toFixed(1)} s; ` +
      `${ticksBetweenPauses.length} pauses ≥ 1.5 s, after ${ticksBetweenPauses.join(', ') || '-'} ticks`,
  );
  console.log(
    `  pool         queries waiting for a connection (${samples.length} scrapes): mean ` +
      `${(waiting.reduce((sum, value) => sum + value, 0) / waiting.length).toFixed(1)}, max ${Math.max(...waiting)}`,
  );
}

/** "p50 … p95 … p99 … max …" of `values`, in whole numbers. */
function distribution(values: readonly number[]): string {
  if (values.length === 0) return 'none';
  const format = (value: number) => value.toFixed(0).padStart(6);
  return (
    `p50 ${format(percentile(values, 50))}  p95 ${format(percentile(values, 95))}  ` +
    `p99 ${format(percentile(values, 99))}  max ${format(Math.max(...values))}`
  );
}

/** The nearest-rank `p`th percentile of `values`; NaN when there are none. */
function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

function percent(part: number, whole: number): string {
  return ((part / whole) * 100).toFixed(1);
}
