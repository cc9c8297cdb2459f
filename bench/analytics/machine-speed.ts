import type { Database } from '@innkeep/storage';
import { type Kysely, sql } from 'kysely';
import { percentile } from './timing.ts';

/** How fast the machine ran two fixed pieces of work, in milliseconds (median of five). */
export interface MachineSpeed {
  /** PostgreSQL counting 1,000,000 generated rows: CPU in the database server, no table read. */
  readonly postgresMs: number;
  /** JavaScript sorting 200,000 pseudo-random numbers: CPU in the benchmark's own process. */
  readonly javascriptMs: number;
}

const probes = 5;

/**
 * Times two fixed pieces of CPU work, one in PostgreSQL and one in this process. On a shared virtual machine
 * the same query can take twice as long from one run to the next; printed beside the results, these tell a
 * slow run from a slow change, and the ratio of the two sides shows whether only one of them slowed down.
 */
export async function measureMachineSpeed(db: Kysely<Database>): Promise<MachineSpeed> {
  const postgres: number[] = [];
  const javascript: number[] = [];
  for (let probe = 0; probe < probes; probe += 1) {
    let started = performance.now();
    await sql`select count(*) from generate_series(1, 1000000)`.execute(db);
    postgres.push(performance.now() - started);
    started = performance.now();
    sortPseudoRandomNumbers(200_000);
    javascript.push(performance.now() - started);
  }
  return { postgresMs: percentile(postgres, 50), javascriptMs: percentile(javascript, 50) };
}

/** Sorts `count` numbers from a fixed linear congruential sequence, so every run does the same work. */
function sortPseudoRandomNumbers(count: number): void {
  const numbers = new Float64Array(count);
  let state = 1;
  for (let index = 0; index < count; index += 1) {
    state = (state * 48_271) % 2_147_483_647;
    numbers[index] = state;
  }
  numbers.sort();
}
