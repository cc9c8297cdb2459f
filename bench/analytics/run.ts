import type { Actor } from '@innkeep/domain';
import { invokeTool, type ToolContext, type ToolDefinition, toolCatalogue } from '@innkeep/mcp-tools';
import { createPostgresDomain } from '@innkeep/storage';
import { sql } from 'kysely';
import { type BenchDataset, openBenchDataset } from './dataset.ts';
import { compareFigures } from './figures.ts';
import { addDays } from './local-dates.ts';
import { measureMachineSpeed } from './machine-speed.ts';
import { report, type ToolOutcome } from './report.ts';
import { type Timed, timeCalls } from './timing.ts';
import type { BenchContext, ToolCase } from './tool-case.ts';
import { toolCases } from './tool-cases.ts';

// The analytics benchmark: every analytics tool over twelve months across all 2,000 listings of the scale
// demo (three years of history) in PostgreSQL, called in-process as the demo owner over MCP, against a
// baseline measured in the same run that answers the same question the way a server wrapping a REST API
// does: fetch the raw rows to JavaScript and compute there. Prints p50/p95 per tool, the baseline's p50 and
// the ratio, and checks that tool and baseline agree on the figures both compute. Misses of a target are
// reported, not failed (exit 0); errors and disagreements exit 1.
//
//   npm run bench:analytics          creates a database on the server, seeds the scale demo (several minutes), drops it
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/innkeep_scale
//                                    reuse a database seeded with `npm run innkeep -- seed-demo --scale
//                                    --today 2026-11-24` (its rows never changed; settled with VACUUM ANALYZE
//                                    first, and the report says so)
//   BENCH_DATABASE_SERVER=<url>      where to create the fresh database (default postgres://postgres@127.0.0.1:5432/test)
//   BENCH_TODAY=2026-11-24           the dataset's today: seeds around it, and the tools' clock (default 2026-11-24)
//   BENCH_ITERATIONS=30              timed calls per tool, after 3 warm-ups (default 30)
//   BENCH_BASELINE_ITERATIONS=5      timed runs per baseline, after 1 warm-up (default 5; 0 skips the baselines,
//                                    for timing the tools alone while working on them)
//   BENCH_TOOLS=pace,review          only the tools whose name contains one of these (comma-separated)

const reuseUrl = process.env.BENCH_DATABASE_URL;
const serverUrl = process.env.BENCH_DATABASE_SERVER ?? 'postgres://postgres@127.0.0.1:5432/test';
const today = process.env.BENCH_TODAY ?? '2026-11-24';
const iterations = Number(process.env.BENCH_ITERATIONS ?? 30);
const baselineIterations = Number(process.env.BENCH_BASELINE_ITERATIONS ?? 5);
const toolFilter = process.env.BENCH_TOOLS?.split(',').filter((part) => part !== '');
const toolWarmups = 3;
const baselineWarmups = 1;

const dataset: BenchDataset = await openBenchDataset(
  reuseUrl === undefined ? { kind: 'fresh', serverUrl, today } : { kind: 'reuse', url: reuseUrl },
);
try {
  const settled = dataset.fresh ? '' : `, ${await settle(dataset)}`;
  // The seeder's clock stands at 18:00 UTC of its today; the tools see the same instant.
  const now = new Date(`${today}T18:00:00Z`);
  const clock = { now: () => now };
  const domain = createPostgresDomain({ db: dataset.handle.db, clock });
  const actor: Actor = {
    accountId: dataset.accountId,
    userId: dataset.ownerUserId,
    role: 'owner',
    via: 'mcp',
    clientId: 'bench-analytics',
  };
  const context: BenchContext = {
    db: dataset.handle.db,
    accountId: dataset.accountId,
    period: twelveMonthsBefore(today),
    today,
    now,
    actor,
    domain,
  };

  const speedBefore = await measureMachineSpeed(dataset.handle.db);
  const outcomes: ToolOutcome[] = [];
  for (const { tool, benchCase } of analyticsToolsWithCases()) {
    const name = tool?.name ?? benchCase?.tool ?? '';
    if (toolFilter !== undefined && !toolFilter.some((part) => name.includes(part))) continue;
    if (tool === undefined || benchCase === undefined) {
      outcomes.push({
        tool: name,
        targetMs: benchCase?.targetMs ?? Number.NaN,
        figuresCompared: 0,
        mismatches: [],
        error:
          tool === undefined
            ? 'not in the tool catalogue'
            : 'an analytics tool the benchmark has no arguments for: add a case for it under bench/analytics/cases/',
      });
      continue;
    }
    process.stderr.write(`  ${name}\n`);
    outcomes.push(await measure(tool, benchCase, context, { actor, domain, clock }));
  }
  const speedAfter = await measureMachineSpeed(dataset.handle.db);
  report(outcomes, {
    machineSpeed: [speedBefore, speedAfter],
    iterations,
    baselineIterations,
    period: `${context.period.startDate}..${context.period.endDate}`,
    dataset:
      reuseUrl === undefined ? `fresh scale demo around ${today}` : `reused ${redacted(reuseUrl)}${settled}`,
  });
  if (outcomes.some((outcome) => outcome.error !== undefined || outcome.mismatches.length > 0)) {
    process.exitCode = 1;
  }
} finally {
  await dataset.release();
}

