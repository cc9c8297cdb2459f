import { parseInput } from '@innkeep/domain';
import type { ToolContext, ToolDefinition } from './tool-definition.ts';
import { type ToolCallResult, toolFailure, toolSuccess } from './tool-result.ts';

/**
 * Runs one tool call: validates the arguments against the tool's input schema (every problem named in one
 * `invalid_argument` result, unknown argument names included, so a misspelt one changes nothing and says
 * so), runs the handler, and wraps its output or its failure as a tool result.
 * Scope checks happen before this, in the transport, where a 403 can still be sent.
 *
 * @param report - receives unexpected failures with the reference id the model is shown.
 */
export async function invokeTool(
  tool: ToolDefinition,
  args: unknown,
  context: ToolContext,
  report: (reference: string, cause: unknown) => void,
): Promise<ToolCallResult> {
  try {
    const input = parseInput(tool.input, args ?? {});
    const output = await tool.handler(input, context);
    return toolSuccess(output);
  } catch (thrown) {
    return toolFailure(thrown, report);
  }
}
