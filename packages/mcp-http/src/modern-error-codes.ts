import { modernErrorCode } from '@innkeep/mcp-tools';

/**
 * `body`, a JSON-RPC error response of the transport's (401, 403, 429), with its code as MCP 2026-07-28
 * numbers it: Innkeep's own refusals move out of the range the revision reserves (-32001 → 1001,
 * -32010 → 1010, -32011 → 1011, -32012 → 1012), while the HTTP status and headers stay as they are. Any
 * other body is returned unchanged.
 */
export function withModernErrorCode(body: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return body;
  }
  if (typeof parsed !== 'object' || parsed === null || !('error' in parsed)) return body;
  const { error } = parsed as { error: unknown };
  if (typeof error !== 'object' || error === null || !('code' in error) || typeof error.code !== 'number') {
    return body;
  }
  const code = modernErrorCode(error.code);
  return code === error.code ? body : JSON.stringify({ ...parsed, error: { ...error, code } });
}
