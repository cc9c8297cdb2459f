import {
  type Actor,
  type Clock,
  DomainError,
  errorCatalogue,
  type InnkeepDomain,
  reportInternalFailure,
  type Scope,
} from '@innkeep/domain';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CompleteRequestSchema,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { toolCatalogue } from '../catalogue.ts';
import { complete, completionScopes } from '../completions/complete.ts';
import { invokeTool } from '../invoke-tool.ts';
import { getPrompt, promptCatalogue } from '../prompts/prompt-catalogue.ts';
import type { PromptDefinition } from '../prompts/prompt-definition.ts';
import { listedResources, readResource, resourceTemplates } from '../resources/resource-definition.ts';
import type { McpServerInfo } from '../server/dispatcher.ts';
import { jsonRpcErrorCodes } from '../server/json-rpc.ts';
import { innkeepServerInfo } from '../server/server-info.ts';
import { serverInstructions } from '../server/server-instructions.ts';
import { missingScopes, type ToolContext, type ToolDefinition } from '../tool-definition.ts';
import { type ToolCallResult, toolError } from '../tool-result.ts';

/** The per-request context the SDK hands to every handler (auth info, session, signal). */
export type SdkRequestExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** What {@link registerInnkeepMcp} needs from the host: the domain, and who is calling with what grant. */
export interface InnkeepMcpDeps {
  readonly domain: InnkeepDomain;
  readonly clock: Clock;
  /** The account owner a request acts as, e.g. from `extra.authInfo` set by the host's auth middleware. */
  actorFor(extra: SdkRequestExtra): Actor | Promise<Actor>;
  /** The scopes the request's credential was granted. */
  scopesFor(extra: SdkRequestExtra): readonly string[] | Promise<readonly string[]>;
  /** Receives every unexpected failure with the reference id the client is shown instead of the cause. */
  report(reference: string, cause: unknown): void;
}

/**
 * Registers every Innkeep tool, resource, resource template and prompt on an SDK `McpServer`, with the
 * same declarations, copy and behaviour as Innkeep's own /mcp, so any MCP host (stdio, another HTTP
 * stack) can serve them. Differences the SDK imposes: it validates tool input itself (a bad call gets the
 * SDK's error text), it lists JSON Schema draft-07 of the output alone, so error results carry their
 * `{error: {code, message, details}}` as text rather than `structuredContent`, and a tool outside the grant
 * is an `isError` result with code `insufficient_scope` (no HTTP 403 exists at this layer).
 *
 * Completion is answered by Innkeep's own `completion/complete` handler, because the SDK's completion
 * callbacks are not told who is asking and listing or reservation ids are per account: register no other
 * completable prompt or template on the same server.
 */
