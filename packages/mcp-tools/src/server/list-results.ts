import { errorCodes } from '@innkeep/domain';
import { promptCatalogue } from '../prompts/prompt-catalogue.ts';
import { listedResources, resourceTemplates } from '../resources/resource-definition.ts';
import type { ToolDefinition } from '../tool-definition.ts';
import type { ToolCallResult } from '../tool-result.ts';
import { objectJsonSchema } from './json-schema.ts';

/** A result computed once: the object, and the same object as JSON, spliced into responses as is. */
export interface PrecomputedResult {
  readonly result: Readonly<Record<string, unknown>>;
  readonly json: string;
}

/** Freezes the answer to a list method: it is the same for every caller and never changes while running. */
export function precompute(result: Record<string, unknown>): PrecomputedResult {
  return { result, json: JSON.stringify(result) };
}

/**
 * A successful tool result, serialised reusing the JSON text block `toolSuccess` already made: the text is
 * exactly the JSON of `structuredContent`, so the output is stringified once per call, not twice.
 */
export function precomputedToolSuccess(result: ToolCallResult): PrecomputedResult {
  const text = result.content[0]?.text ?? JSON.stringify(result.structuredContent);
  return {
    result,
    json: `{"content":[{"type":"text","text":${JSON.stringify(text)}}],"structuredContent":${text}}`,
  };
}

/** The `structuredContent` of a tool result with `isError`: what went wrong, for the model to act on. */
export const toolErrorJsonSchema = {
  type: 'object',
  properties: {
    error: {
      type: 'object',
      properties: {
        code: { type: 'string', enum: [...errorCodes], description: 'What kind of failure this is.' },
        message: { type: 'string', description: 'What is wrong and what to do about it.' },
        details: { type: 'object', description: 'Facts behind the failure: invalid fields, clashing dates.' },
      },
      required: ['code', 'message'],
    },
  },
  required: ['error'],
} as const;

/**
 * A tool's output schema as listed: the output, or the error envelope of a result with `isError`. Clients
 * validate `structuredContent` against it, and the TypeScript SDK's client (1.32) does so for error results
 * too (typescript-sdk#1943), so an output-only schema would turn every tool error into a client-side
 * validation failure. Definitions (`$defs`) stay at the root, where the output's references point.
 */
export function listedOutputSchema(tool: ToolDefinition): Record<string, unknown> {
  const { $defs, ...output } = objectJsonSchema(tool.output);
  return { type: 'object', ...($defs === undefined ? {} : { $defs }), anyOf: [output, toolErrorJsonSchema] };
}

/** One tool as tools/list shows it: name, copy, JSON Schemas (2020-12) of input and output, annotations. */
export function listedTool(tool: ToolDefinition): Record<string, unknown> {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: objectJsonSchema(tool.input),
    outputSchema: listedOutputSchema(tool),
    annotations: { title: tool.title, ...tool.annotations },
  };
}

/** The tools/list result: every tool of `tools`, whatever a caller's grant, in one page. */
export function toolsListResult(tools: readonly ToolDefinition[]): PrecomputedResult {
  return precompute({ tools: tools.map(listedTool) });
}

/** The resources/list result: exactly the listed resources, never the templates. */
export function resourcesListResult(): PrecomputedResult {
  return precompute({
    resources: listedResources.map(({ uri, name, title, description, mimeType }) => ({
      uri,
      name,
      title,
      description,
      mimeType,
    })),
  });
}

/** The resources/templates/list result. */
export function resourceTemplatesListResult(): PrecomputedResult {
  return precompute({
    resourceTemplates: resourceTemplates.map(({ uriTemplate, name, title, description, mimeType }) => ({
      uriTemplate,
      name,
      title,
      description,
      mimeType,
    })),
  });
}

/** The prompts/list result, with each prompt's arguments (name, description, required). */
export function promptsListResult(): PrecomputedResult {
  return precompute({
    prompts: promptCatalogue.map(({ name, title, description, arguments: promptArguments }) => ({
      name,
      title,
      description,
      arguments: promptArguments.map((argument) => ({ ...argument })),
    })),
  });
}
