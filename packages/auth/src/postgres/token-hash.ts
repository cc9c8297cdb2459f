import { hash } from 'node:crypto';

/**
 * The stored id of a token: SHA-256 of its value, base64url. Tokens are bearer secrets, so the database
 * keeps only this digest; whoever reads a backup cannot replay a token from it.
 */
export function tokenDigest(token: string): string {
  // The one-shot hash: this runs on every /mcp request, and a Hash object per call costs more than the hashing.
  return hash('sha256', token, 'base64url');
}
