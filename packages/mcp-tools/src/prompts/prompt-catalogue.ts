import { DomainError, parseInput, type Scope } from '@innkeep/domain';
import type { ToolContext } from '../tool-definition.ts';
import { dailyBriefingPrompt } from './daily-briefing.prompt.ts';
import { guestResponsePrompt } from './guest-response.prompt.ts';
import { pricingReviewPrompt } from './pricing-review.prompt.ts';
import type { PromptDefinition, PromptResult } from './prompt-definition.ts';

/** Every prompt Innkeep serves, in the order prompts/list shows them. */
export const promptCatalogue: readonly PromptDefinition[] = [
  dailyBriefingPrompt,
  guestResponsePrompt,
  pricingReviewPrompt,
];

const promptsByName: ReadonlyMap<string, PromptDefinition> = new Map(
  promptCatalogue.map((prompt) => [prompt.name, prompt]),
);

/** The prompt called `name`, or undefined. */
export function findPrompt(name: string): PromptDefinition | undefined {
  return promptsByName.get(name);
}

/** The scopes the facts of prompt `name` need; null when there is no such prompt. */
export function promptScopes(name: string): Scope[] | null {
  const prompt = promptsByName.get(name);
  return prompt === undefined ? null : [...prompt.scopes];
}

/**
 * Fills in prompt `name` with `args` (MCP sends strings) and the account's live facts. Empty strings count
 * as absent, because clients send optional arguments the person left blank that way. Scope checks happen
 * before this, in the transport.
 *
 * @throws DomainError `not_found` for an unknown prompt or a record the arguments name that does not exist;
 *   `invalid_argument` naming every missing, unknown or malformed argument.
 */
export async function getPrompt(name: string, args: unknown, context: ToolContext): Promise<PromptResult> {
  const prompt = promptsByName.get(name);
  if (prompt === undefined) {
    throw new DomainError(
      'not_found',
      `No prompt named ${name}. Innkeep's prompts: ${promptCatalogue.map((known) => known.name).join(', ')}.`,
      { details: { kind: 'prompt', name } },
    );
  }
  return prompt.handler(parseInput(prompt.args, withoutBlanks(args ?? {})), context);
}

function withoutBlanks(args: unknown): unknown {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return args;
  return Object.fromEntries(
    Object.entries(args).filter(([, value]) => !(typeof value === 'string' && value.trim() === '')),
  );
}
