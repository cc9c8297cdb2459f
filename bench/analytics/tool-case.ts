import type { Actor, InnkeepDomain } from '@innkeep/domain';
import type { Database } from '@innkeep/storage';
import type { Kysely } from 'kysely';
import type { Figures } from './figures.ts';
import type { NightRange } from './local-dates.ts';

/** What every case is built from: the dataset, the account asked about, the measured period and today. */
export interface BenchContext {
  readonly db: Kysely<Database>;
  readonly accountId: string;
  /** Twelve whole months ending with the month before today's. */
  readonly period: NightRange;
  /** The dataset's today (the tools' clock), `YYYY-MM-DD`. */
  readonly today: string;
  /** The tools' clock: 18:00 UTC of today, when the seeder's day ends. */
  readonly now: Date;
  /** The demo owner, and the account's use cases: what the REST API calls behind a wrapping server. */
  readonly actor: Actor;
  readonly domain: InnkeepDomain;
}

/**
 * The fetch-and-compute baseline of a tool: what a server wrapping a REST API does to answer the same
 * question — fetch the raw rows, compute in JavaScript — and the figures it shares with the tool.
 */
export interface Baseline {
  /** Fetches the rows and computes the figures; timed as a whole. */
  readonly run: (context: BenchContext) => Promise<Figures>;
  /** The same figures read from the tool's structured output, to check the two agree. */
  readonly figuresOf: (output: Record<string, unknown>) => Figures;
}

/** How the benchmark asks one analytics tool, what it expects of it, and what it compares it with. */
export interface ToolCase {
  readonly tool: string;
  /** The tool's arguments: the measured period, all listings, defaults otherwise. */
  readonly arguments: (context: BenchContext) => Record<string, unknown>;
  /** The p95 the tool must stay under, in milliseconds. */
  readonly targetMs: number;
  /** The baseline, or why there is none. */
  readonly baseline: Baseline | { readonly none: string };
}

/** The p95 target of every analytics tool, in milliseconds. */
export const defaultTargetMs = 100;

/** The stricter p95 target of get_headline_kpis, the tool an assistant calls first. */
export const headlineTargetMs = 50;