/**
 * Settles a reused database as `bench:mcp` settles its fresh one, and says how long that took. VACUUM marks
 * the seed's pages all-visible, which the covering indexes' index-only scans need to stay off the tables, and
 * clears dead rows autovacuum would otherwise clear during the first tools' timings, on the same cores;
 * ANALYZE brings the planner's statistics up to date.
 */
async function settle(reused: BenchDataset): Promise<string> {
  process.stderr.write('  settling the reused database (vacuum analyze)\n');
  const startedAt = performance.now();
  await sql`vacuum analyze`.execute(reused.handle.db);
  return `settled with VACUUM ANALYZE (${((performance.now() - startedAt) / 1000).toFixed(1)} s)`;
}

/**
 * The catalogue's analytics tools paired with their cases: every case's tool, and every catalogue tool with
 * an analytics result (`meta`) even when no case names it, so a new tool cannot slip past the benchmark.
 */
function analyticsToolsWithCases(): { tool?: ToolDefinition; benchCase?: ToolCase }[] {
  const byName = new Map(toolCatalogue.map((tool) => [tool.name, tool]));
  const pairs: { tool?: ToolDefinition; benchCase?: ToolCase }[] = toolCases.map((benchCase) => ({
    tool: byName.get(benchCase.tool),
    benchCase,
  }));
  const named = new Set(toolCases.map((benchCase) => benchCase.tool));
  for (const tool of toolCatalogue) {
    if ('meta' in tool.output.shape && !named.has(tool.name)) pairs.push({ tool });
  }
  return pairs;
}

async function measure(
  tool: ToolDefinition,
  benchCase: ToolCase,
  context: BenchContext,
  toolContext: ToolContext,
): Promise<ToolOutcome> {
  const base = { tool: tool.name, targetMs: benchCase.targetMs };
  const args = benchCase.arguments(context);
  let failure: unknown;
  const call = async () => {
    const result = await invokeTool(tool, args, toolContext, (_reference, cause) => {
      failure = cause;
    });
    if (result.isError === true || result.structuredContent === undefined) {
      throw new Error(`${result.content[0]?.text}${failure instanceof Error ? `\n${failure.stack}` : ''}`);
    }
    return result.structuredContent;
  };
  let measured: Timed<Record<string, unknown>>;
  try {
    measured = await timeCalls(call, toolWarmups, iterations);
  } catch (error) {
    return { ...base, figuresCompared: 0, mismatches: [], error: errorText(error) };
  }
  if ('none' in benchCase.baseline || baselineIterations === 0) {
    return {
      ...base,
      timing: measured.timing,
      noBaseline:
        'none' in benchCase.baseline ? benchCase.baseline.none : 'skipped (BENCH_BASELINE_ITERATIONS=0).',
      figuresCompared: 0,
      mismatches: [],
    };
  }
  const baseline = benchCase.baseline;
  try {
    const computed = await timeCalls(() => baseline.run(context), baselineWarmups, baselineIterations);
    const toolFigures = baseline.figuresOf(measured.result);
    return {
      ...base,
      timing: measured.timing,
      baselineTiming: computed.timing,
      figuresCompared: Object.keys(computed.result).length,
      mismatches: compareFigures(toolFigures, computed.result),
    };
  } catch (error) {
    return {
      ...base,
      timing: measured.timing,
      figuresCompared: 0,
      mismatches: [],
      error: `baseline: ${errorText(error)}`,
    };
  }
}

/** The twelve whole months before `date`'s month, as nights (2026-11-24 → 2025-11-01..2026-10-31). */
function twelveMonthsBefore(date: string): { startDate: string; endDate: string } {
  const year = Number(date.slice(0, 4));
  const month = date.slice(5, 7);
  const firstOfMonth = `${year}-${month}-01`;
  return { startDate: `${year - 1}-${month}-01`, endDate: addDays(firstOfMonth, -1) };
}

function errorText(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

function redacted(url: string): string {
  const parsed = new URL(url);
  if (parsed.password !== '') parsed.password = '***';
  return parsed.toString();
}
