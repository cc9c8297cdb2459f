import {
  type Actor,
  type Clock,
  DomainError,
  errorCatalogue,
  type InnkeepDomain,
  reportInternalFailure,
  type Scope,
} from '@innkeep/domain';
import { toolCatalogue, toolsByName } from '../catalogue.ts';
import { type CompletionRef, complete, completionScopes } from '../completions/complete.ts';
import { invokeTool } from '../invoke-tool.ts';
import { getPrompt, promptScopes } from '../prompts/prompt-catalogue.ts';
import { readResource, resourceScopes } from '../resources/resource-definition.ts';
import { missingScopes, type ToolContext } from '../tool-definition.ts';
import {
  type JsonRpcId,
  type JsonRpcResponse,
  jsonRpcError,
  jsonRpcErrorCodes,
  jsonRpcIdOf,
  jsonRpcResult,
} from './json-rpc.ts';
import {
  type PrecomputedResult,
  precompute,
  precomputedToolSuccess,
  promptsListResult,
  resourcesListResult,
  resourceTemplatesListResult,
  toolsListResult,
} from './list-results.ts';
import { createModernEra, modernErrorCode } from './modern-era.ts';
import {
  negotiateProtocolVersion,
  type ProtocolVersion,
  supportedProtocolVersions,
} from './protocol-version.ts';
import { protocolEraOf } from './request-meta.ts';
import { serverInstructions } from './server-instructions.ts';

/** How the server names itself: in `initialize`, and in `server/discover` and every result of MCP 2026-07-28. */
export interface McpServerInfo {
  readonly name: string;
  readonly version: string;
  readonly title?: string;
}

/** Who sends a message: the acting owner, and the scopes their access token was granted. */
export interface McpCaller {
  readonly actor: Actor;
  readonly scopes: readonly Scope[];
}

/** What {@link createMcpDispatcher} needs. */
export interface McpDispatcherDeps {
  readonly domain: InnkeepDomain;
  readonly clock: Clock;
  readonly serverInfo: McpServerInfo;
  /** Receives every unexpected failure with the reference id the client is shown instead of the cause. */
  readonly report: (reference: string, cause: unknown) => void;
  /**
   * Wraps the dispatcher built here in one that serves more around it, e.g. a test serving tools and
   * resources no product has beside Innkeep's. Production passes none.
   */
  readonly wrap?: ((innkeep: McpDispatcher) => McpDispatcher) | undefined;
  /**
   * Told of every call of a tool that exists, once it ran (the metrics count them): `error` when the result
   * is a tool error (bad arguments, a refusal, a failure). Calls of unknown tools are not told, so a client
   * cannot add names.
   */
  readonly onToolCall?: ((call: McpToolCallReport) => void) | undefined;
}

/** One finished tool call, for {@link McpDispatcherDeps.onToolCall}. */
export interface McpToolCallReport {
  readonly tool: string;
  readonly outcome: 'success' | 'error';
  readonly durationMs: number;
}

/** Answers single MCP JSON-RPC messages; holds no state between them, so any instance can answer any. */
export interface McpDispatcher {
  /**
   * The response to `message`, or null when there is none to send (a notification, or a response from the
   * client). The lists' results are shared objects: send them, never change them.
   */
  handle(message: unknown, caller: McpCaller): Promise<JsonRpcResponse | null>;
  /** {@link handle}, serialised: the lists' JSON is computed once and spliced in, not stringified again. */
  handleJson(message: unknown, caller: McpCaller): Promise<string | null>;
}

/** A JSON-RPC error raised while handling a request; turned into the error response. */
class JsonRpcFailure extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

type Params = Readonly<Record<string, unknown>>;
type WellFormedMessage = { readonly id?: JsonRpcId; readonly method?: string; readonly params?: unknown };
type Reply = { readonly result: unknown } | { readonly precomputed: PrecomputedResult };
type MethodHandler = (params: Params, caller: McpCaller) => Reply | Promise<Reply>;
type Outcome =
  | JsonRpcResponse
  | { readonly jsonrpc?: undefined; readonly id: JsonRpcId; readonly precomputed: PrecomputedResult }
  | null;

/** The capabilities Innkeep declares: no list changes, subscriptions or logging, since it never pushes. */
const capabilities = { tools: {}, resources: {}, prompts: {}, completions: {} } as const;
const noScopes: readonly Scope[] = [];
const noCompletion = { completion: { values: [], total: 0, hasMore: false } };
// Names and URIs are echoed in messages; a client's megabyte-long name is not.
const maxEchoedChars = 200;

