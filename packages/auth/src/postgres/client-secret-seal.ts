import { createHash, hkdfSync } from 'node:crypto';
import { CompactEncrypt, compactDecrypt, decodeProtectedHeader } from 'jose';

/** A client secret opened from its sealed form, and whether it was sealed with a key other than the first. */
export interface OpenedClientSecret {
  readonly secret: string;
  readonly sealedWithOlderKey: boolean;
}

/**
 * Encrypts confidential clients' secrets for storage, so that a dump of `oidc_model` holds no secret a
 * client could authenticate with. oidc-provider compares the presented secret with the stored one itself
 * (and would need the plain value for HS256 and symmetric encryption), so the secret is encrypted, not
 * hashed: a JWE (`dir`, A256GCM, via jose) under a key derived by HKDF from a SECRET_KEYS entry.
 */
export interface ClientSecretSeal {
  /** The secret of client `clientId`, sealed with the first key. */
  seal(clientId: string, secret: string): Promise<string>;
  /**
   * The secret in `sealed`, opened with whichever key sealed it.
   *
   * @throws Error when no configured key opens it, or it was sealed for another client.
   */
  open(clientId: string, sealed: string): Promise<OpenedClientSecret>;
}

interface SealingKey {
  readonly id: string;
  readonly key: Uint8Array;
}

// Names this use of the secret keys, so the derived key is unrelated to the cookie and CSRF keys.
const derivationInfo = 'innkeep oidc_model client_secret A256GCM v1';

/**
 * A seal over `secretKeys` (SECRET_KEYS): the first seals, every one opens, so that keys can rotate.
 * Each key is told apart by an id (a digest of the derived key) in the JWE header.
 */
export function createClientSecretSeal(secretKeys: readonly string[]): ClientSecretSeal {
  const keys: SealingKey[] = secretKeys.map((secret) => {
    const key = new Uint8Array(hkdfSync('sha256', secret, '', derivationInfo, 32));
    return { id: createHash('sha256').update(key).digest('base64url').slice(0, 16), key };
  });
  const [current] = keys;
  if (current === undefined) throw new Error('Sealing client secrets needs at least one secret key');

  return {
    seal: (clientId, secret) =>
      new CompactEncrypt(new TextEncoder().encode(secret))
        // The client id is authenticated with the secret, so a sealed secret copied onto another client's
        // row does not open there.
        .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', kid: current.id, cid: clientId })
        .encrypt(current.key),

    async open(clientId, sealed) {
      const { kid } = decodeProtectedHeader(sealed);
      const key = keys.find((candidate) => candidate.id === kid);
      if (key === undefined) {
        throw new Error(
          `The secret of client ${clientId} was sealed with a key no longer in SECRET_KEYS; ` +
            'put that key back, or have the client register again.',
        );
      }
      const { plaintext, protectedHeader } = await compactDecrypt(sealed, key.key);
      if (protectedHeader.cid !== clientId) {
        throw new Error(`The stored secret of client ${clientId} was sealed for another client.`);
      }
      return { secret: new TextDecoder().decode(plaintext), sealedWithOlderKey: key !== current };
    },
  };
}
