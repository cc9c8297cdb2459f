import { errorCatalogue } from '@innkeep/domain';
import type { McpServerInfo } from './dispatcher.ts';
import { type JsonRpcError, jsonRpcErrorCodes } from './json-rpc.ts';
import { type PrecomputedResult, precompute } from './list-results.ts';
import {
  claimedProtocolVersion,
  isSupportedModernProtocolVersion,
  modernProtocolVersions,
  requestMetaError,
  unsupportedProtocolVersionError,
} from './request-meta.ts';

/** The `_meta` key under which every MCP 2026-07-28 result names the server that produced it. */
const serverInfoMetaKey = 'io.modelcontextprotocol/serverInfo';

/**
 * The methods Innkeep serves in MCP 2026-07-28. `initialize`, `ping`, `logging/setLevel`,
 * `resources/(un)subscribe` and `subscriptions/listen` are not among them: the revision removed the first
 * four, and the last needs a stream a JSON-only server never holds (Innkeep declares no list changes).
 */
export const modernMethods: ReadonlySet<string> = new Set([
  'server/discover',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'prompts/list',
  'prompts/get',
  'completion/complete',
]);

/** How long a client may reuse a result (SEP-2549), and whether a cache may share it between tokens. */
interface CacheHint {
  readonly ttlMs: number;
  readonly cacheScope: 'public' | 'private';
}

// Innkeep's lists are the same for every caller (each tool is listed whatever the grant) and change only
// when Innkeep is upgraded: an hour bounds how long a client keeps an old catalogue after that.
const catalogueHint: CacheHint = { ttlMs: 60 * 60 * 1000, cacheScope: 'public' };
// A resource is the account's own data, which a booking or a message changes at any moment: never reused,
// and never shared with another token.
const accountDataHint: CacheHint = { ttlMs: 0, cacheScope: 'private' };

const cacheHints: Readonly<Record<string, CacheHint>> = {
  'server/discover': catalogueHint,
  'tools/list': catalogueHint,
  'resources/list': catalogueHint,
  'resources/templates/list': catalogueHint,
  'prompts/list': catalogueHint,
  'resources/read': accountDataHint,
};

// The codes of Innkeep's own refusals before 2026-07-28 → after it, which reserves -32000…-32099 for the
// spec (errorCatalogue's table); and "resource not found", which became invalid params.
const modernCodes: ReadonlyMap<number, number> = new Map([
  ...Object.values(errorCatalogue).map(
    ({ jsonRpcCode, jsonRpcCodeFrom2026 }) => [jsonRpcCode, jsonRpcCodeFrom2026] as const,
  ),
  [jsonRpcErrorCodes.resourceNotFound, jsonRpcErrorCodes.invalidParams] as const,
]);

/** The JSON-RPC error code `code` (as the revisions up to 2025-11-25 use it) becomes in MCP 2026-07-28. */
export function modernErrorCode(code: number): number {
  return modernCodes.get(code) ?? code;
}

/** What {@link createModernEra} needs: what `server/discover` tells a client. */
export interface ModernEraOptions {
  readonly serverInfo: McpServerInfo;
  readonly capabilities: Readonly<Record<string, unknown>>;
  readonly instructions: string;
}

/** MCP 2026-07-28 around the era-neutral handlers: what it refuses, discovers and adds to results. */
export interface ModernEra {
  /** The `server/discover` result, computed once. */
  readonly discover: PrecomputedResult;
  /**
   * The error a modern request gets before any handler runs, in the order the revision ranks them: an
   * invalid `_meta` envelope (-32602), a protocol version Innkeep does not serve (-32022), a method it
   * does not have in this revision (-32601); null when it may run.
   */
  refusal(message: unknown, method: string): JsonRpcError | null;
  /** A precomputed result as `method` answers it in this revision; each list's is computed once. */
  presentPrecomputed(method: string, precomputed: PrecomputedResult): PrecomputedResult;
  /** A result as `method` answers it in this revision. */
  present(method: string, result: Readonly<Record<string, unknown>>): Record<string, unknown>;
}

