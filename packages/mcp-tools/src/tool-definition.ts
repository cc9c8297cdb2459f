import type { Scope } from '@innkeep/domain';
import type { Operation, OperationContext } from '@innkeep/operations';
import type { z } from 'zod';
import { refusingUnknownArguments } from './strict-arguments.ts';

/** What a tool handler gets besides its input: the operation's context (who acts, the use cases, the clock). */
export type ToolContext = OperationContext;

/**
 * MCP tool annotations, always all four and honest, in the MCP specification's meaning: a client may
 * auto-approve read-only tools, ask before destructive ones, and warn before one that reaches people
 * outside the account.
 */
export interface ToolAnnotations {
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly idempotentHint: boolean;
  readonly openWorldHint: boolean;
}

/** The hints a write operation's tool declares; a read operation's are fixed ({@link readOnly}). */
export interface WriteHints {
  /**
   * True when the call may overwrite or remove what was there (a price, a stay, a rule's effect on
   * prices); false when it only adds (a reservation, a message, a rule) or switches something reversibly.
   */
  readonly destructiveHint: boolean;
  /** True when repeating the call with the same input changes nothing more. */
  readonly idempotentHint: boolean;
  /**
   * True when the call reaches someone outside the host's account: a message a guest receives, or a rule
   * that sends them. Changes the account's own channels mirror (prices, availability, stays) are not.
   */
  readonly openWorldHint: boolean;
}

/** A tool as declared: an operation plus what the model reads. */
export interface ToolDeclaration<Input extends z.ZodObject, Output extends z.ZodObject> {
  readonly operation: Operation<Input, Output>;
  /** snake_case, unique. */
  readonly name: string;
  readonly title: string;
  /** Product copy for the model: when to use the tool, what it returns, what it changes. */
  readonly description: string;
  /** Required for a write operation, absent for a read one: `readOnlyHint` follows from the operation. */
  readonly writeHints?: WriteHints;
}

/**
 * One tool, resolved from its declaration. The MCP adapters (the SDK registration for other hosts, and
 * Innkeep's own fast /mcp dispatcher) read this and nothing else: name, copy, schemas, scopes and handler.
 */
export interface ToolDefinition<
  Input extends z.ZodObject = z.ZodObject,
  Output extends z.ZodObject = z.ZodObject,
> {
  /** snake_case, unique. */
  readonly name: string;
  readonly title: string;
  /** Product copy for the model: when to use the tool, what it returns, what it changes. */
  readonly description: string;
  /** Every scope the caller's grant must hold; empty when the tool needs none. */
  readonly scopes: readonly Scope[];
  /** Input; every field described and bounded. */
  readonly input: Input;
  /** Output, returned as `structuredContent` and as JSON text. */
  readonly output: Output;
  readonly annotations: ToolAnnotations;
  /** Runs the tool. Throw a DomainError for failures the model can act on. */
  handler(input: z.output<Input>, context: ToolContext): Promise<z.input<Output>>;
}

/** Annotations of a tool that only reads. */
export const readOnly: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/**
 * A tool over an operation: its scopes, schemas and call are the operation's, and its annotations follow
 * from the operation's access (read-only tools are idempotent and never destructive) plus, for a write,
 * the declared hints. A write without hints, or a read with them, is a declaration error.
 */
export function defineTool<Input extends z.ZodObject, Output extends z.ZodObject>(
  declaration: ToolDeclaration<Input, Output>,
): ToolDefinition<Input, Output> {
  const { operation, name, title, description, writeHints } = declaration;
  if ((operation.access === 'write') !== (writeHints !== undefined)) {
    throw new Error(`The tool ${name} must declare writeHints exactly when its operation writes.`);
  }
  return {
    name,
    title,
    description,
    scopes: operation.scopes,
    // Both MCP paths (the /mcp dispatcher and the SDK registration) parse with this schema, so a misspelled
    // argument is refused on either instead of being dropped; the operation keeps its own for REST.
    input: refusingUnknownArguments(operation.input, name),
    output: operation.output,
    annotations: writeHints === undefined ? readOnly : { readOnlyHint: false, ...writeHints },
    handler: (input, context) => operation.run(input, context),
  };
}

/** The scopes of `tool` that `granted` lacks; empty when the grant suffices. */
export function missingScopes(tool: Pick<ToolDefinition, 'scopes'>, granted: readonly string[]): Scope[] {
  return tool.scopes.filter((scope) => !granted.includes(scope));
}
