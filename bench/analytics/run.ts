import type { ToolContext, ToolDefinition } from '@innkeep/mcp-tools';
import { type BenchDataset, openBenchDataset } from './dataset.ts';
import { compareFigures } from './figures.ts';
import { measureMachineSpeed } from './machine-speed.ts';
import { report, type ToolOutcome } from './report.ts';
import {
  analyticsToolsWithCases,
  errorText,
  listingCount,
  openBenchSession,
  redacted,
  settle,
  toolCall,
} from './session.ts';
import { type Timed, timeCalls } from './timing.ts';
import type { BenchContext, ToolCase } from './tool-case.ts';

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
  const { context, toolContext } = openBenchSession(dataset, today);
  const listings = await listingCount(dataset);

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
    outcomes.push(await measure(tool, benchCase, context, toolContext));
  }
  const speedAfter = await measureMachineSpeed(dataset.handle.db);
  report(outcomes, {
    machineSpeed: [speedBefore, speedAfter],
    iterations,
    baselineIterations,
    period: `${context.period.startDate}..${context.period.endDate}`,
    listings,
    dataset:
      reuseUrl === undefined ? `fresh scale demo around ${today}` : `reused ${redacted(reuseUrl)}${settled}`,
  });
  if (outcomes.some((outcome) => outcome.error !== undefined || outcome.mismatches.length > 0)) {
    process.exitCode = 1;
  }
} finally {
  await dataset.release();
}

async function measure(
  tool: ToolDefinition,
  benchCase: ToolCase,
  context: BenchContext,
  toolContext: ToolContext,
): Promise<ToolOutcome> {
  const base = { tool: tool.name, targetMs: benchCase.targetMs };
  const args = benchCase.arguments(context);
  const call = toolCall(tool, args, toolContext);
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
