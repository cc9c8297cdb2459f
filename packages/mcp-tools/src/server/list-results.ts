import { promptCatalogue } from '../prompts/prompt-catalogue.ts';
import { listedResources, resourceTemplates } from '../resources/resource-definition.ts';
import type { ToolAnnotations, ToolDefinition } from '../tool-definition.ts';
import type { ToolCallResult } from '../tool-result.ts';
import { listedInputSchema, listedOutputSchema } from './listed-schema.ts';

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

/**
 * One tool as tools/list shows it: name, copy, JSON Schemas (2020-12) of input and output as
 * {@link listedInputSchema} and {@link listedOutputSchema} compact them, and the four hints. The title is
 * listed once, at the top: `annotations.title` is its older spelling (MCP 2025-03-26), which clients of that
 * revision only show in place of the name, and 49 copies of it would cost the catalogue 1.4 KB.
 */
export function listedTool(tool: ToolDefinition): Record<string, unknown> {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: listedInputSchema(tool.input),
    outputSchema: listedOutputSchema(tool.output),
    annotations: listedAnnotations(tool.annotations),
  };
}

/**
 * The hints as listed. A read-only tool lists `readOnlyHint` and `openWorldHint` alone: MCP gives
 * `destructiveHint` and `idempotentHint` meaning only when `readOnlyHint` is false, and 38 copies of them
 * would cost the catalogue 1.8 KB.
 */
function listedAnnotations(annotations: ToolAnnotations): Record<string, boolean> {
  if (!annotations.readOnlyHint) return { ...annotations };
  return { readOnlyHint: true, openWorldHint: annotations.openWorldHint };
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
