import type { Actor } from '@innkeep/domain';
import {
  DomainError,
  type IdempotencyUseCases,
  type IdempotentResponse,
  idempotencyKeyLifetimeMs,
  idempotencyPendingTimeoutMs,
  idempotencyRequestSchema,
  parseInput,
} from '@innkeep/domain';
import type { Executor } from '../database.ts';
import type { StoreDeps } from '../store-deps.ts';

// A reserved key whose request has not finished. No HTTP status is 0, so it cannot be mistaken for an answer.
const pendingStatus = 0;

// A key released by a failed request between our insert and our read is simply free again; a few tries
// settle that race without looping forever.
const maxReserveAttempts = 3;

/** Idempotency keys over PostgreSQL. */
export function createIdempotencyUseCases({ db, clock }: StoreDeps): IdempotencyUseCases {
  return {
    async run(actor, rawRequest, produce) {
      const request = parseInput(idempotencyRequestSchema, rawRequest);
      const reservedAt = clock.now();
      for (let attempt = 0; attempt < maxReserveAttempts; attempt += 1) {
        if (await reserve(db, actor, request, reservedAt)) break;
        const existing = await db
          .selectFrom('idempotency_keys')
          .select(['request_fingerprint', 'response_status', 'response_body'])
          .where('account_id', '=', actor.accountId)
          .where('key', '=', request.key)
          .executeTakeFirst();
        if (!existing) {
          if (attempt + 1 < maxReserveAttempts) continue;
          throw inProgress(request.key);
        }
        if (existing.request_fingerprint !== request.fingerprint) {
          throw new DomainError(
            'conflict',
            'This Idempotency-Key was already used for a different request; send a new key for a new request.',
            { details: { idempotencyKey: request.key } },
          );
        }
        if (existing.response_status === pendingStatus) throw inProgress(request.key);
        return { status: existing.response_status, body: existing.response_body, replayed: true };
      }

      // Only our own reservation is finished or released: if it was taken over as abandoned meanwhile,
      // the newer holder's row stays as it is.
      const release = () =>
        db
          .deleteFrom('idempotency_keys')
          .where('account_id', '=', actor.accountId)
          .where('key', '=', request.key)
          .where('response_status', '=', pendingStatus)
          .where('created_at', '=', reservedAt)
          .execute();
      let response: IdempotentResponse;
      try {
        response = await produce();
      } catch (error) {
        await release();
        throw error;
      }
      if (response.status >= 200 && response.status < 300) {
        await db
          .updateTable('idempotency_keys')
          .set({ response_status: response.status, response_body: JSON.stringify(response.body ?? null) })
          .where('account_id', '=', actor.accountId)
          .where('key', '=', request.key)
          .where('response_status', '=', pendingStatus)
          .where('created_at', '=', reservedAt)
          .execute();
      } else {
        // Refusals (4xx) and failures are not remembered: fixing the request and retrying with the same
        // key must work.
        await release();
      }
      return { status: response.status, body: response.body, replayed: false };
    },

    async purgeExpired() {
      const result = await db
        .deleteFrom('idempotency_keys')
        .where('created_at', '<', new Date(clock.now().getTime() - idempotencyKeyLifetimeMs))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

/**
 * Claims the key with an insert that only one request can win: a fresh key, a key past its lifetime, or
 * a key whose request was abandoned. True when this request now holds it.
 */
async function reserve(
  db: Executor,
  actor: Actor,
  request: { key: string; fingerprint: string },
  reservedAt: Date,
): Promise<boolean> {
  const expiredBefore = new Date(reservedAt.getTime() - idempotencyKeyLifetimeMs);
  const abandonedBefore = new Date(reservedAt.getTime() - idempotencyPendingTimeoutMs);
  const claim = {
    request_fingerprint: request.fingerprint,
    response_status: pendingStatus,
    response_body: 'null',
    created_at: reservedAt,
  };
  const row = await db
    .insertInto('idempotency_keys')
    .values({ account_id: actor.accountId, key: request.key, ...claim })
    .onConflict((oc) =>
      oc
        .columns(['account_id', 'key'])
        .doUpdateSet(claim)
        .where((eb) =>
          eb.or([
            eb('idempotency_keys.created_at', '<', expiredBefore),
            eb.and([
              eb('idempotency_keys.response_status', '=', pendingStatus),
              eb('idempotency_keys.created_at', '<', abandonedBefore),
            ]),
          ]),
        ),
    )
    .returning('key')
    .executeTakeFirst();
  return row !== undefined;
}

function inProgress(key: string): DomainError {
  return new DomainError(
    'conflict',
    'A request with this key is still in progress; wait for it to finish, then retry to get its result.',
    { details: { idempotencyKey: key } },
  );
}
