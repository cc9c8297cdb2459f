import type { Actor, Clock, InnkeepDomain, Scope } from '@innkeep/domain';
import type { z } from 'zod';

/** What a tool handler gets besides its input: who acts, the account's use cases, and the clock. */
export interface ToolContext {
  readonly actor: Actor;
  readonly domain: InnkeepDomain;
  readonly clock: Clock;
}

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

/**
 * One tool, declared once. The MCP adapters (the SDK registration for other hosts, and Innkeep's own fast
 * /mcp dispatcher) read this declaration and nothing else: name, copy, schemas, scopes and handler.
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

/** Declares a tool; a typed identity function so the handler's input and output are checked against the schemas. */
export function defineTool<Input extends z.ZodObject, Output extends z.ZodObject>(
  definition: ToolDefinition<Input, Output>,
): ToolDefinition<Input, Output> {
  return definition;
}

/** Annotations of a tool that only reads. */
export const readOnly: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** The scopes of `tool` that `granted` lacks; empty when the grant suffices. */
export function missingScopes(tool: Pick<ToolDefinition, 'scopes'>, granted: readonly string[]): Scope[] {
  return tool.scopes.filter((scope) => !granted.includes(scope));
}