/**
 * The transport-neutral MCP server: one JSON-RPC message in, its response out. Lists (tools, resources,
 * templates, prompts) and the `initialize` answers are computed once here; a message costs only its own
 * work. Methods: initialize (2025-11-25, 2025-06-18, 2025-03-26), ping, tools/list, tools/call,
 * resources/list, resources/templates/list, resources/read, prompts/list, prompts/get, completion/complete.
 * Requests of MCP 2026-07-28 (a protocol version in `params._meta`) are served beside them: server/discover
 * instead of initialize and ping, and the same handlers otherwise (see `createModernEra`).
 *
 * Scope checks belong to the transport, which can still answer HTTP 403 (see {@link requiredScopes}); the
 * checks here are a second line that answers JSON-RPC -32011 should a transport forget. Completions the
 * grant does not cover answer no values rather than an error, so typing never triggers re-consent.
 */
export function createMcpDispatcher(deps: McpDispatcherDeps): McpDispatcher {
  const lists = {
    tools: toolsListResult(toolCatalogue),
    resources: resourcesListResult(),
    templates: resourceTemplatesListResult(),
    prompts: promptsListResult(),
  };
  const serverInfo = { ...deps.serverInfo };
  const initializeResults = Object.fromEntries(
    supportedProtocolVersions.map((protocolVersion) => [
      protocolVersion,
      precompute({ protocolVersion, capabilities, serverInfo, instructions: serverInstructions }),
    ]),
  ) as Record<ProtocolVersion, PrecomputedResult>;
  const emptyResult = precompute({});
  const modern = createModernEra({ serverInfo, capabilities, instructions: serverInstructions });
  const contextFor = (caller: McpCaller): ToolContext => ({
    actor: caller.actor,
    domain: deps.domain,
    clock: deps.clock,
  });

  const methods: ReadonlyMap<string, MethodHandler> = new Map<string, MethodHandler>([
    [
      'initialize',
      (params) => ({ precomputed: initializeResults[negotiateProtocolVersion(params.protocolVersion)] }),
    ],
    ['ping', () => ({ precomputed: emptyResult })],
    ['tools/list', (params) => listPage(params, lists.tools)],
    ['resources/list', (params) => listPage(params, lists.resources)],
    ['resources/templates/list', (params) => listPage(params, lists.templates)],
    ['prompts/list', (params) => listPage(params, lists.prompts)],
    [
      'tools/call',
      async (params, caller) => {
        const name = requireString(params, 'name', 'the name of a tool from tools/list');
        const tool = toolsByName.get(name);
        if (tool === undefined) {
          throw new JsonRpcFailure(
            jsonRpcErrorCodes.invalidParams,
            `Unknown tool ${echo(name)}. tools/list names every tool Innkeep has.`,
            { name: echo(name) },
          );
        }
        assertGranted(tool.scopes, caller, `the tool ${tool.name}`);
        const startedAt = performance.now();
        const result = await invokeTool(tool, params.arguments, contextFor(caller), deps.report);
        deps.onToolCall?.({
          tool: tool.name,
          outcome: result.isError === true ? 'error' : 'success',
          durationMs: performance.now() - startedAt,
        });
        if (result.isError === true) return { result };
        return { precomputed: precomputedToolSuccess(result) };
      },
    ],
    [
      'resources/read',
      async (params, caller) => {
        const uri = requireString(params, 'uri', 'the URI of a resource, e.g. service://listings');
        assertGranted(resourceScopes(uri) ?? noScopes, caller, uri);
        try {
          return { result: await readResource(uri, contextFor(caller)) };
        } catch (thrown) {
          throw fromDomainError(thrown, jsonRpcErrorCodes.resourceNotFound, { uri: echo(uri) });
        }
      },
    ],
    [
      'prompts/get',
      async (params, caller) => {
        const name = requireString(params, 'name', 'the name of a prompt from prompts/list');
        assertGranted(promptScopes(name) ?? noScopes, caller, `the prompt ${echo(name)}`);
        try {
          return { result: await getPrompt(name, params.arguments, contextFor(caller)) };
        } catch (thrown) {
          throw fromDomainError(thrown, jsonRpcErrorCodes.invalidParams, { name: echo(name) });
        }
      },
    ],
    [
      'completion/complete',
      async (params, caller) => {
        const ref = completionRefOf(params.ref);
        const argument = completionArgumentOf(params.argument);
        const scopes = completionScopes(ref, argument.name);
        if (scopes !== null && missingScopes({ scopes }, caller.scopes).length > 0) {
          return { result: noCompletion };
        }
        try {
          return { result: { completion: await complete(ref, argument, contextFor(caller)) } };
        } catch (thrown) {
          throw fromDomainError(thrown, jsonRpcErrorCodes.invalidParams, { ref });
        }
      },
    ],
  ]);

  async function dispatch(message: unknown, caller: McpCaller): Promise<Outcome> {
    const invalid = invalidMessageError(message);
    if (invalid !== null) return invalid;
    // Well formed from here: an object whose method, when present, is a string and whose id is usable.
    const { id, method, params: rawParams } = message as WellFormedMessage;
    // A response to a request of the server's (Innkeep sends none, so there is nothing to match it with),
    // or a notification (initialized, cancelled, …): neither gets an answer, and Innkeep has nothing to do.
    if (method === undefined || id === undefined) return null;
    // MCP 2026-07-28 requests name their revision in params._meta; they take the same handlers, with the
    // revision's refusals first, its error codes, and its fields added to every result.
    if (protocolEraOf(message) === 'modern') {
      const refusal = modern.refusal(message, method);
      if (refusal !== null) return jsonRpcError(id, refusal.code, refusal.message, refusal.data);
      if (method === 'server/discover') return { id, precomputed: modern.discover };
      const outcome = await answer(id, method, rawParams, caller);
      if (outcome.jsonrpc === undefined) {
        return { id, precomputed: modern.presentPrecomputed(method, outcome.precomputed) };
      }
      if ('error' in outcome) {
        const { code, message: text, data } = outcome.error;
        return jsonRpcError(id, modernErrorCode(code), text, data);
      }
      return jsonRpcResult(id, modern.present(method, outcome.result as Params));
    }
    return answer(id, method, rawParams, caller);
  }

  /** The outcome of request `id` of `method`, in the shape every revision shares. */
  async function answer(
    id: JsonRpcId,
    method: string,
    rawParams: unknown,
    caller: McpCaller,
  ): Promise<Exclude<Outcome, null>> {
    const handler = methods.get(method);
    if (handler === undefined) {
      return jsonRpcError(id, jsonRpcErrorCodes.methodNotFound, `Innkeep has no method ${echo(method)}.`);
    }
    const params = rawParams ?? {};
    if (!isRecord(params)) {
      return jsonRpcError(id, jsonRpcErrorCodes.invalidParams, '"params" must be an object.');
    }
    try {
      const reply = await handler(params, caller);
      return 'precomputed' in reply
        ? { id, precomputed: reply.precomputed }
        : jsonRpcResult(id, reply.result);
    } catch (thrown) {
      if (thrown instanceof JsonRpcFailure) return jsonRpcError(id, thrown.code, thrown.message, thrown.data);
      const { reference, message } = reportInternalFailure(thrown, deps.report);
      return jsonRpcError(id, jsonRpcErrorCodes.internalError, message, { reference });
    }
  }

  const innkeep: McpDispatcher = {
    async handle(message, caller) {
      const outcome = await dispatch(message, caller);
      if (outcome === null || outcome.jsonrpc !== undefined) return outcome;
      return jsonRpcResult(outcome.id, outcome.precomputed.result);
    },
    async handleJson(message, caller) {
      const outcome = await dispatch(message, caller);
      if (outcome === null) return null;
      if (outcome.jsonrpc !== undefined) return JSON.stringify(outcome);
      return `{"jsonrpc":"2.0","id":${JSON.stringify(outcome.id)},"result":${outcome.precomputed.json}}`;
    },
  };
  return deps.wrap?.(innkeep) ?? innkeep;
}

