/** Latencies of one measured operation, in milliseconds. */
export interface Timing {
  readonly p50: number;
  readonly p95: number;
  readonly samples: readonly number[];
}

/** The last result of a timed operation and its latencies. */
export interface Timed<Result> {
  readonly result: Result;
  readonly timing: Timing;
}

/**
 * Runs `operation` `warmups` times unmeasured (JIT, plan caches, shared buffers), then `iterations` times one
 * after another, timing each call, and returns the last call's result with the latencies. Sequential on
 * purpose: the question is how long one assistant waits for one answer, not throughput.
 */
export async function timeCalls<Result>(
  operation: () => Promise<Result>,
  warmups: number,
  iterations: number,
): Promise<Timed<Result>> {
  let result: Result | undefined;
  for (let call = 0; call < warmups; call += 1) result = await operation();
  const samples: number[] = [];
  for (let call = 0; call < iterations; call += 1) {
    const started = performance.now();
    result = await operation();
    samples.push(performance.now() - started);
  }
  if (result === undefined) throw new Error('timeCalls needs at least one warm-up or iteration.');
  return { result, timing: { p50: percentile(samples, 50), p95: percentile(samples, 95), samples } };
}

/** The nearest-rank percentile of `samples` (p95 of 30 samples is the 29th smallest). */
export function percentile(samples: readonly number[], rank: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const index = Math.min(sorted.length, Math.max(1, Math.ceil((rank / 100) * sorted.length))) - 1;
  return sorted[index] ?? Number.NaN;
}
