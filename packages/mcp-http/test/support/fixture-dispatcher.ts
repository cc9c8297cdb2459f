// Serves test-only tools, resources and prompts around Innkeep's own dispatcher: the MCP conformance suite
// calls fixtures no product has (`test_image_content`, `test://static-binary`, …). They are declared with
// the product's definition types and listed, validated and failed the same way; the optional extras carry
// content Innkeep itself never sends. Production code knows nothing of them: a test passes
// `wrap: servingFixtures(…)` to the dispatcher's dependencies.

import { DomainError, errorCatalogue, parseInput } from '@innkeep/domain';
import {
  invokeTool,
  jsonRpcError,
  jsonRpcErrorCodes,
  jsonRpcResult,
  type ListedResourceDefinition,
  listedTool,
  type McpCaller,
  type McpDispatcher,
  type McpDispatcherDeps,
  type PromptDefinition,
  presentModernResult,
  protocolEraOf,
  type ResourceTemplateDefinition,
  type ToolContext,
  type ToolDefinition,
} from '@innkeep/mcp-tools';

/** One resource's contents: text, or binary data as base64 `blob`. */
export type McpResourceContents = { readonly uri: string; readonly mimeType: string } & (
  | { readonly text: string }
  | { readonly blob: string }
);

/** A block of content in a tool result or a prompt message; Innkeep's own tools and prompts send text only. */
export type McpContentBlock =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image' | 'audio'; readonly data: string; readonly mimeType: string }
  | { readonly type: 'resource'; readonly resource: McpResourceContents };

/** A fixture resource of fixed binary contents, declared like a listed resource otherwise. */
export type McpBinaryResourceFixture = Omit<ListedResourceDefinition, 'mimeType' | 'read'> & {
  readonly mimeType: string;
  /** The contents, base64. */
  readonly blob: string;
};

/** Tools, resources and prompts served after Innkeep's own. None needs a scope. */
export interface McpFixtures {
  /** Tools; a successful call shows `content`, when given, instead of the output's JSON text. */
  readonly tools?: readonly (ToolDefinition & { readonly content?: readonly McpContentBlock[] })[];
  readonly resources?: readonly (ListedResourceDefinition | McpBinaryResourceFixture)[];
  readonly resourceTemplates?: readonly ResourceTemplateDefinition[];
  /** Prompts; the `attachments` of the parsed arguments go out as user messages before the handler's. */
  readonly prompts?: readonly (PromptDefinition & {
    attachments?(args: Readonly<Record<string, unknown>>): readonly McpContentBlock[];
  })[];
}

type Message = { readonly id?: unknown; readonly method?: unknown; readonly params?: unknown };
type Params = Readonly<Record<string, unknown>>;
type Answer = Awaited<ReturnType<McpDispatcher['handle']>>;

const noCompletion = { completion: { values: [], total: 0, hasMore: false } };

/**
 * The `wrap` for {@link McpDispatcherDeps}: a dispatcher that answers messages about `fixtures` itself,
 * appends them to Innkeep's lists, and hands everything else to Innkeep's dispatcher unchanged. Its own
 * answers to MCP 2026-07-28 requests carry what that revision adds to results, as Innkeep's do.
 */