/**
 * The -32600 error for `message` when it is not one well-formed JSON-RPC 2.0 message (a request, a
 * notification or a response); null when it is one. Transports call it to answer HTTP 400 before
 * authenticating; the dispatcher answers the same error itself.
 */
export function invalidMessageError(message: unknown): JsonRpcResponse | null {
  if (!isRecord(message)) {
    return jsonRpcError(
      null,
      jsonRpcErrorCodes.invalidRequest,
      'Expected one JSON-RPC 2.0 message: an object with "jsonrpc": "2.0", a "method" and, for a request, an "id".',
    );
  }
  const id = jsonRpcIdOf(message);
  if (message.jsonrpc !== '2.0') {
    return jsonRpcError(id, jsonRpcErrorCodes.invalidRequest, 'The message must have "jsonrpc": "2.0".');
  }
  const hasId = message.id !== undefined;
  if (message.method === undefined) {
    if (hasId && ('result' in message || 'error' in message)) return null;
    return jsonRpcError(id, jsonRpcErrorCodes.invalidRequest, 'The message has no "method".');
  }
  if (typeof message.method !== 'string') {
    return jsonRpcError(id, jsonRpcErrorCodes.invalidRequest, '"method" must be a string.');
  }
  if (hasId && id === null) {
    return jsonRpcError(null, jsonRpcErrorCodes.invalidRequest, '"id" must be a string or a number.');
  }
  return null;
}

