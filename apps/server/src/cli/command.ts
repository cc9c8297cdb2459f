import type { ParseArgsOptionsConfig } from 'node:util';
import type { Clock, OperatorUseCases } from '@innkeep/domain';
import type { DatabasePreparation } from '@innkeep/service-host';
import type { DatabaseHandle } from '@innkeep/storage';
import type { ProgressStream } from '../progress.ts';

/** Flag values as `node:util` parseArgs returns them. */
export type OptionValues = Readonly<Record<string, string | boolean | (string | boolean)[] | undefined>>;

/** What a command works with once its flags are valid: an up-to-date database and the operator use cases. */
export interface CliContext {
  readonly db: DatabaseHandle['db'];
  readonly operator: OperatorUseCases;
  readonly clock: Clock;
  /** Whether messages written to direct guests are emailed (SMTP_URL is set), as the server would. */
  readonly emailDelivery: boolean;
  /** What changed just before the command: every command first brings the database up to date. */
  readonly preparation: DatabasePreparation;
  /** Prints one line of the command's result on stdout. */
  out(line: string): void;
  /** Progress and notes that are not the result: stderr. */
  readonly err: ProgressStream;
}

/** One `innkeep <name>` command. */
export interface CliCommand {
  readonly name: string;
  /** One line for the command list. */
  readonly summary: string;
  /** The synopsis after `innkeep`, e.g. `new-auth-token --email <email>`. */
  readonly usage: string;
  /** What the flags mean, for `innkeep help <name>`; one flag per line. */
  readonly details: string;
  readonly options: ParseArgsOptionsConfig;
  /**
   * Checks the flags before anything is opened, so a typo costs nothing, and returns the work to run.
   *
   * @throws {@link UsageError} when a flag is missing or malformed; `invalid_argument` when a value is.
   */
  parse(values: OptionValues): (context: CliContext) => Promise<void>;
}

/** The command line itself is wrong; the CLI prints the message and the usage, and exits with 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** The value of `--name`, which must be given. */
export function requiredString(values: OptionValues, name: string): string {
  const value = optionalString(values, name);
  if (value === undefined) throw new UsageError(`--${name} is required.`);
  return value;
}

/** The value of `--name`, or undefined when absent. */
export function optionalString(values: OptionValues, name: string): string | undefined {
  const value = values[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} needs a value.`);
  return value.trim();
}

/** The value of `--name` as a whole number, or undefined when absent. */
export function optionalCount(values: OptionValues, name: string): number | undefined {
  const value = optionalString(values, name);
  if (value === undefined) return undefined;
  if (!/^\d{1,9}$/.test(value)) throw new UsageError(`--${name} must be a whole number, got "${value}".`);
  return Number(value);
}
