import {
  type Actor,
  type Clock,
  DomainError,
  errorCatalogue,
  type InnkeepDomain,
  reportInternalFailure,
  type Scope,
} from '@innkeep/domain';
import {
  type CompletionArgument,
  type CompletionRef,
  type CompletionResult,
  complete,
  completionScopes,
} from '../completions/complete.ts';
import { invokeTool } from '../invoke-tool.ts';
import { getPrompt } from '../prompts/prompt-catalogue.ts';
import type { PromptDefinition, PromptResult } from '../prompts/prompt-definition.ts';
import { type ResourceReadResult, readResource } from '../resources/resource-definition.ts';
import { jsonRpcErrorCodes } from '../server/json-rpc.ts';
import { modernErrorCode } from '../server/modern-era.ts';
import type { ProtocolEra } from '../server/request-meta.ts';
import { missingScopes, type ToolContext, type ToolDefinition } from '../tool-definition.ts';
import { type ToolCallResult, toolError } from '../tool-result.ts';

/**
 * What a registration on an SDK `McpServer` needs from the host, whichever SDK generation it runs: the
 * domain, and who is calling with what grant. `Extra` is the per-request context that SDK hands its
 * handlers (v1: `RequestHandlerExtra`, v2: `ServerContext`), where the host's auth middleware left the
 * credential.
 */
export interface InnkeepSdkDeps<Extra> {
  readonly domain: InnkeepDomain;
  readonly clock: Clock;
  /** The account owner a request acts as, e.g. from the auth info the host's auth middleware set. */
  actorFor(extra: Extra): Actor | Promise<Actor>;
  /** The scopes the request's credential was granted. */
  scopesFor(extra: Extra): readonly string[] | Promise<readonly string[]>;
  /** Receives every unexpected failure with the reference id the client is shown instead of the cause. */
  report(reference: string, cause: unknown): void;
}

/**
 * Innkeep's tools, resources, prompts and completions as per-request handlers that any SDK's callbacks
 * delegate to: each checks the grant, acts as the caller, and turns failures into what the SDK sends.
 */
export interface InnkeepSdkHandlers<Extra> {
  /**
   * Runs a tool; a tool outside the grant is an `isError` result with code `insufficient_scope`. An error
   * result has no `structuredContent`, so SDK clients (which check it against the output schema when
   * present, v1 even on errors: typescript-sdk#1943) read its `{error}` JSON from the text.
   */
  callTool(tool: ToolDefinition, args: unknown, extra: Extra): Promise<ToolCallResult>;
  /** Reads a listed resource or a filled-in template that needs `scopes`. */
  readResource(uri: string, scopes: readonly Scope[], extra: Extra): Promise<ResourceReadResult>;
  /** Fills in a prompt; its own schema checks `args`, with Innkeep's messages. */
  getPrompt(prompt: PromptDefinition, args: unknown, extra: Extra): Promise<PromptResult>;
  /**
   * Suggests values; none for an argument whose lookup the grant does not cover. Takes the `ref` as the SDK
   * parsed it, which may carry more (a title), and keeps only what Innkeep reads: its type and name or uri.
   */
  complete(
    ref: CompletionRef,
    argument: CompletionArgument,
    extra: Extra,
  ): Promise<{ completion: CompletionResult }>;
}

/**
 * The handlers every SDK registration shares, so both generations behave alike.
 *
 * @param eraOf - the protocol era of a request. It decides the codes of JSON-RPC errors: MCP 2026-07-28
 *   reserves -32000…-32099 for the spec, so there `insufficient_scope` is 1011, not -32011, and "resource
 *   not found" is -32602, not -32002 ({@link modernErrorCode}).
 */
export function createSdkHandlers<Extra>(
  deps: InnkeepSdkDeps<Extra>,
  eraOf: (extra: Extra) => ProtocolEra,
): InnkeepSdkHandlers<Extra> {
  const contextFor = async (extra: Extra): Promise<ToolContext> => ({
    actor: await deps.actorFor(extra),
    domain: deps.domain,
    clock: deps.clock,
  });
  /** Refuses a resource or prompt whose scopes the grant lacks, with the `insufficient_scope` code. */
  const assertGranted = async (scopes: readonly Scope[], extra: Extra, what: string) => {
    const missing = missingScopes({ scopes }, await deps.scopesFor(extra));
    if (missing.length === 0) return;
    const error = new SdkRequestError(
      jsonRpcErrorCodes.insufficientScope,
      insufficientScopeMessage(what, missing),
      { required: scopes, missing },
    );
    throw inEra(error, eraOf(extra));
  };
  const failure = (thrown: unknown, extra: Extra, notFoundCode: number, data: Record<string, unknown>) =>
    inEra(asRequestError(thrown, notFoundCode, data, deps.report), eraOf(extra));

  return {
    async callTool(tool, args, extra) {
      const missing = missingScopes(tool, await deps.scopesFor(extra));
      if (missing.length > 0) {
        return toolError('insufficient_scope', insufficientScopeMessage(`the tool ${tool.name}`, missing), {
          required: tool.scopes,
          missing,
        });
      }
      return invokeTool(tool, args, await contextFor(extra), deps.report);
    },

    async readResource(uri, scopes, extra) {
      await assertGranted(scopes, extra, uri);
      try {
        return await readResource(uri, await contextFor(extra));
      } catch (thrown) {
        throw failure(thrown, extra, jsonRpcErrorCodes.resourceNotFound, { uri });
      }
    },

    async getPrompt(prompt, args, extra) {
      await assertGranted(prompt.scopes, extra, `the prompt ${prompt.name}`);
      try {
        return await getPrompt(prompt.name, args, await contextFor(extra));
      } catch (thrown) {
        throw failure(thrown, extra, jsonRpcErrorCodes.invalidParams, { name: prompt.name });
      }
    },

    async complete(received, argument, extra) {
      const ref: CompletionRef =
        received.type === 'ref/prompt'
          ? { type: 'ref/prompt', name: received.name }
          : { type: 'ref/resource', uri: received.uri };
      const scopes = completionScopes(ref, argument.name);
      if (scopes !== null && missingScopes({ scopes }, await deps.scopesFor(extra)).length > 0) {
        return { completion: { values: [], total: 0, hasMore: false } };
      }
      try {
        return { completion: await complete(ref, argument, await contextFor(extra)) };
      } catch (thrown) {
        throw failure(thrown, extra, jsonRpcErrorCodes.invalidParams, { ref });
      }
    },
  };
}

function insufficientScopeMessage(what: string, missing: readonly string[]): string {
  return (
    `insufficient_scope: ${what} needs ${missing.join(', ')}, which this connection was not granted. ` +
    'Reconnect and allow it.'
  );
}

/**
 * An error both SDKs send as it is: its `code`, `message` and `data` become the JSON-RPC error. (The SDKs'
 * own error classes would prefix "MCP error <code>:" to the message a person reads.)
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

/** `error` with the code MCP 2026-07-28 gives it, for a request of that era. */
function inEra(error: SdkRequestError, era: ProtocolEra): SdkRequestError {
  if (era === 'legacy') return error;
  return new SdkRequestError(modernErrorCode(error.code), error.message, error.data);
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
