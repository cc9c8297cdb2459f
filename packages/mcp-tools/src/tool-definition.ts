import type { Scope } from '@innkeep/domain';
import type { Operation, OperationContext } from '@innkeep/operations';
import type { z } from 'zod';

/** What a tool handler gets besides its input: the operation's context (who acts, the use cases, the clock). */
export type ToolContext = OperationContext;

/**
 * MCP tool annotations, always all four and honest: a client may auto-approve read-only tools and ask before
 * destructive ones. Innkeep's tools touch only the account's own data, so `openWorldHint` is always false.
 */
export interface ToolAnnotations {
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly idempotentHint: boolean;
  readonly openWorldHint: false;
}

/** The hints a write operation's tool declares; a read operation's are fixed ({@link readOnly}). */
export interface WriteHints {
  /** True when the call may overwrite or remove what was there (a price, a stay, a rule). */
  readonly destructiveHint: boolean;
  /** True when repeating the call with the same input changes nothing more. */
  readonly idempotentHint: boolean;
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
    input: operation.input,
    output: operation.output,
    annotations:
      writeHints === undefined ? readOnly : { readOnlyHint: false, ...writeHints, openWorldHint: false },
    handler: (input, context) => operation.run(input, context),
  };
}

/** The scopes of `tool` that `granted` lacks; empty when the grant suffices. */
export function missingScopes(tool: Pick<ToolDefinition, 'scopes'>, granted: readonly string[]): Scope[] {
  return tool.scopes.filter((scope) => !granted.includes(scope));
}
