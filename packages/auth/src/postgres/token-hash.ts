import { createHash } from 'node:crypto';

/**
 * The stored id of a token: SHA-256 of its value, base64url. Tokens are bearer secrets, so the database
 * keeps only this digest; whoever reads a backup cannot replay a token from it.
 */
export function tokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
