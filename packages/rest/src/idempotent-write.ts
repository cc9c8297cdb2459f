import { hash } from 'node:crypto';
import {
  type Actor,
  DomainError,
  type IdempotencyUseCases,
  type IdempotentResponse,
  type IdempotentResult,
  idempotencyRequestSchema,
  parseInput,
} from '@innkeep/domain';

/** What identifies one write for its Idempotency-Key: the route, its path parameters and its body. */
export interface WriteIdentity {
  readonly method: string;
  /** The route's path template (`/setListing/:listingId`), so casing and trailing slashes do not matter. */
  readonly route: string;
  readonly params: Readonly<Record<string, string>>;
  readonly body: unknown;
}

/**
 * Runs a write once per `Idempotency-Key` (PRODUCT.md, REST): without a key it simply runs; with one, a
 * repeat with the same route, parameters and body gets the first answer, and one with anything else is
 * `conflict`. Keys belong to the account, and are kept a day.
 */
export async function runIdempotentWrite(
  idempotency: IdempotencyUseCases,
  actor: Actor,
  key: string | string[] | undefined,
  write: WriteIdentity,
  produce: () => Promise<IdempotentResponse>,
): Promise<IdempotentResult> {
  if (key === undefined) return { ...(await produce()), replayed: false };
  if (Array.isArray(key)) {
    throw new DomainError(
      'invalid_argument',
      'invalid_argument: send one Idempotency-Key header, not several.',
    );
  }
  const request = parseInput(idempotencyRequestSchema, { key, fingerprint: writeFingerprint(write) });
  return idempotency.run(actor, request, produce);
}

/** SHA-256 of the write's identity, with object keys sorted so that `{a, b}` and `{b, a}` are one body. */
export function writeFingerprint(write: WriteIdentity): string {
  const canonical = JSON.stringify([write.method, write.route, sortKeys(write.params), sortKeys(write.body)]);
  return hash('sha256', canonical, 'base64url');
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((name) => [name, sortKeys((value as Record<string, unknown>)[name])]),
  );
}
