// Operator commands: `pnpm innkeep <command> [options]`, or `node src/cli.ts <command> [options]`.
// Exit codes: 0 done; 1 bad configuration, an unreachable or busy database, or an unexpected failure;
// 2 a usage error or a refusal (DomainError) the operator can fix from the message.
import { parseArgs } from 'node:util';
import { DomainError, systemClock } from '@innkeep/domain';
import {
  DataDirInUseError,
  explainDatabaseError,
  openConfiguredDatabase,
  prepareDatabase,
} from '@innkeep/service-host';
import { createOperatorUseCases } from '@innkeep/storage';
import { addSubUserCommand, createOwnerCommand, setSubscriptionCommand } from './cli/account-commands.ts';
import { type CliCommand, type CliContext, UsageError } from './cli/command.ts';
import { issueApiKeyCommand, newAuthTokenCommand } from './cli/credential-commands.ts';
import { migrateCommand, seedDemoCommand } from './cli/database-commands.ts';
import { runMessageRulesCommand } from './cli/message-rule-commands.ts';
import { ConfigError, type DataConfig, loadDataConfig } from './config.ts';

const commands: readonly CliCommand[] = [
  migrateCommand,
  seedDemoCommand,
  createOwnerCommand,
  addSubUserCommand,
  setSubscriptionCommand,
  issueApiKeyCommand,
  newAuthTokenCommand,
  runMessageRulesCommand,
];

const generalHelp = [
  'Usage: pnpm innkeep <command> [options]',
  '',
  'Commands:',
  ...commands.map((command) => `  ${command.name.padEnd(18)}${command.summary}`),
  `  ${'help [command]'.padEnd(18)}Show this list, or one command's options.`,
  '',
  'Every command works on the database the server uses: DATABASE_URL, or the embedded database in DATA_DIR',
  '(default .data/). The embedded database serves one process at a time: stop the server first.',
  'Exit codes: 0 done, 1 configuration or unexpected failure, 2 usage error or refused request.',
].join('\n');

function commandHelp(command: CliCommand): string {
  const details = command.details
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
  return `Usage: pnpm innkeep ${command.usage}\n\n${command.summary}\n\n${details}`;
}

function printError(text: string): void {
  process.stderr.write(`${text}\n`);
}

function print(text: string): void {
  process.stdout.write(`${text}\n`);
}

process.exitCode = await run(process.argv.slice(2));

async function run(args: readonly string[]): Promise<number> {
  const [name, ...rest] = args;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    const topic = rest[0];
    const command = commands.find((candidate) => candidate.name === topic);
    if (topic !== undefined && command === undefined) {
      printError(`There is no command "${topic}".\n\n${generalHelp}`);
      return 2;
    }
    print(command === undefined ? generalHelp : commandHelp(command));
    return 0;
  }
  const command = commands.find((candidate) => candidate.name === name);
  if (command === undefined) {
    printError(`There is no command "${name}".\n\n${generalHelp}`);
    return 2;
  }

  let work: (context: CliContext) => Promise<void>;
  try {
    const { values } = parseArgs({
      args: [...rest],
      options: { ...command.options, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    });
    if (values.help === true) {
      print(commandHelp(command));
      return 0;
    }
    work = command.parse(values);
  } catch (error) {
    if (error instanceof DomainError) {
      printError(`${error.message}\nSee: pnpm innkeep help ${command.name}`);
      return 2;
    }
    if (!(error instanceof UsageError || isParseArgsError(error))) throw error;
    printError(`${error.message}\n\n${commandHelp(command)}`);
    return 2;
  }

  let config: DataConfig;
  try {
    config = loadDataConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    printError(error.message);
    return 1;
  }

  try {
    await runAgainstDatabase(config, work);
    return 0;
  } catch (error) {
    if (error instanceof DomainError) {
      printError(error.message);
      return 2;
    }
    if (error instanceof DataDirInUseError) {
      printError(error.message);
      return 1;
    }
    const explained = explainDatabaseError(error);
    if (explained !== undefined) {
      printError(`innkeep ${name}: ${explained}`);
      return 1;
    }
    // Driver messages can carry connection strings; show them only to an operator who asks.
    printError(`innkeep ${name} failed unexpectedly. Run it again with LOG_LEVEL=debug to see why.`);
    if (config.logLevel === 'debug' || config.logLevel === 'trace') console.error(error);
    return 1;
  }
}

async function runAgainstDatabase(
  config: DataConfig,
  work: (context: CliContext) => Promise<void>,
): Promise<void> {
  const database = await openConfiguredDatabase(config.database);
  try {
    const preparation = await prepareDatabase(database.db);
    await work({
      db: database.db,
      operator: createOperatorUseCases({ db: database.db, clock: systemClock }),
      clock: systemClock,
      emailDelivery: config.emailDelivery,
      preparation,
      out: print,
      err: process.stderr,
    });
  } finally {
    await database.close();
  }
}

// parseArgs reports unknown flags, missing values and stray arguments as TypeErrors with these codes.
function isParseArgsError(error: unknown): error is Error {
  return (
    error instanceof Error &&
    'code' in error &&
    typeof error.code === 'string' &&
    error.code.startsWith('ERR_PARSE_ARGS_')
  );
}
