import {
  claimedProtocolVersion,
  isModernProtocolVersion,
  isSupportedModernProtocolVersion,
  type JsonRpcError,
  jsonRpcErrorCodes,
  missingRequestMetaError,
  protocolEraOf,
  requestMetaError,
  unsupportedProtocolVersionError,
} from '@innkeep/mcp-tools';

/** A request's headers as Node reads them: lower-case names, repeated ones as arrays. */
type RequestHeaders = Readonly<Record<string, string | readonly string[] | undefined>>;

// The body field each method's `Mcp-Name` header mirrors (MCP 2026-07-28, Streamable HTTP).
const nameSources: Readonly<Record<string, 'name' | 'uri'>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
};
const base64Sentinel = /^=\?base64\?(.*)\?=$/;
const canonicalBase64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * True when a POST is MCP 2026-07-28 traffic: its body names a revision of that era in `params._meta`, or
 * its `MCP-Protocol-Version` header does. Such a POST skips the legacy header check and takes
 * {@link modernRequestRefusal} instead.
 */
export function isModernPost(message: unknown, headers: RequestHeaders): boolean {
  if (protocolEraOf(message) === 'modern') return true;
  const headerVersion = headerValue(headers, 'mcp-protocol-version');
  return headerVersion !== undefined && isModernProtocolVersion(headerVersion);
}

/**
 * The refusal (always HTTP 400) of a modern POST that breaks a rule of MCP 2026-07-28 the transport checks
 * before its token is looked at, in the SDK's order: the `_meta` envelope (-32602; also when only the header
 * names the revision), the `MCP-Protocol-Version` and `Mcp-Method` headers against the body (-32020), the
 * revision itself (-32022), then the required headers' presence and `Mcp-Name` against the body (-32020,
 * after `=?base64?…?=` decoding). Null when none is broken, and for notifications, which carry no envelope
 * of their own. A method the revision lacks is refused later (404), once the caller is known.
 */
export function modernRequestRefusal(message: unknown, headers: RequestHeaders): JsonRpcError | null {
  if (!isRequest(message)) return null;
  const headerVersion = headerValue(headers, 'mcp-protocol-version');
  const methodHeader = headerValue(headers, 'mcp-method');
  if (protocolEraOf(message) === 'legacy') {
    if (headerVersion === undefined || !isModernProtocolVersion(headerVersion)) return null;
    if (message.method === 'initialize') {
      return headerMismatch(
        `initialize belongs to revisions before ${headerVersion}, which the header names`,
      );
    }
    return missingRequestMetaError(headerVersion);
  }
  const invalidMeta = requestMetaError(message);
  if (invalidMeta !== null) return invalidMeta;
  const claimed = claimedProtocolVersion(message) ?? '';
  if (headerVersion !== undefined && headerVersion !== claimed) {
    return headerMismatch(
      `the MCP-Protocol-Version header names ${echo(headerVersion)}, the body's _meta ${echo(claimed)}`,
    );
  }
  if (methodHeader !== undefined && methodHeader !== message.method) {
    return headerMismatch(
      `the Mcp-Method header names ${echo(methodHeader)}, the body ${echo(message.method)}`,
    );
  }
  if (!isSupportedModernProtocolVersion(claimed)) return unsupportedProtocolVersionError(claimed);
  if (headerVersion === undefined) return headerMismatch('the MCP-Protocol-Version header is missing');
  if (methodHeader === undefined) return headerMismatch('the Mcp-Method header is missing');
  return nameHeaderRefusal(message, headerValue(headers, 'mcp-name'));
}

/**
 * An `Mcp-Name` value as the client meant it: the text inside a `=?base64?…?=` sentinel (how names that are
 * not plain ASCII travel) decoded from UTF-8, any other value as is; undefined when the sentinel holds no
 * canonical Base64 of UTF-8, which the server must refuse.
 */
function decodeHeaderValue(value: string): string | undefined {
  const encoded = base64Sentinel.exec(value)?.[1];
  if (encoded === undefined) return value;
  if (!canonicalBase64.test(encoded)) return undefined;
  try {
    return strictUtf8.decode(Buffer.from(encoded, 'base64'));
  } catch {
    return undefined;
  }
}

/** The -32020 refusal when `Mcp-Name` is missing, undecodable or unlike the name or URI in the body. */
function nameHeaderRefusal(
  message: { readonly method: string; readonly params?: unknown },
  nameHeader: string | undefined,
): JsonRpcError | null {
  const field = nameSources[message.method];
  if (field === undefined) return null;
  const params = isRecord(message.params) ? message.params : {};
  const bodyValue = params[field];
  // A body without the name or URI is refused by the handler, which says what is missing.
  if (typeof bodyValue !== 'string') return null;
  if (nameHeader === undefined) return headerMismatch(`the Mcp-Name header is missing (params.${field})`);
  const decoded = decodeHeaderValue(nameHeader);
  if (decoded === undefined) return headerMismatch('the Mcp-Name header holds invalid Base64');
  if (decoded !== bodyValue) {
    return headerMismatch(`the Mcp-Name header names ${echo(decoded)}, params.${field} ${echo(bodyValue)}`);
  }
  return null;
}

function headerMismatch(problem: string): JsonRpcError {
  return {
    code: jsonRpcErrorCodes.headerMismatch,
    message: `Header mismatch: ${problem}.`,
    data: { problem },
  };
}

/** One header's value with optional whitespace trimmed; repeated headers are joined, so they never match. */
function headerValue(headers: RequestHeaders, name: string): string | undefined {
  const value = headers[name];
  if (value === undefined) return undefined;
  return (typeof value === 'string' ? value : value.join(', ')).trim();
}

function isRequest(message: unknown): message is { readonly method: string; readonly params?: unknown } {
  return isRecord(message) && typeof message.method === 'string' && message.id !== undefined;
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function echo(text: string): string {
  return text.length <= 80 ? text : `${text.slice(0, 80)}…`;
}
