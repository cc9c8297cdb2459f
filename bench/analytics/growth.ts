import { type BenchDataset, openBenchDataset } from './dataset.ts';
import { measureMachineSpeed } from './machine-speed.ts';
import { milliseconds, printTable } from './report.ts';
import {
  analyticsToolsWithCases,
  type BenchSession,
  errorText,
  listingCount,
  openBenchSession,
  redacted,
  settle,
  toolCall,
} from './session.ts';
import { type Timing, timeCalls } from './timing.ts';

// How the analytics tools grow with the portfolio: every analytics tool asked the same question (twelve months,
// all listings, as in bench:analytics) on a small and a large demo account, with the same history per listing,
// printing each tool's p50 on both and how much it grew against how much the listings grew. Issue 18's limit:
// four times the listings may cost at most four times the time. The two datasets are measured tool by tool,
// small then large, so a change in the machine's speed during the run touches both sides of a ratio alike.
// Misses are reported, not failed (exit 0); errors exit 1.
//
//   npm run bench:analytics:growth    seeds fresh databases of 500 and 2,000 listings (several minutes), drops them
//   BENCH_GROWTH_URLS=<small url>,<large url>
//                                     reuse two seeded databases (`npm run innkeep -- seed-demo --listings 500
//                                     --years 3` and `... --scale`); settled with VACUUM ANALYZE first
//   BENCH_GROWTH_LISTINGS=500,2000    the two sizes to seed when not reusing (default 500,2000)
//   BENCH_DATABASE_SERVER=<url>       where to create the fresh databases (default postgres://postgres@127.0.0.1:5432/test)
//   BENCH_TODAY=2026-11-24            the datasets' today (default 2026-11-24)
//   BENCH_ITERATIONS=30               timed calls per tool and dataset, after 3 warm-ups (default 30)
//   BENCH_TOOLS=pace,review           only the tools whose name contains one of these (comma-separated)

const reuseUrls = process.env.BENCH_GROWTH_URLS?.split(',').filter((part) => part !== '');
const sizes = (process.env.BENCH_GROWTH_LISTINGS ?? '500,2000').split(',').map(Number);
const serverUrl = process.env.BENCH_DATABASE_SERVER ?? 'postgres://postgres@127.0.0.1:5432/test';
const today = process.env.BENCH_TODAY ?? '2026-11-24';
const iterations = Number(process.env.BENCH_ITERATIONS ?? 30);
const toolFilter = process.env.BENCH_TOOLS?.split(',').filter((part) => part !== '');
const warmups = 3;

if (reuseUrls !== undefined && reuseUrls.length !== 2) {
  throw new Error('BENCH_GROWTH_URLS names two databases: the small one, then the large one.');
}
if (sizes.length !== 2 || sizes.some((size) => !Number.isInteger(size) || size < 1)) {
  throw new Error('BENCH_GROWTH_LISTINGS names two listing counts, e.g. 500,2000.');
}

/** One dataset of the pair and what is asked of it. */
interface Side {
  readonly dataset: BenchDataset;
  readonly session: BenchSession;
  readonly listings: number;
  readonly label: string;
}

/** One tool's p50 on both sides, or why it has none. */
interface Growth {
  readonly tool: string;
  readonly small?: Timing;
  readonly large?: Timing;
  readonly error?: string;
}

const datasets: BenchDataset[] = [];
try {
  const sides: Side[] = [];
  for (const [index, size] of sizes.entries()) {
    const url = reuseUrls?.[index];
    process.stderr.write(`  opening the ${index === 0 ? 'small' : 'large'} dataset\n`);
    const dataset = await openBenchDataset(
      url === undefined ? { kind: 'fresh', serverUrl, today, listings: size } : { kind: 'reuse', url },
    );
    datasets.push(dataset);
    const settled = dataset.fresh ? 'fresh' : `reused ${redacted(url ?? '')}, ${await settle(dataset)}`;
    sides.push({
      dataset,
      session: openBenchSession(dataset, today),
      listings: await listingCount(dataset),
      label: settled,
    });
  }
  const [small, large] = sides as [Side, Side];

  const speedBefore = await measureMachineSpeed(small.dataset.handle.db);
  const growths: Growth[] = [];
  for (const { tool, benchCase } of analyticsToolsWithCases()) {
    const name = tool?.name ?? benchCase?.tool ?? '';
    if (toolFilter !== undefined && !toolFilter.some((part) => name.includes(part))) continue;
    if (tool === undefined || benchCase === undefined) {
      growths.push({ tool: name, error: 'no benchmark case or not in the catalogue (see bench:analytics)' });
      continue;
    }
    process.stderr.write(`  ${name}\n`);
    try {
      const timings = [];
      for (const side of [small, large]) {
        const call = toolCall(tool, benchCase.arguments(side.session.context), side.session.toolContext);
        timings.push((await timeCalls(call, warmups, iterations)).timing);
      }
      growths.push({ tool: name, small: timings[0], large: timings[1] });
    } catch (error) {
      growths.push({ tool: name, error: errorText(error) });
    }
  }
  const speedAfter = await measureMachineSpeed(small.dataset.handle.db);

  const allowed = large.listings / small.listings;
  console.log(
    `\nAnalytics growth: ${small.listings} listings (${small.label}) against ${large.listings} (${large.label}); ` +
      `today ${today}, twelve months, all listings; ${iterations} timed calls per tool and dataset, sequential`,
  );
  console.log(
    `Machine speed (before → after): PostgreSQL counts 1,000,000 generated rows in ` +
      `${milliseconds(speedBefore.postgresMs)} → ${milliseconds(speedAfter.postgresMs)} ms, JavaScript sorts ` +
      `200,000 numbers in ${milliseconds(speedBefore.javascriptMs)} → ${milliseconds(speedAfter.javascriptMs)} ms\n`,
  );
  const header = ['tool', `p50 @${small.listings}`, `p50 @${large.listings}`, 'growth', 'check'];
  const rows = growths.map((growth) => {
    const ratio = growthOf(growth);
    return [
      growth.tool,
      milliseconds(growth.small?.p50),
      milliseconds(growth.large?.p50),
      ratio === undefined ? '—' : `${ratio.toFixed(2)}×`,
      growth.error !== undefined ? 'error' : (ratio ?? 0) <= allowed ? 'ok' : 'OVER',
    ];
  });
  printTable(header, rows);
  for (const growth of growths) {
    if (growth.error !== undefined) console.log(`ERROR ${growth.tool}: ${growth.error}`);
  }
  const over = growths.filter((growth) => (growthOf(growth) ?? 0) > allowed);
  const largest = Math.max(...growths.map((growth) => growthOf(growth) ?? 0));
  console.log(
    `\ntarget: ${allowed.toFixed(2)}× the listings costs at most ${allowed.toFixed(2)}× the p50 time: ` +
      `${over.length === 0 ? 'met' : 'NOT MET'} (largest growth ${largest.toFixed(2)}×)` +
      (over.length === 0 ? '' : ` — ${over.map((growth) => growth.tool).join(', ')}`),
  );
  if (growths.some((growth) => growth.error !== undefined)) process.exitCode = 1;
} finally {
  for (const dataset of datasets) await dataset.release();
}

/** Large p50 ÷ small p50. */
function growthOf(growth: Growth): number | undefined {
  if (growth.small === undefined || growth.large === undefined) return undefined;
  return growth.large.p50 / growth.small.p50;
}
