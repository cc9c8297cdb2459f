import { demoLogin, scaleDemoOptions } from '@innkeep/demo';
import { localToday, seedDemoWithProgress } from '../demo.ts';
import { type CliCommand, optionalCount, optionalString, UsageError } from './command.ts';

/** `innkeep migrate`: brings the schema and the help articles up to date, and says what changed. */
export const migrateCommand: CliCommand = {
  name: 'migrate',
  summary: 'Bring the database schema and the help articles up to date.',
  usage: 'migrate',
  details:
    'Safe to run at any time and from several machines at once; it does nothing when up to date.\n' +
    'The server and every other command run it first, so it is rarely needed by hand.',
  options: {},
  parse: () => async (context) => {
    const { migrations, helpArticles } = context.preparation;
    if (migrations.length === 0) context.out('The database schema was already up to date.');
    else context.out(`Applied ${migrations.length} migration${migrations.length === 1 ? '' : 's'}:`);
    for (const name of migrations) context.out(`  ${name}`);
    const { added, updated, removed } = helpArticles;
    context.out(
      `Help articles: ${added.length} added, ${updated.length} updated, ${removed.length} removed.`,
    );
  },
};

/** `innkeep seed-demo`: creates the demo account with realistic history, drawing progress on stderr. */
export const seedDemoCommand: CliCommand = {
  name: 'seed-demo',
  summary: 'Create the demo account with listings, reservations, messages and reviews.',
  usage: 'seed-demo [--seed <n>] [--listings <n>] [--years <n>] [--scale] [--today <YYYY-MM-DD>]',
  details: [
    '--seed <n>            random seed; the same seed and date give the same data',
    '--listings <n>        number of listings',
    '--years <n>           years of reservation history before today',
    `--scale               load-test size: ${scaleDemoOptions.listings} listings, ${scaleDemoOptions.historyYears} years of history (--listings and --years still win)`,
    '--today <YYYY-MM-DD>  the date the data is built around (default: the local date)',
    'Needs a database without the demo account: use a fresh DATA_DIR or an empty database.',
  ].join('\n'),
  options: {
    seed: { type: 'string' },
    listings: { type: 'string' },
    years: { type: 'string' },
    scale: { type: 'boolean' },
    today: { type: 'string' },
  },
  parse(values) {
    const scale = values.scale === true;
    const today = optionalString(values, 'today');
    if (today !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(today)) {
      throw new UsageError(`--today must be a date as YYYY-MM-DD, got "${today}".`);
    }
    const seed = optionalCount(values, 'seed');
    const listings = optionalCount(values, 'listings') ?? (scale ? scaleDemoOptions.listings : undefined);
    const historyYears =
      optionalCount(values, 'years') ?? (scale ? scaleDemoOptions.historyYears : undefined);

    return async (context) => {
      const startedAt = performance.now();
      const summary = await seedDemoWithProgress(
        context.db,
        { today: today ?? localToday(context.clock.now()), seed, listings, historyYears },
        context.err,
      );
      const seconds = (performance.now() - startedAt) / 1000;
      context.out('Seeded the demo account:');
      printSummary(summary, '  ', context.out);
      context.out(`Done in ${seconds.toFixed(1)} s.`);
      context.out(`Demo login: ${demoLogin.email} / ${demoLogin.password} (demo mode only)`);
    };
  },
};

// The summary's shape belongs to the demo seeder; printing it generically keeps new counts visible here
// without a change to the CLI.
function printSummary(value: object, indent: string, out: (line: string) => void): void {
  for (const [key, item] of Object.entries(value) as [string, unknown][]) {
    if (typeof item === 'object' && item !== null) {
      out(`${indent}${key}:`);
      printSummary(item, `${indent}  `, out);
    } else {
      out(`${indent}${key}: ${String(item)}`);
    }
  }
}
