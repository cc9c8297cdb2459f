import { type Kysely, sql } from 'kysely';

// Frozen in time: this file imports no application types and is never edited once released.

/**
 * `reviews_listing_local_date`: a listing's reviews by their listing-local date, with the ratings. Review
 * analytics rank listings from a count and a rating sum each, then need the five-star count and category
 * sums of the few listings shown; summing those for every listing of a large portfolio costs more than the
 * ranking itself, while reading the few shown listings' reviews of the period from this index is a handful
 * of index-only range scans.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index reviews_listing_local_date on reviews (listing_id, local_date)
    include (account_id, channel, overall_rating, cleanliness_rating, accuracy_rating, check_in_rating,
      communication_rating, location_rating, value_rating)`.execute(db);
}

/** Drops the index. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists reviews_listing_local_date`.execute(db);
}
