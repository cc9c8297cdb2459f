import type { McpServerInfo } from './dispatcher.ts';

/** How Innkeep names itself to MCP clients in `initialize`. */
export const innkeepServerInfo: McpServerInfo = { name: 'innkeep', title: 'Innkeep', version: '0.1.0' };
