import type { Scope } from '@innkeep/domain';
import { z } from 'zod';
import type { ToolContext } from '../tool-definition.ts';

/** One argument as prompts/list shows it. */
export interface PromptArgument {
  readonly name: string;
  readonly description: string;
  readonly required: boolean;
}

/** One message of a filled-in prompt. Innkeep's prompts are a single user message of text. */
export interface PromptMessage {
  role: 'user' | 'assistant';
  content: { type: 'text'; text: string };
}

/** What prompts/get returns. */
export interface PromptResult {
  [key: string]: unknown;
  description: string;
  messages: PromptMessage[];
}

/** What a prompt declares; {@link definePrompt} adds the argument list. */
export interface PromptDeclaration<Args extends z.ZodObject = z.ZodObject> {
  /** snake_case, unique. */
  readonly name: string;
  readonly title: string;
  /** Product copy for the person choosing the prompt: what it prepares, from which live facts. */
  readonly description: string;
  /** Every scope the facts it reads need; the transport decides what to do when the grant lacks one. */
  readonly scopes: readonly Scope[];
  /**
   * The arguments, every field a described string schema (MCP sends prompt arguments as strings), strict
   * so a misspelt argument is reported instead of ignored.
   */
  readonly args: Args;
  /** Reads the account's live facts and writes the prompt. Throw a DomainError (e.g. `not_found`). */
  handler(args: z.output<Args>, context: ToolContext): Promise<PromptResult>;
}

/** One prompt, declared once: the transports read this and nothing else. */
export interface PromptDefinition<Args extends z.ZodObject = z.ZodObject> extends PromptDeclaration<Args> {
  /** The arguments as prompts/list shows them, derived from `args`. */
  readonly arguments: readonly PromptArgument[];
}

/** Declares a prompt; its argument list (name, description, required) comes from the `args` schema. */
export function definePrompt<Args extends z.ZodObject>(
  declaration: PromptDeclaration<Args>,
): PromptDefinition<Args> {
  const argumentList = Object.entries(declaration.args.shape).map(([name, schema]) => ({
    name,
    description: z.globalRegistry.get(schema)?.description ?? '',
    required: !z.safeParse(schema, undefined).success,
  }));
  return { ...declaration, arguments: argumentList };
}
