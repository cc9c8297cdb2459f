import { z } from 'zod';
import type { Actor } from '../core/actor.ts';

/** How long a key is remembered; after this a request with the same key runs again as a new one. */
export const idempotencyKeyLifetimeMs = 24 * 60 * 60 * 1000;

/**
 * How long a key may stay reserved by a request that has not finished. Past this, the instance that
 * reserved it is taken to have died mid-request and the key may be used again; no REST write takes this long.
 */
export const idempotencyPendingTimeoutMs = 10 * 60 * 1000;

/** The key a client sent and what identifies its request. */
export const idempotencyRequestSchema = z.object({
  key: z
    .string()
    .min(1)
    .max(255)
    .describe(
      'The Idempotency-Key header: any 1–255 characters, unique per intended write (a UUID is ideal).',
    ),
  fingerprint: z
    .string()
    .min(1)
    .max(256)
    .describe('Hash of the request’s method, path and body, computed by the adapter.'),
});
/** Input of {@link IdempotencyUseCases.run}. */
export type IdempotencyRequest = z.input<typeof idempotencyRequestSchema>;

/** What a write answered, in the adapter's terms. The body must survive a JSON round trip. */
export interface IdempotentResponse {
  readonly status: number;
  readonly body: unknown;
}

/** The answer to send, and whether it is a stored answer to an earlier request with the same key. */
export interface IdempotentResult extends IdempotentResponse {
  readonly replayed: boolean;
}

/**
 * Makes REST writes safe to retry. Keys are per account. The first request with a key runs and, when it
 * succeeds (2xx), its answer is stored for {@link idempotencyKeyLifetimeMs}; repeats get that answer without
 * running again. Failures are not stored, so the client may retry them with the same key.
 */
export interface IdempotencyUseCases {
  /**
   * Runs `produce` once per key. `conflict` when the key was used with a different request, or while a
   * request with the key is still running; `produce`'s own errors pass through and release the key.
   */
  run(
    actor: Actor,
    request: IdempotencyRequest,
    produce: () => Promise<IdempotentResponse>,
  ): Promise<IdempotentResult>;
  /** Deletes keys past their lifetime, for a periodic job; returns how many were deleted. */
  purgeExpired(): Promise<number>;
}
