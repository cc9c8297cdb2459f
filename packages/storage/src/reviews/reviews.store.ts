import type { Channel } from '@innkeep/domain';
import {
  type Actor,
  assertCanWrite,
  DomainError,
  decodeCursor,
  listReviewsInputSchema,
  notFound,
  parseInput,
  type Review,
  type ReviewUseCases,
  respondToReviewInputSchema,
  toPage,
} from '@innkeep/domain';
import { sql } from 'kysely';
import type { Executor } from '../database.ts';
import type { StoreDeps } from '../store-deps.ts';
import { inTransaction, recordAudit } from '../transaction.ts';

/** Review use cases over PostgreSQL. */
export function createReviewUseCases({ db, clock }: StoreDeps): ReviewUseCases {
  return {
    async list(actor, rawInput) {
      const input = parseInput(listReviewsInputSchema, rawInput);
      let query = selectReviews(db, actor);
      if (input.listingId !== undefined) query = query.where('reviews.listing_id', '=', input.listingId);
      if (input.since !== undefined) {
        const since = new Date(input.since.length === 10 ? `${input.since}T00:00:00Z` : input.since);
        query = query.where('reviews.submitted_at', '>=', since);
      }
      if (input.minRating !== undefined) query = query.where('reviews.overall_rating', '>=', input.minRating);
      if (input.maxRating !== undefined) query = query.where('reviews.overall_rating', '<=', input.maxRating);
      if (input.unanswered !== undefined) {
        query = query.where('reviews.host_response', input.unanswered ? 'is' : 'is not', null);
      }
      if (input.cursor !== undefined) {
        const [submittedKey, id] = decodeCursor(input.cursor, 2);
        const submittedAt = sql<Date>`cast(${String(submittedKey)} as timestamptz)`;
        query = query.where((eb) =>
          eb(eb.refTuple('reviews.submitted_at', 'reviews.id'), '<', eb.tuple(submittedAt, String(id))),
        );
      }
      const rows = await query
        .orderBy('reviews.submitted_at', 'desc')
        .orderBy('reviews.id', 'desc')
        .limit(input.limit + 1)
        .execute();
      return toPage(rows, input.limit, toReview, (row) => [row.submitted_key, row.id]);
    },

    async get(actor, reviewId) {
      return findReviewOrThrow(db, actor, reviewId);
    },

    async respond(actor, rawInput) {
      assertCanWrite(actor);
      const input = parseInput(respondToReviewInputSchema, rawInput);
      return inTransaction(db, async (trx) => {
        const current = await trx
          .selectFrom('reviews')
          .select(['id', 'host_response', 'responded_at'])
          .where('id', '=', input.reviewId)
          .where('account_id', '=', actor.accountId)
          .forUpdate()
          .executeTakeFirst();
        if (!current) throw notFound('review', input.reviewId);
        if (current.host_response !== null) {
          throw new DomainError(
            'failed_precondition',
            'This review already has a host response, and a response cannot be changed once published.',
            {
              details: {
                reviewId: current.id,
                respondedAt: current.responded_at?.toISOString() ?? null,
              },
            },
          );
        }
        await trx
          .updateTable('reviews')
          .set({ host_response: input.response, responded_at: clock.now() })
          .where('id', '=', current.id)
          .execute();
        await recordAudit(trx, actor, {
          action: 'review.respond',
          targetType: 'review',
          targetId: current.id,
          details: { responseLength: input.response.length },
        });
        return findReviewOrThrow(trx, actor, current.id);
      });
    },
  };
}

function selectReviews(db: Executor, actor: Actor) {
  return db
    .selectFrom('reviews')
    .leftJoin('reservations', (join) =>
      join
        .onRef('reservations.id', '=', 'reviews.reservation_id')
        .on('reservations.account_id', '=', actor.accountId),
    )
    .selectAll('reviews')
    .select([
      'reservations.guest_first_name',
      'reservations.guest_last_name',
      // Microsecond text key for the cursor: a JS Date keeps only milliseconds, which would skip rows.
      sql<string>`to_char(reviews.submitted_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as(
        'submitted_key',
      ),
    ])
    .where('reviews.account_id', '=', actor.accountId);
}

async function findReviewOrThrow(db: Executor, actor: Actor, reviewId: string): Promise<Review> {
  const row = await selectReviews(db, actor).where('reviews.id', '=', reviewId).executeTakeFirst();
  if (!row) throw notFound('review', reviewId);
  return toReview(row);
}

type ReviewQueryRow = Awaited<ReturnType<ReturnType<typeof selectReviews>['executeTakeFirstOrThrow']>>;

function toReview(row: ReviewQueryRow): Review {
  const guestName =
    row.guest_first_name === null
      ? null
      : [row.guest_first_name, row.guest_last_name].filter(Boolean).join(' ');
  return {
    id: row.id,
    listingId: row.listing_id,
    reservationId: row.reservation_id,
    guestName,
    channel: row.channel as Channel,
    rating: row.overall_rating,
    categoryRatings: {
      cleanliness: row.cleanliness_rating,
      accuracy: row.accuracy_rating,
      checkIn: row.check_in_rating,
      communication: row.communication_rating,
      location: row.location_rating,
      value: row.value_rating,
    },
    text: row.public_text,
    privateFeedback: row.private_feedback,
    hostResponse: row.host_response,
    respondedAt: row.responded_at?.toISOString() ?? null,
    submittedAt: row.submitted_at.toISOString(),
  };
}
