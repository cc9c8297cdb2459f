import type { ToolDefinition } from './tool-definition.ts';
import { analyticsTools } from './tools/analytics-tools.ts';
import { readTools } from './tools/read-tools.ts';
import { writeTools } from './tools/write-tools.ts';

/** Every tool Innkeep serves, each declared once; tools/list lists all of them whatever the caller's grant. */
export const toolCatalogue: readonly ToolDefinition[] = [...readTools, ...analyticsTools, ...writeTools];

/** Tools by name. */
export const toolsByName: ReadonlyMap<string, ToolDefinition> = new Map(
  toolCatalogue.map((tool) => [tool.name, tool]),
);
