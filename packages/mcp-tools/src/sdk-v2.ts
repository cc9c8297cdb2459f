// The entry point `@innkeep/mcp-tools/sdk-v2`: Innkeep's tools, resources, prompts and completions on a v2 SDK
// McpServer (`@modelcontextprotocol/server`), an optional peer dependency that only this entry point loads.

export type { InnkeepMcpV2Deps } from './sdk/register-innkeep-mcp-v2.ts';
export { createInnkeepMcpServerV2, registerInnkeepMcpV2 } from './sdk/register-innkeep-mcp-v2.ts';
