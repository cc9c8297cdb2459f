import { describe, expect, it } from 'vitest';
import { toolCatalogue } from '../src/catalogue.ts';
import { listedTool, toolsListResult } from '../src/server/list-results.ts';
import { fieldsExplainedByInstructions, serverInstructions } from '../src/server/server-instructions.ts';

// Issue 16: the catalogue must leave an assistant its context. About 4 bytes of JSON make a token. The issue
// asked for 40 KB; with every tool keeping its output schema and every input field a model must understand
// described, the floor measured is about 52 KB (names, titles and hints alone take 8 KB, input structure
// 21 KB), so the budget holds what was reached, about 15,000 tokens, with little room: a new field or a
// longer description has to be paid for elsewhere.
const maxCatalogueBytes = 60_000;
const maxToolBytes = 3_000;
const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
const listed = toolCatalogue.map(listedTool) as {
  name: string;
  inputSchema: { properties?: Record<string, { description?: string }> };
  outputSchema?: { type?: string };
}[];

describe('the tools/list catalogue budget', () => {
  it(`is at most ${maxCatalogueBytes} bytes in all`, () => {
    const { json } = toolsListResult(toolCatalogue);
    expect(Buffer.byteLength(json)).toBeLessThanOrEqual(maxCatalogueBytes);
  });

  it(`gives no tool more than ${maxToolBytes} bytes`, () => {
    const over = listed.filter((tool) => bytesOf(tool) > maxToolBytes).map((tool) => tool.name);
    expect(over).toEqual([]);
  });

  it('keeps an output schema for every tool', () => {
    for (const tool of listed) expect(tool.outputSchema?.type, tool.name).toBe('object');
  });

  it('describes every input field but those the server instructions explain for all tools', () => {
    for (const name of fieldsExplainedByInstructions) expect(serverInstructions).toContain(name);
    const undescribed = listed.flatMap((tool) =>
      Object.entries(tool.inputSchema.properties ?? {})
        .filter(([field, schema]) => !schema.description && !fieldsExplainedByInstructions.has(field))
        .map(([field]) => `${tool.name}.${field}`),
    );
    expect(undescribed).toEqual([]);
  });
});
