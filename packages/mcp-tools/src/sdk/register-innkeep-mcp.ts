import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CompleteRequestSchema,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { toolCatalogue } from '../catalogue.ts';
import { promptCatalogue } from '../prompts/prompt-catalogue.ts';
import type { PromptDefinition } from '../prompts/prompt-definition.ts';
import { listedResources, resourceTemplates } from '../resources/resource-definition.ts';
import type { McpServerInfo } from '../server/dispatcher.ts';
import { innkeepServerInfo } from '../server/server-info.ts';
import { serverInstructions } from '../server/server-instructions.ts';
import type { ToolDefinition } from '../tool-definition.ts';
import { createSdkHandlers, type InnkeepSdkDeps, type InnkeepSdkHandlers } from './sdk-handlers.ts';

/** The per-request context the SDK hands to every handler (auth info, session, signal). */
export type SdkRequestExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * What {@link registerInnkeepMcp} needs from the host: the domain, and who is calling with what grant,
 * read from the SDK's `extra` (e.g. `extra.authInfo` set by the host's auth middleware).
 */
export type InnkeepMcpDeps = InnkeepSdkDeps<SdkRequestExtra>;

/**
 * Registers every Innkeep tool, resource, resource template and prompt on an SDK `McpServer`, with the
 * same declarations, copy and behaviour as Innkeep's own /mcp, so any MCP host (stdio, another HTTP
 * stack) can serve them. Differences the SDK imposes: it validates tool input itself (a bad call, a
 * misspelt argument included, gets the SDK's error text around Innkeep's message), it lists JSON Schema draft-07 of the output alone, so error results carry their
 * `{error: {code, message, details}}` as text rather than `structuredContent`, and a tool outside the grant
 * is an `isError` result with code `insufficient_scope` (no HTTP 403 exists at this layer).
 *
 * Completion is answered by Innkeep's own `completion/complete` handler, because the SDK's completion
 * callbacks are not told who is asking and listing or reservation ids are per account: register no other
 * completable prompt or template on the same server.
 */
export function registerInnkeepMcp(server: McpServer, deps: InnkeepMcpDeps): void {
  // The v1 SDK speaks the protocol only up to 2025-11-25, so every request is of the legacy era.
  const handlers = createSdkHandlers(deps, () => 'legacy');

  for (const tool of toolCatalogue) registerTool(server, tool, handlers);

  for (const resource of listedResources) {
    server.registerResource(
      resource.name,
      resource.uri,
      { title: resource.title, description: resource.description, mimeType: resource.mimeType },
      (uri, extra) => handlers.readResource(uri.href, resource.scopes, extra),
    );
  }
  for (const template of resourceTemplates) {
    server.registerResource(
      template.name,
      new ResourceTemplate(template.uriTemplate, { list: undefined }),
      { title: template.title, description: template.description, mimeType: template.mimeType },
      (uri, _variables, extra) => handlers.readResource(uri.href, template.scopes, extra),
    );
  }

  for (const prompt of promptCatalogue) {
    server.registerPrompt(
      prompt.name,
      { title: prompt.title, description: prompt.description, argsSchema: promptArgsShape(prompt) },
      (args, extra) => handlers.getPrompt(prompt, args, extra),
    );
  }

  server.server.registerCapabilities({ completions: {} });
  server.server.setRequestHandler(CompleteRequestSchema, (request, extra) =>
    handlers.complete(request.params.ref, request.params.argument, extra),
  );
}

/**
 * A new SDK `McpServer` with everything Innkeep serves registered on it, and the same instructions as
 * Innkeep's /mcp. Connect it to any transport.
 */
export function createInnkeepMcpServer(
  deps: InnkeepMcpDeps,
  serverInfo: McpServerInfo = innkeepServerInfo,
): McpServer {
  const server = new McpServer({ ...serverInfo }, { instructions: serverInstructions });
  registerInnkeepMcp(server, deps);
  return server;
}

function registerTool(
  server: McpServer,
  tool: ToolDefinition,
  handlers: InnkeepSdkHandlers<SdkRequestExtra>,
): void {
  server.registerTool(
    tool.name,
    {
      title: tool.title,
      description: tool.description,
      inputSchema: tool.input,
      outputSchema: tool.output,
      annotations: { title: tool.title, ...tool.annotations },
    },
    (args, extra) => handlers.callTool(tool, args, extra),
  );
}

/**
 * Prompt arguments for the SDK: every one a described string, optional unless required. The prompt's own
 * schema validates them in `getPrompt`, with Innkeep's messages; the SDK's copy only shapes prompts/list.
 */
function promptArgsShape(prompt: PromptDefinition): Record<string, z.ZodType<string | undefined>> {
  return Object.fromEntries(
    prompt.arguments.map((argument) => [
      argument.name,
      argument.required
        ? z.string().describe(argument.description)
        : z.string().optional().describe(argument.description),
    ]),
  );
}
