import type { Actor } from '@innkeep/domain';
import { invokeTool, type ToolContext, type ToolDefinition, toolCatalogue } from '@innkeep/mcp-tools';
import { createPostgresDomain } from '@innkeep/storage';
import { sql } from 'kysely';
import type { BenchDataset } from './dataset.ts';
import { addDays } from './local-dates.ts';
import type { BenchContext, ToolCase } from './tool-case.ts';
import { toolCases } from './tool-cases.ts';

/** Everything a measured call needs: the cases' context and the tools' own. */
export interface BenchSession {
  readonly context: BenchContext;
  readonly toolContext: ToolContext;
}

/**
 * The demo owner asking over MCP on `dataset`, with the tools' clock at 18:00 UTC of `today` (the seeder's
 * clock stands there too) and the period the twelve whole months before today's month.
 */
export function openBenchSession(dataset: BenchDataset, today: string): BenchSession {
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
  return {
    context: {
      db: dataset.handle.db,
      accountId: dataset.accountId,
      period: twelveMonthsBefore(today),
      today,
      now,
      actor,
      domain,
    },
    toolContext: { actor, domain, clock },
  };
}

/**
 * Settles a reused database as `bench:mcp` settles its fresh one, and says how long that took. VACUUM marks
 * the seed's pages all-visible, which the covering indexes' index-only scans need to stay off the tables, and
 * clears dead rows autovacuum would otherwise clear during the first tools' timings, on the same cores;
 * ANALYZE brings the planner's statistics up to date.
 */
export async function settle(reused: BenchDataset): Promise<string> {
  process.stderr.write('  settling the reused database (vacuum analyze)\n');
  const startedAt = performance.now();
  await sql`vacuum analyze`.execute(reused.handle.db);
  return `settled with VACUUM ANALYZE (${((performance.now() - startedAt) / 1000).toFixed(1)} s)`;
}

/**
 * The catalogue's analytics tools paired with their cases: every case's tool, and every catalogue tool with
 * an analytics result (`meta`) even when no case names it, so a new tool cannot slip past the benchmark.
 */
export function analyticsToolsWithCases(): { tool?: ToolDefinition; benchCase?: ToolCase }[] {
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

/**
 * One call of `tool` with `args`, as an MCP client makes it: resolves to the structured result, and throws
 * with the tool's error text (and the cause's stack, which the tool hides from its caller) on an error result.
 */
export function toolCall(
  tool: ToolDefinition,
  args: Record<string, unknown>,
  toolContext: ToolContext,
): () => Promise<Record<string, unknown>> {
  return async () => {
    let failure: unknown;
    const result = await invokeTool(tool, args, toolContext, (_reference, cause) => {
      failure = cause;
    });
    if (result.isError === true || result.structuredContent === undefined) {
      throw new Error(`${result.content[0]?.text}${failure instanceof Error ? `\n${failure.stack}` : ''}`);
    }
    return result.structuredContent;
  };
}

/** How many listings the dataset's account has. */
export async function listingCount(dataset: BenchDataset): Promise<number> {
  const { rows } = await sql<{ listings: string }>`
    select count(*) as listings from listings where account_id = ${dataset.accountId}`.execute(
    dataset.handle.db,
  );
  return Number(rows[0]?.listings ?? 0);
}

/** An error's stack, or its text. */
export function errorText(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/** A database URL fit to print: its password masked. */
export function redacted(url: string): string {
  const parsed = new URL(url);
  if (parsed.password !== '') parsed.password = '***';
  return parsed.toString();
}

/** The twelve whole months before `date`'s month, as nights (2026-11-24 → 2025-11-01..2026-10-31). */
function twelveMonthsBefore(date: string): { startDate: string; endDate: string } {
  const year = Number(date.slice(0, 4));
  const month = date.slice(5, 7);
  const firstOfMonth = `${year}-${month}-01`;
  return { startDate: `${year - 1}-${month}-01`, endDate: addDays(firstOfMonth, -1) };
}