export function servingFixtures(
  fixtures: McpFixtures,
  deps: Pick<McpDispatcherDeps, 'domain' | 'clock' | 'report' | 'serverInfo'>,
): (innkeep: McpDispatcher) => McpDispatcher {
  const tools = new Map((fixtures.tools ?? []).map((tool) => [tool.name, tool]));
  const resources = new Map((fixtures.resources ?? []).map((resource) => [resource.uri, resource]));
  const templates = (fixtures.resourceTemplates ?? []).map((definition) => ({
    definition,
    variables: [...definition.uriTemplate.matchAll(/\{(\w+)\}/g)].map((match) => match[1] ?? ''),
    pattern: new RegExp(`^${definition.uriTemplate.replace(/\{(\w+)\}/g, '(?<$1>[^/]+)')}$`),
  }));
  const prompts = new Map((fixtures.prompts ?? []).map((prompt) => [prompt.name, prompt]));
  const lists: Readonly<Record<string, readonly [string, readonly object[]]>> = {
    'tools/list': ['tools', [...tools.values()].map(listedTool)],
    'resources/list': [
      'resources',
      [...resources.values()].map(({ uri, name, title, description, mimeType }) => ({
        uri,
        name,
        title,
        description,
        mimeType,
      })),
    ],
    'resources/templates/list': [
      'resourceTemplates',
      templates.map(({ definition: { uriTemplate, name, title, description, mimeType } }) => ({
        uriTemplate,
        name,
        title,
        description,
        mimeType,
      })),
    ],
    'prompts/list': [
      'prompts',
      [...prompts.values()].map(({ name, title, description, arguments: promptArguments }) => ({
        name,
        title,
        description,
        arguments: promptArguments.map((argument) => ({ ...argument })),
      })),
    ],
  };
  const contextFor = (caller: McpCaller): ToolContext => ({
    actor: caller.actor,
    domain: deps.domain,
    clock: deps.clock,
  });

  /** The fixture resource or template expansion `uri` names, read; undefined when it names none. */
  async function readFixture(uri: string, context: ToolContext): Promise<McpResourceContents | undefined> {
    const listed = resources.get(uri);
    if (listed !== undefined) {
      return 'blob' in listed
        ? { uri, mimeType: listed.mimeType, blob: listed.blob }
        : { uri, mimeType: listed.mimeType, text: await listed.read(context) };
    }
    for (const { definition, pattern } of templates) {
      const variables = pattern.exec(uri)?.groups;
      if (variables === undefined) continue;
      const text = await definition.read(parseInput(definition.params, variables), context);
      return { uri, mimeType: definition.mimeType, text };
    }
    return undefined;
  }

  /** The answer about a fixture; undefined when `message` is not about one, for Innkeep to answer. */
  async function answer(
    innkeep: McpDispatcher,
    message: unknown,
    caller: McpCaller,
  ): Promise<Answer | undefined> {
    if (typeof message !== 'object' || message === null) return undefined;
    const { id, method, params: rawParams } = message as Message;
    if ((typeof id !== 'string' && typeof id !== 'number') || typeof method !== 'string') return undefined;
    const params: Params = typeof rawParams === 'object' && rawParams !== null ? (rawParams as Params) : {};
    const list = lists[method];
    if (list !== undefined) {
      const own = await innkeep.handle(message, caller);
      if (own === null || !('result' in own)) return own;
      const [key, extra] = list;
      const result = own.result as Record<string, unknown>;
      const entries = result[key];
      return jsonRpcResult(id, { ...result, [key]: [...(Array.isArray(entries) ? entries : []), ...extra] });
    }
    const context = contextFor(caller);
    const answered = await answerFixture(id, method, params, context);
    if (answered === undefined || answered === null || !('result' in answered)) return answered;
    if (protocolEraOf(message) === 'legacy') return answered;
    return jsonRpcResult(id, presentModernResult(method, answered.result as Params, deps.serverInfo));
  }

  /** The answer about a fixture, as revisions before 2026-07-28 give it; undefined when it is not one. */
  async function answerFixture(
    id: string | number,
    method: string,
    params: Params,
    context: ToolContext,
  ): Promise<Answer | undefined> {
    try {
      switch (method) {
        case 'tools/call': {
          const tool = typeof params.name === 'string' ? tools.get(params.name) : undefined;
          if (tool === undefined) return undefined;
          const result = await invokeTool(tool, params.arguments, context, deps.report);
          if (result.isError === true || tool.content === undefined) return jsonRpcResult(id, result);
          return jsonRpcResult(id, { ...result, content: tool.content });
        }
        case 'resources/read': {
          if (typeof params.uri !== 'string') return undefined;
          const contents = await readFixture(params.uri, context);
          return contents === undefined ? undefined : jsonRpcResult(id, { contents: [contents] });
        }
        case 'prompts/get': {
          const prompt = typeof params.name === 'string' ? prompts.get(params.name) : undefined;
          if (prompt === undefined) return undefined;
          const args = parseInput(prompt.args, params.arguments ?? {});
          const filled = await prompt.handler(args, context);
          const attached = (prompt.attachments?.(args) ?? []).map((content) => ({ role: 'user', content }));
          return jsonRpcResult(id, { ...filled, messages: [...attached, ...filled.messages] });
        }
        case 'completion/complete':
          return completeFixture(id, params);
        default:
          return undefined;
      }
    } catch (thrown) {
      if (!(thrown instanceof DomainError)) throw thrown;
      return jsonRpcError(id, errorCatalogue[thrown.code].jsonRpcCode, thrown.message, {
        code: thrown.code,
        ...(thrown.details === undefined ? {} : { details: thrown.details }),
      });
    }
  }

  /** Fixtures offer nothing to complete; an argument they do not have is an error, as Innkeep's are. */
  function completeFixture(id: string | number, params: Params): Answer | undefined {
    const ref = (params.ref ?? {}) as { type?: unknown; name?: unknown; uri?: unknown };
    const argument = (params.argument ?? {}) as { name?: unknown };
    const argumentNames =
      ref.type === 'ref/prompt' && typeof ref.name === 'string'
        ? prompts.get(ref.name)?.arguments.map((promptArgument) => promptArgument.name)
        : templates.find(({ definition }) => definition.uriTemplate === ref.uri)?.variables;
    if (argumentNames === undefined) return undefined;
    if (typeof argument.name === 'string' && argumentNames.includes(argument.name)) {
      return jsonRpcResult(id, noCompletion);
    }
    return jsonRpcError(
      id,
      jsonRpcErrorCodes.invalidParams,
      `There is no argument ${String(argument.name)} to complete; it has ${argumentNames.join(', ') || 'none'}.`,
    );
  }

  return (innkeep) => ({
    async handle(message, caller) {
      return (await answer(innkeep, message, caller)) ?? innkeep.handle(message, caller);
    },
    async handleJson(message, caller) {
      const fixtureAnswer = await answer(innkeep, message, caller);
      if (fixtureAnswer === undefined) return innkeep.handleJson(message, caller);
      return fixtureAnswer === null ? null : JSON.stringify(fixtureAnswer);
    },
  });
}
