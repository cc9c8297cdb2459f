import type { Actor, Clock, InnkeepDomain, Scope } from '@innkeep/domain';
import type { z } from 'zod';

/** What an operation gets besides its input: who acts, the account's use cases, and the clock. */
export interface OperationContext {
  readonly actor: Actor;
  readonly domain: InnkeepDomain;
  readonly clock: Clock;
}

/** Whether an operation only reads, or changes the account's data. */
export type OperationAccess = 'read' | 'write';

/**
 * One thing a caller can do with Innkeep, declared once and independent of any transport: the scopes it
 * needs, whether it writes, its input and output, and the call into the domain. An MCP tool is an operation
 * plus what a model reads (name, copy, hints); a REST route is an operation plus method, path and field
 * mapping. Neither transport repeats what is declared here.
 */
export interface Operation<
  Input extends z.ZodObject = z.ZodObject,
  Output extends z.ZodObject = z.ZodObject,
> {
  /** snake_case, unique; the MCP tool of the same operation has this name. */
  readonly id: string;
  /** Every scope the caller's grant must hold; empty when the operation needs none. */
  readonly scopes: readonly Scope[];
  readonly access: OperationAccess;
  /** Input; every field described and bounded. */
  readonly input: Input;
  /** Output, as the transports return it. */
  readonly output: Output;
  /** Runs the operation on input already parsed by `input`. Throws a DomainError for failures the caller can act on. */
  run(input: z.output<Input>, context: OperationContext): Promise<z.input<Output>>;
}

/** Declares an operation; a typed identity function so `run` is checked against the schemas. */
export function defineOperation<Input extends z.ZodObject, Output extends z.ZodObject>(
  operation: Operation<Input, Output>,
): Operation<Input, Output> {
  return operation;
}
