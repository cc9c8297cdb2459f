import { toolCatalogue } from '../src/catalogue.ts';
import { listedTool, toolsListResult } from '../src/server/list-results.ts';

// Prints what each tool costs an assistant's context in tools/list: bytes of JSON (UTF-8) and approximate
// tokens (bytes / 4), largest first, split into description, input and output schemas, then the total.
//
//   npm run catalogue:size

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
const tokensOf = (bytes: number) => Math.round(bytes / 4);

const rows = toolCatalogue
  .map((tool) => {
    const listed = listedTool(tool);
    return {
      tool: tool.name,
      bytes: bytesOf(listed),
      tokens: tokensOf(bytesOf(listed)),
      description: bytesOf(listed.description),
      input: bytesOf(listed.inputSchema),
      output: bytesOf(listed.outputSchema),
    };
  })
  .sort((a, b) => b.bytes - a.bytes);
const total = Buffer.byteLength(toolsListResult(toolCatalogue).json);

console.table(rows);
console.log(`tools/list: ${rows.length} tools, ${total} bytes, about ${tokensOf(total)} tokens`);
