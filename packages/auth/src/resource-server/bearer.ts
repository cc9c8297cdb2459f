import { hash } from 'node:crypto';

/** The token of an `Authorization: Bearer <token>` header (scheme case-insensitive); undefined otherwise. */
export function bearerToken(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  const match = /^Bearer +([^ ]+) *$/i.exec(authorization);
  return match?.[1];
}

/**
 * What the rate limiter counts under for `token`: its SHA-256, so the raw token never becomes a key in
 * Redis or in memory, and two instances count the same token under the same key.
 */
export function rateLimitKey(token: string): string {
  return hash('sha256', token, 'base64url');
}

/** The parameters of one `WWW-Authenticate: Bearer` challenge (RFC 6750 §3), in order. */
export interface BearerChallenge {
  readonly error?: 'invalid_token' | 'insufficient_scope';
  readonly errorDescription?: string;
  /** Space-separated scopes the client should ask for. */
  readonly scope: string;
  /** The protected resource metadata URL (RFC 9728 §5.1). */
  readonly resourceMetadata: string;
}

/**
 * The header value of `challenge`. Values are quoted strings; a `"` or `\` in a description (never in a
 * scope or URL of ours) is dropped rather than escaped, since some clients do not unescape.
 */
export function bearerChallenge(challenge: BearerChallenge): string {
  const quoted = (value: string) => `"${value.replace(/["\\]/g, '')}"`;
  const parameters = [
    ...(challenge.error === undefined ? [] : [`error=${quoted(challenge.error)}`]),
    ...(challenge.errorDescription === undefined
      ? []
      : [`error_description=${quoted(challenge.errorDescription)}`]),
    `scope=${quoted(challenge.scope)}`,
    `resource_metadata=${quoted(challenge.resourceMetadata)}`,
  ];
  return `Bearer ${parameters.join(', ')}`;
}
