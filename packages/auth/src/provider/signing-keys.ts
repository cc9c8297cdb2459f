import { createHash, createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { z } from 'zod';

const base64url = z.string().regex(/^[A-Za-z0-9_-]+$/, 'must be base64url');

/** A private RSA JSON Web Key (RFC 7517) that signs ID tokens with RS256. */
export const signingKeySchema = z.object({
  kty: z.literal('RSA'),
  kid: z.string().min(1).max(200).describe('Key id, published in /oauth/jwks.'),
  alg: z.literal('RS256').default('RS256'),
  use: z.literal('sig').default('sig'),
  n: base64url,
  e: base64url,
  d: base64url.describe('The private exponent; a public key cannot sign.'),
  p: base64url,
  q: base64url,
  dp: base64url,
  dq: base64url,
  qi: base64url,
});
/** A private RSA signing key as {@link signingKeySchema} reads it. */
export type SigningKey = z.output<typeof signingKeySchema>;

/**
 * A new 2048-bit RS256 signing key with its RFC 7638 thumbprint as `kid`. Every instance must sign with
 * the same keys (any of them may answer /oauth/jwks), so generate once and share, never per process.
 */
export function generateSigningKey(): SigningKey {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = privateKey.export({ format: 'jwk' });
  return signingKeySchema.parse({ ...jwk, kid: thumbprint(String(jwk.e), String(jwk.n)) });
}

/**
 * Reads a signing key from parsed JSON, e.g. the OIDC_SIGNING_KEY variable. A missing `kid` is filled
 * with the key's thumbprint.
 *
 * @throws Error saying what is wrong (never echoing key material) when it is not a usable private RSA JWK.
 */
export function parseSigningKey(value: unknown): SigningKey {
  const withKid =
    typeof value === 'object' && value !== null && !('kid' in value) && 'e' in value && 'n' in value
      ? { ...value, kid: thumbprint(String(value.e), String(value.n)) }
      : value;
  const result = signingKeySchema.safeParse(withKid);
  if (!result.success) {
    const fields = [...new Set(result.error.issues.map((issue) => String(issue.path[0] ?? 'key')))];
    throw new Error(`not a private RSA JWK (check ${fields.join(', ')})`);
  }
  try {
    createPrivateKey({ key: result.data, format: 'jwk' });
  } catch {
    throw new Error('not a valid RSA private key (its numbers do not fit together)');
  }
  return result.data;
}

function thumbprint(e: string, n: string): string {
  // RFC 7638: SHA-256 of the required members in lexicographic order, without whitespace.
  return createHash('sha256')
    .update(JSON.stringify({ e, kty: 'RSA', n }))
    .digest('base64url');
}