export function registerInnkeepMcp(server: McpServer, deps: InnkeepMcpDeps): void {
  const contextFor = async (extra: SdkRequestExtra): Promise<ToolContext> => ({
    actor: await deps.actorFor(extra),
    domain: deps.domain,
    clock: deps.clock,
  });
  /** Refuses a resource or prompt whose scopes the grant lacks, with JSON-RPC -32011. */
  const assertGranted = async (scopes: readonly Scope[], extra: SdkRequestExtra, what: string) => {
    const missing = missingScopes({ scopes }, await deps.scopesFor(extra));
    if (missing.length === 0) return;
    throw new SdkRequestError(jsonRpcErrorCodes.insufficientScope, insufficientScopeMessage(what, missing), {
      required: scopes,
      missing,
    });
  };
  const failure = (thrown: unknown, notFoundCode: number, data: Record<string, unknown> = {}) =>
    asRequestError(thrown, notFoundCode, data, deps.report);

  for (const tool of toolCatalogue) registerTool(server, tool, deps, contextFor);

  for (const resource of listedResources) {
    server.registerResource(
      resource.name,
      resource.uri,
      { title: resource.title, description: resource.description, mimeType: resource.mimeType },
      async (uri, extra) => {
        await assertGranted(resource.scopes, extra, uri.href);
        return readResource(uri.href, await contextFor(extra)).catch((thrown: unknown) => {
          throw failure(thrown, jsonRpcErrorCodes.resourceNotFound, { uri: uri.href });
        });
      },
    );
  }
  for (const template of resourceTemplates) {
    server.registerResource(
      template.name,
      new ResourceTemplate(template.uriTemplate, { list: undefined }),
      { title: template.title, description: template.description, mimeType: template.mimeType },
      async (uri, _variables, extra) => {
        await assertGranted(template.scopes, extra, uri.href);
        return readResource(uri.href, await contextFor(extra)).catch((thrown: unknown) => {
          throw failure(thrown, jsonRpcErrorCodes.resourceNotFound, { uri: uri.href });
        });
      },
    );
  }

  for (const prompt of promptCatalogue) {
    server.registerPrompt(
      prompt.name,
      { title: prompt.title, description: prompt.description, argsSchema: promptArgsShape(prompt) },
      async (args, extra) => {
        await assertGranted(prompt.scopes, extra, `the prompt ${prompt.name}`);
        try {
          return await getPrompt(prompt.name, args, await contextFor(extra));
        } catch (thrown) {
          throw failure(thrown, jsonRpcErrorCodes.invalidParams, { name: prompt.name });
        }
      },
    );
  }

  server.server.registerCapabilities({ completions: {} });
  server.server.setRequestHandler(CompleteRequestSchema, async (request, extra) => {
    const { ref, argument } = request.params;
    const innkeepRef =
      ref.type === 'ref/prompt'
        ? { type: 'ref/prompt' as const, name: ref.name }
        : { type: 'ref/resource' as const, uri: ref.uri };
    const scopes = completionScopes(innkeepRef, argument.name);
    if (scopes !== null && missingScopes({ scopes }, await deps.scopesFor(extra)).length > 0) {
      return { completion: { values: [], total: 0, hasMore: false } };
    }
    try {
      return { completion: await complete(innkeepRef, argument, await contextFor(extra)) };
    } catch (thrown) {
      throw failure(thrown, jsonRpcErrorCodes.invalidParams, { ref });
    }
  });
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
  deps: InnkeepMcpDeps,
  contextFor: (extra: SdkRequestExtra) => Promise<ToolContext>,
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
    async (args, extra) => {
      const missing = missingScopes(tool, await deps.scopesFor(extra));
      if (missing.length > 0) {
        return forSdkClients(
          toolError('insufficient_scope', insufficientScopeMessage(`the tool ${tool.name}`, missing), {
            required: tool.scopes,
            missing,
          }),
        );
      }
      return forSdkClients(await invokeTool(tool, args, await contextFor(extra), deps.report));
    },
  );
}

/** A tool result whose error results have no `structuredContent`. */
interface SdkToolResult {
  [key: string]: unknown;
  content: ToolCallResult['content'];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/**
 * A tool result as SDK clients can take it. The SDK's client (1.32) checks `structuredContent` against the
 * output schema even on error results (typescript-sdk#1943) and the SDK lists only the output's schema, so
 * an error result carries its `{error: {code, message, details}}` as a second text block instead.
 */
function forSdkClients(result: ToolCallResult): SdkToolResult {
  if (result.isError !== true) return result;
  return {
    isError: true,
    content: [...result.content, { type: 'text', text: JSON.stringify(result.structuredContent) }],
  };
}

function insufficientScopeMessage(what: string, missing: readonly string[]): string {
  return (
    `insufficient_scope: ${what} needs ${missing.join(', ')}, which this connection was not granted. ` +
    'Reconnect and allow it.'
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

/**
 * An error the SDK sends as it is: its `code`, `message` and `data` become the JSON-RPC error. (The SDK's
 * McpError would prefix "MCP error <code>:" to the message a person reads.)
 */
class SdkRequestError extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

/**
 * A failure as the JSON-RPC error the SDK sends: a DomainError with its message and the wire table's code
 * (`not_found` as `notFoundCode`), anything else reported and replaced by the generic message with a
 * reference id, so driver text never reaches the client.
 */
function asRequestError(
  thrown: unknown,
  notFoundCode: number,
  data: Record<string, unknown>,
  report: (reference: string, cause: unknown) => void,
): SdkRequestError {
  if (thrown instanceof SdkRequestError) return thrown;
  if (thrown instanceof DomainError && thrown.code !== 'internal') {
    const code = thrown.code === 'not_found' ? notFoundCode : errorCatalogue[thrown.code].jsonRpcCode;
    return new SdkRequestError(code, thrown.message, {
      ...data,
      code: thrown.code,
      ...(thrown.details === undefined ? {} : { details: thrown.details }),
    });
  }
  const { reference, message } = reportInternalFailure(thrown, report);
  return new SdkRequestError(jsonRpcErrorCodes.internalError, message, { reference });
}
