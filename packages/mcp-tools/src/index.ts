// The public surface of @innkeep/mcp-tools: Innkeep's MCP tools, resources, prompts and completions, each
// declared once; the transport-neutral JSON-RPC dispatcher that Innkeep's own /mcp runs; and the registration
// on an SDK McpServer (v1, `@modelcontextprotocol/sdk`) for other MCP hosts. The registration on a v2 server
// (`@modelcontextprotocol/server`) is the entry point `@innkeep/mcp-tools/sdk-v2`, so that only a host that
// uses v2 loads it.

export { toolCatalogue, toolsByName } from './catalogue.ts';
export type {
  CompletionArgument,
  CompletionRef,
  CompletionResult,
} from './completions/complete.ts';
export { complete, completionScopes, maxCompletionValues } from './completions/complete.ts';
export { invokeTool } from './invoke-tool.ts';
export { findPrompt, getPrompt, promptCatalogue, promptScopes } from './prompts/prompt-catalogue.ts';
export type {
  PromptArgument,
  PromptDefinition,
  PromptMessage,
  PromptResult,
} from './prompts/prompt-definition.ts';
export type {
  ListedResourceDefinition,
  ResolvedResource,
  ResourceReadResult,
  ResourceTemplateDefinition,
} from './resources/resource-definition.ts';
export {
  listedResources,
  readResource,
  resolveResource,
  resourceScopes,
  resourceTemplates,
} from './resources/resource-definition.ts';
export type { InnkeepMcpDeps, SdkRequestExtra } from './sdk/register-innkeep-mcp.ts';
export { createInnkeepMcpServer, registerInnkeepMcp } from './sdk/register-innkeep-mcp.ts';
export type { InnkeepSdkDeps } from './sdk/sdk-handlers.ts';
export type {
  McpCaller,
  McpDispatcher,
  McpDispatcherDeps,
  McpServerInfo,
  McpToolCallReport,
} from './server/dispatcher.ts';
export { createMcpDispatcher, invalidMessageError, requiredScopes } from './server/dispatcher.ts';
export type { JsonRpcError, JsonRpcId, JsonRpcResponse } from './server/json-rpc.ts';
export { jsonRpcError, jsonRpcErrorCodes, jsonRpcIdOf, jsonRpcResult } from './server/json-rpc.ts';
// How tools/list shows a tool, for a host or test listing tools of its own beside Innkeep's.
export { listedTool } from './server/list-results.ts';
export {
  modernErrorCode,
  modernMethods,
  presentModernResult,
} from './server/modern-era.ts';
export type { ProtocolVersion } from './server/protocol-version.ts';
export {
  isSupportedProtocolVersion,
  latestProtocolVersion,
  negotiateProtocolVersion,
  supportedProtocolVersions,
} from './server/protocol-version.ts';
export type { ModernProtocolVersion, ProtocolEra } from './server/request-meta.ts';
export {
  claimedProtocolVersion,
  isModernProtocolVersion,
  isSupportedModernProtocolVersion,
  missingRequestMetaError,
  modernProtocolVersions,
  protocolEraOf,
  requestMetaError,
  unsupportedProtocolVersionError,
} from './server/request-meta.ts';
export { innkeepServerInfo } from './server/server-info.ts';
export { serverInstructions } from './server/server-instructions.ts';
export { mcpFirstConnectionScopes, mcpSurfaceScopes } from './surface-scopes.ts';
export type { ToolAnnotations, ToolContext, ToolDefinition } from './tool-definition.ts';
export { defineTool, missingScopes, readOnly } from './tool-definition.ts';
export type { ToolCallResult } from './tool-result.ts';
export { maxResultChars, toolError, toolFailure, toolSuccess } from './tool-result.ts';