/**
 * MCP 2026-07-28 for Innkeep's dispatcher. Every result gets `resultType: "complete"` (Innkeep never asks
 * the client for input) and names the server in `_meta["io.modelcontextprotocol/serverInfo"]`; lists and
 * resources/read get their cache hints (`ttlMs`, `cacheScope`).
 */
export function createModernEra(options: ModernEraOptions): ModernEra {
  const serverInfo = { ...options.serverInfo };
  const presented = new WeakMap<PrecomputedResult, PrecomputedResult>();
  const fieldsFor = (method: string) => modernResultFields(method, serverInfo);

  return {
    discover: precompute({
      ...fieldsFor('server/discover'),
      supportedVersions: [...modernProtocolVersions],
      capabilities: options.capabilities,
      instructions: options.instructions,
    }),
    refusal(message, method) {
      const invalidMeta = requestMetaError(message);
      if (invalidMeta !== null) return invalidMeta;
      const version = claimedProtocolVersion(message) ?? '';
      if (!isSupportedModernProtocolVersion(version)) return unsupportedProtocolVersionError(version);
      if (modernMethods.has(method)) return null;
      return {
        code: jsonRpcErrorCodes.methodNotFound,
        message: `Innkeep has no method ${method.slice(0, 200)} in MCP ${version}.`,
      };
    },
    presentPrecomputed(method, precomputed) {
      // A tool's result is new on every call; only the lists, shared by every call, are worth remembering.
      if (!(method in cacheHints)) return withLeadingFields(precomputed, fieldsFor(method));
      const known = presented.get(precomputed);
      if (known !== undefined) return known;
      const modern = withLeadingFields(precomputed, fieldsFor(method));
      presented.set(precomputed, modern);
      return modern;
    },
    present: (method, result) => withFields(result, fieldsFor(method)),
  };
}

/**
 * `result` of `method` as MCP 2026-07-28 answers it, for a dispatcher that serves more than Innkeep's own
 * (e.g. a test's fixtures): `resultType`, `serverInfo` in `_meta`, and the cache hints of lists and reads.
 */
export function presentModernResult(
  method: string,
  result: Readonly<Record<string, unknown>>,
  serverInfo: McpServerInfo,
): Record<string, unknown> {
  return withFields(result, modernResultFields(method, serverInfo));
}

/** What MCP 2026-07-28 adds to a result of `method`. */
function modernResultFields(method: string, serverInfo: McpServerInfo) {
  return { resultType: 'complete', ...cacheHints[method], _meta: { [serverInfoMetaKey]: serverInfo } };
}

/** `result` with `fields`, which win; a `_meta` of both is merged. */
function withFields(
  result: Readonly<Record<string, unknown>>,
  fields: Readonly<Record<string, unknown>> & { readonly _meta: object },
): Record<string, unknown> {
  const ownMeta = result._meta;
  return typeof ownMeta === 'object' && ownMeta !== null
    ? { ...result, ...fields, _meta: { ...ownMeta, ...fields._meta } }
    : { ...result, ...fields };
}

/**
 * `precomputed` with `fields` first, its JSON spliced rather than stringified again (a tool's output can be
 * large). A result that already has one of the fields is merged and stringified instead, so no key repeats.
 */
function withLeadingFields(
  precomputed: PrecomputedResult,
  fields: Readonly<Record<string, unknown>> & { readonly _meta: object },
): PrecomputedResult {
  if (Object.keys(fields).some((key) => key in precomputed.result)) {
    return precompute(withFields(precomputed.result, fields));
  }
  const head = JSON.stringify(fields).slice(0, -1);
  const rest = precomputed.json.slice(1);
  return {
    result: { ...fields, ...precomputed.result },
    json: rest === '}' ? `${head}}` : `${head},${rest}`,
  };
}
