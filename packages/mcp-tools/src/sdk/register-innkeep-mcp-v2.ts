import {
  McpServer,
  PROTOCOL_VERSION_META_KEY,
  ResourceTemplate,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { toolCatalogue } from '../catalogue.ts';
import { promptCatalogue } from '../prompts/prompt-catalogue.ts';
import type { PromptDefinition } from '../prompts/prompt-definition.ts';
import { listedResources, resourceTemplates } from '../resources/resource-definition.ts';
import type { McpServerInfo } from '../server/dispatcher.ts';
import { listedTool } from '../server/list-results.ts';
import type { ProtocolEra } from '../server/request-meta.ts';
import { innkeepServerInfo } from '../server/server-info.ts';
import { serverInstructions } from '../server/server-instructions.ts';
import type { ToolDefinition } from '../tool-definition.ts';
import { checkedByInnkeep } from './checked-by-innkeep.ts';
import { createSdkHandlers, type InnkeepSdkDeps } from './sdk-handlers.ts';

/**
 * What {@link registerInnkeepMcpV2} needs from the host: the domain, and who is calling with what grant,
 * read from the v2 SDK's per-request `ctx` (e.g. `ctx.http?.authInfo`, which the host's auth middleware
 * passes to the transport or to `createMcpHandler`'s `fetch`).
 */
export type InnkeepMcpV2Deps = InnkeepSdkDeps<ServerContext>;

/**
 * Registers every Innkeep tool, resource, resource template and prompt on a v2 SDK `McpServer`
 * (`@modelcontextprotocol/server` 2.x). It uses the same declarations, copy and behaviour as Innkeep's own
 * /mcp. The server answers clients of MCP 2026-07-28 (served through `createMcpHandler`) and of the older
 * revisions.
 *
 * Unlike the v1 registration, tools/list shows exactly the schemas Innkeep's /mcp lists, and arguments
 * reach Innkeep's own checks unchanged ({@link checkedByInnkeep}). A bad or misspelt argument therefore
 * gets the same `invalid_argument` result as on /mcp. Error results carry their
 * `{error: {code, message, details}}` as text, not as `structuredContent`. A tool outside the grant is an
 * `isError` result with code `insufficient_scope`; a resource or prompt outside it is JSON-RPC error
 * -32011, or 1011 on 2026-07-28.
 *
 * Completion is answered by Innkeep's own `completion/complete` handler, because the SDK's completion
 * callbacks are not told who is asking and listing or reservation ids are per account: register no other
 * completable prompt or template on the same server (the SDK would refuse to replace the handler).
 */
export function registerInnkeepMcpV2(server: McpServer, deps: InnkeepMcpV2Deps): void {
  const handlers = createSdkHandlers(deps, eraOf);

  for (const tool of toolCatalogue) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: checkedByInnkeep(() => listedSchema(tool, 'inputSchema')),
        outputSchema: checkedByInnkeep(() => listedSchema(tool, 'outputSchema')),
        annotations: { title: tool.title, ...tool.annotations },
      },
      (args, ctx) => handlers.callTool(tool, args, ctx),
    );
  }

  for (const resource of listedResources) {
    server.registerResource(
      resource.name,
      resource.uri,
      { title: resource.title, description: resource.description, mimeType: resource.mimeType },
      (uri, ctx) => handlers.readResource(uri.href, resource.scopes, ctx),
    );
  }
  for (const template of resourceTemplates) {
    server.registerResource(
      template.name,
      new ResourceTemplate(template.uriTemplate, { list: undefined }),
      { title: template.title, description: template.description, mimeType: template.mimeType },
      (uri, _variables, ctx) => handlers.readResource(uri.href, template.scopes, ctx),
    );
  }

  for (const prompt of promptCatalogue) {
    server.registerPrompt(
      prompt.name,
      {
        title: prompt.title,
        description: prompt.description,
        argsSchema: checkedByInnkeep(() => promptArgumentsSchema(prompt)),
      },
      (args, ctx) => handlers.getPrompt(prompt, args, ctx),
    );
  }

  server.server.registerCapabilities({ completions: {} });
  server.server.setRequestHandler('completion/complete', (request, ctx) =>
    handlers.complete(request.params.ref, request.params.argument, ctx),
  );
}

/**
 * A new v2 SDK `McpServer` with everything Innkeep serves registered on it, and the same instructions as
 * Innkeep's /mcp. Connect it to a transport, or return it from the factory given to `createMcpHandler`.
 */
export function createInnkeepMcpServerV2(
  deps: InnkeepMcpV2Deps,
  serverInfo: McpServerInfo = innkeepServerInfo,
): McpServer {
  const server = new McpServer({ ...serverInfo }, { instructions: serverInstructions });
  registerInnkeepMcpV2(server, deps);
  return server;
}

/**
 * A request's era. Every MCP 2026-07-28 request names its revision in `_meta` (the SDK lifts it into
 * `ctx.mcpReq.envelope`); requests of the older revisions never do.
 */
function eraOf(ctx: ServerContext): ProtocolEra {
  const envelope = ctx.mcpReq.envelope;
  return envelope !== undefined && PROTOCOL_VERSION_META_KEY in envelope ? 'modern' : 'legacy';
}

// Each tool's tools/list entry, computed once: `createMcpHandler` builds a fresh server for every request.
const listedTools = new Map<string, Record<string, unknown>>();

/** A JSON Schema of `tool` exactly as Innkeep's /mcp lists it. */
function listedSchema(tool: ToolDefinition, key: 'inputSchema' | 'outputSchema'): Record<string, unknown> {
  let listed = listedTools.get(tool.name);
  if (listed === undefined) {
    listed = listedTool(tool);
    listedTools.set(tool.name, listed);
  }
  // listedTool sets both schemas, always as JSON Schema objects.
  return listed[key] as Record<string, unknown>;
}

/** A prompt's arguments as the JSON Schema the SDK lists them from: described strings, some required. */
function promptArgumentsSchema(prompt: PromptDefinition): Record<string, unknown> {
  return {
    type: 'object',
    properties: Object.fromEntries(
      prompt.arguments.map(({ name, description }) => [name, { type: 'string', description }]),
    ),
    required: prompt.arguments.filter((argument) => argument.required).map((argument) => argument.name),
  };
}
