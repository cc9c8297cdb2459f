import type { FigureMismatch } from './figures.ts';
import type { MachineSpeed } from './machine-speed.ts';
import type { Timing } from './timing.ts';
import { defaultTargetMs, headlineTargetMs } from './tool-case.ts';

/** What the benchmark found for one tool. */
export interface ToolOutcome {
  readonly tool: string;
  readonly targetMs: number;
  readonly timing?: Timing;
  readonly baselineTiming?: Timing;
  /** Why the tool has no baseline, when it has none. */
  readonly noBaseline?: string;
  /** How many figures were compared with the baseline, and which disagreed. */
  readonly figuresCompared: number;
  readonly mismatches: readonly FigureMismatch[];
  /** The tool (or its baseline) failed, or is missing from the catalogue. */
  readonly error?: string;
}

// The issue's speed-up target over fetch-and-compute; the latency targets are in tool-case.ts.
const minimumSpeedup = 10;

/** Prints the results table, the mismatches and errors in full, and whether each target was met. */
export function report(
  outcomes: readonly ToolOutcome[],
  settings: {
    /** The machine's speed before and after the measurements. */
    machineSpeed: readonly [MachineSpeed, MachineSpeed];
    iterations: number;
    baselineIterations: number;
    period: string;
    /** The demo account's listings, all of which every tool is asked about. */
    listings: number;
    dataset: string;
  },
): void {
  const [before, after] = settings.machineSpeed;
  console.log(
    `\nAnalytics benchmark: ${settings.dataset}; period ${settings.period}, all ${settings.listings} listings; ` +
      `${settings.iterations} timed calls per tool, ${settings.baselineIterations} per baseline, sequential`,
  );
  console.log(
    `Machine speed (before → after): PostgreSQL counts 1,000,000 generated rows in ` +
      `${milliseconds(before.postgresMs)} → ${milliseconds(after.postgresMs)} ms, JavaScript sorts 200,000 numbers ` +
      `in ${milliseconds(before.javascriptMs)} → ${milliseconds(after.javascriptMs)} ms\n`,
  );
  const header = ['tool', 'p50 ms', 'p95 ms', 'target', 'baseline p50 ms', 'ratio', 'check'];
  const rows = outcomes.map((outcome) => [
    outcome.tool,
    milliseconds(outcome.timing?.p50),
    milliseconds(outcome.timing?.p95),
    `≤ ${outcome.targetMs}`,
    outcome.noBaseline !== undefined ? 'n/a' : milliseconds(outcome.baselineTiming?.p50),
    speedupText(outcome),
    checkText(outcome),
  ]);
  printTable(header, rows);

  // With the baselines skipped for the whole run, one line says so instead of one per tool.
  const withoutBaseline = outcomes.filter(
    (outcome) => outcome.noBaseline !== undefined && settings.baselineIterations > 0,
  );
  if (settings.baselineIterations === 0) console.log('\nbaselines skipped (BENCH_BASELINE_ITERATIONS=0)');
  for (const outcome of withoutBaseline)
    console.log(`\n${outcome.tool}: no baseline — ${outcome.noBaseline}`);
  for (const outcome of outcomes) {
    for (const mismatch of outcome.mismatches) {
      console.log(
        `MISMATCH ${outcome.tool} ${mismatch.figure}: tool ${String(mismatch.tool)}, baseline ${String(mismatch.baseline)}`,
      );
    }
    if (outcome.error !== undefined) console.log(`ERROR ${outcome.tool}: ${outcome.error}`);
  }

  const measured = outcomes.filter((outcome) => outcome.timing !== undefined);
  const overTarget = measured.filter((outcome) => (outcome.timing?.p95 ?? 0) > defaultTargetMs);
  const headline = measured.find((outcome) => outcome.tool === 'get_headline_kpis');
  const compared = measured.filter((outcome) => outcome.baselineTiming !== undefined);
  const slowerThanTarget = compared.filter((outcome) => (speedup(outcome) ?? 0) < minimumSpeedup);
  const unmeasured = outcomes.length - measured.length;
  console.log('\ntargets');
  console.log(
    `  every tool p95 ≤ ${defaultTargetMs} ms: ${verdict(overTarget.length === 0 && unmeasured === 0)}` +
      listed(overTarget.map((outcome) => outcome.tool)) +
      (unmeasured > 0 ? ` (${unmeasured} not measured)` : ''),
  );
  console.log(
    `  get_headline_kpis p95 ≤ ${headlineTargetMs} ms: ${headline?.timing === undefined ? 'not measured' : verdict(headline.timing.p95 <= headlineTargetMs)}` +
      (headline?.timing === undefined ? '' : ` (${milliseconds(headline.timing.p95)} ms)`),
  );
  const smallest = Math.min(...compared.map((outcome) => speedup(outcome) ?? Number.POSITIVE_INFINITY));
  console.log(
    `  ≥ ${minimumSpeedup}× faster than fetch-and-compute: ${verdict(slowerThanTarget.length === 0 && compared.length > 0)}` +
      ` (${compared.length} tools with a baseline, smallest ratio ${smallest.toFixed(1)}×)` +
      listed(slowerThanTarget.map((outcome) => outcome.tool)),
  );
  const mismatched = outcomes.filter((outcome) => outcome.mismatches.length > 0).length;
  const figures = outcomes.reduce((sum, outcome) => sum + outcome.figuresCompared, 0);
  console.log(
    `  tool = baseline: ${mismatched === 0 ? 'ok' : `${mismatched} tools disagree`} (${figures} figures compared)`,
  );
}

/** Prints `rows` under `header` in aligned columns: the first left-aligned, the others right-aligned. */
export function printTable(header: readonly string[], rows: readonly (readonly string[])[]): void {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
      )
      .join('  ');
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}

function speedup(outcome: ToolOutcome): number | undefined {
  if (outcome.timing === undefined || outcome.baselineTiming === undefined) return undefined;
  return outcome.baselineTiming.p50 / outcome.timing.p50;
}

function speedupText(outcome: ToolOutcome): string {
  const value = speedup(outcome);
  return value === undefined ? '—' : `${value.toFixed(1)}×`;
}

function checkText(outcome: ToolOutcome): string {
  if (outcome.error !== undefined) return 'error';
  if (outcome.mismatches.length > 0) return 'mismatch';
  return outcome.figuresCompared > 0 ? 'ok' : '—';
}

/** Milliseconds as printed: two decimals under 10, one above. */
export function milliseconds(value: number | undefined): string {
  if (value === undefined) return '—';
  return value < 10 ? value.toFixed(2) : value.toFixed(1);
}

function verdict(met: boolean): string {
  return met ? 'met' : 'NOT MET';
}

function listed(tools: readonly string[]): string {
  return tools.length === 0 ? '' : ` — ${tools.join(', ')}`;
}