/**
 * The scopes the caller's grant must hold for `message` to run, for the transport to check before
 * dispatching (and answer HTTP 403 with a step-up challenge): a tool's by its name, a resource's by its URI,
 * a prompt's by its name; none for everything else (lists, initialize, ping; completions answer no values
 * instead), nor for notifications, which run nothing. `'unknown'` when the tool, resource or prompt named
 * does not exist: the dispatcher then answers the error that says so.
 */
export function requiredScopes(message: unknown): readonly Scope[] | 'unknown' {
  if (!isRecord(message) || message.id === undefined) return noScopes;
  const params = isRecord(message.params) ? message.params : {};
  switch (message.method) {
    case 'tools/call':
      return (typeof params.name === 'string' && toolsByName.get(params.name)?.scopes) || 'unknown';
    case 'resources/read':
      return (typeof params.uri === 'string' && resourceScopes(params.uri)) || 'unknown';
    case 'prompts/get':
      return (typeof params.name === 'string' && promptScopes(params.name)) || 'unknown';
    default:
      return noScopes;
  }
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function echo(text: string): string {
  return text.length <= maxEchoedChars ? text : `${text.slice(0, maxEchoedChars)}…`;
}

function requireString(params: Params, field: string, what: string): string {
  const value = params[field];
  if (typeof value === 'string') return value;
  throw new JsonRpcFailure(jsonRpcErrorCodes.invalidParams, `params.${field} must be a string: ${what}.`);
}

/** Innkeep's lists fit one page and it never hands out a cursor, so any cursor is one it did not give. */
function listPage(params: Params, list: PrecomputedResult): Reply {
  if (params.cursor !== undefined && params.cursor !== null && params.cursor !== '') {
    throw new JsonRpcFailure(
      jsonRpcErrorCodes.invalidParams,
      'Unknown cursor: this list has a single page and no cursor. Ask again without one.',
    );
  }
  return { precomputed: list };
}

function assertGranted(scopes: readonly Scope[], caller: McpCaller, what: string): void {
  const missing = missingScopes({ scopes }, caller.scopes);
  if (missing.length === 0) return;
  throw new JsonRpcFailure(
    jsonRpcErrorCodes.insufficientScope,
    `insufficient_scope: ${what} needs ${missing.join(', ')}, which this connection was not granted. ` +
      'Reconnect and allow it.',
    { required: scopes, missing },
  );
}

/**
 * A domain failure as a JSON-RPC error with the wire table's code (`not_found` as `notFoundCode`, which
 * resources/read sets to MCP's own); the domain's code and details ride in `data`. Anything that is not a
 * DomainError (or is an `internal` one) is rethrown, to be reported.
 */
function fromDomainError(thrown: unknown, notFoundCode: number, data: Record<string, unknown>): unknown {
  if (!(thrown instanceof DomainError) || thrown.code === 'internal') return thrown;
  const code = thrown.code === 'not_found' ? notFoundCode : errorCatalogue[thrown.code].jsonRpcCode;
  return new JsonRpcFailure(code, thrown.message, {
    ...data,
    code: thrown.code,
    ...(thrown.details === undefined ? {} : { details: thrown.details }),
  });
}

function completionRefOf(value: unknown): CompletionRef {
  if (isRecord(value)) {
    if (value.type === 'ref/prompt' && typeof value.name === 'string') {
      return { type: 'ref/prompt', name: value.name };
    }
    if (value.type === 'ref/resource' && typeof value.uri === 'string') {
      return { type: 'ref/resource', uri: value.uri };
    }
  }
  throw new JsonRpcFailure(
    jsonRpcErrorCodes.invalidParams,
    'params.ref must be {"type": "ref/prompt", "name": …} or {"type": "ref/resource", "uri": <a URI template>}.',
  );
}

function completionArgumentOf(value: unknown): { name: string; value: string } {
  if (isRecord(value) && typeof value.name === 'string' && typeof value.value === 'string') {
    return { name: value.name, value: value.value };
  }
  throw new JsonRpcFailure(
    jsonRpcErrorCodes.invalidParams,
    'params.argument must be {"name": <the argument>, "value": <what has been typed so far>}.',
  );
}
