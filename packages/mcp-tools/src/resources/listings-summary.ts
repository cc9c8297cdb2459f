import type { Listing } from '@innkeep/domain';
import { maxResultChars } from '../tool-result.ts';

/** Most listings the summary reads: the largest account Innkeep is built for. */
export const maxSummaryListings = 2000;

/** Fields of one listing in the summary, most useful first. */
export const summaryFields = ['id', 'name', 'city', 'timeZone', 'currency', 'basePrice', 'enabled'] as const;
/** One of {@link summaryFields}. */
export type SummaryField = (typeof summaryFields)[number];

// Given up in this order when the summary is too large: the id and name always stay, since they are what a
// model needs to pick a listing and read the rest with get_listing.
const droppableFields: readonly SummaryField[] = ['timeZone', 'currency', 'city', 'basePrice', 'enabled'];

/** The `service://listings` document. */
export interface ListingsSummary {
  /** Listings read (at most {@link maxSummaryListings}). */
  readonly total: number;
  /** True when every listing of the account is below, with every field of {@link summaryFields}. */
  readonly complete: boolean;
  /** The fields each entry has. */
  readonly fields: readonly SummaryField[];
  readonly listings: Partial<Pick<Listing, SummaryField>>[];
  /** What was left out to stay under the size limit, and where to find it; absent when nothing was. */
  readonly note?: string;
}

/**
 * Builds the summary of `listings` (sorted by name) under `maxChars` of JSON: first every field; then
 * fewer fields, in the order of `droppableFields`; then, when even ids and names are too much, the first
 * listings that fit. `moreExist` says the account has listings beyond those read.
 */
export function summarizeListings(
  listings: readonly Listing[],
  moreExist: boolean,
  maxChars: number = maxResultChars,
): ListingsSummary {
  const beyondCap = moreExist
    ? `The account has more than ${maxSummaryListings} listings; only the first ${maxSummaryListings} by name were read. `
    : '';
  for (let dropped = 0; dropped <= droppableFields.length; dropped += 1) {
    const omitted = droppableFields.slice(0, dropped);
    const fields = summaryFields.filter((field) => !omitted.includes(field));
    const note =
      beyondCap +
      (omitted.length === 0
        ? ''
        : `To stay under ${maxChars / 1000} KB this summary leaves out ${omitted.join(', ')}; read ` +
          'service://listings/{listingId} or call get_listing for a listing’s full settings.');
    const summary = document(listings.length, !moreExist && omitted.length === 0, fields, listings, note);
    if (JSON.stringify(summary).length <= maxChars) return summary;
  }
  return truncated(listings, maxChars, beyondCap);
}

function truncated(listings: readonly Listing[], maxChars: number, beyondCap: string): ListingsSummary {
  const fields: SummaryField[] = ['id', 'name'];
  const note = (kept: number) =>
    `${beyondCap}To stay under ${maxChars / 1000} KB this summary has only ids and names, and only the first ` +
    `${kept} of ${listings.length} listings by name; call list_listings (with query or cursor) for the rest.`;
  // Measure the empty document with the longest note it can carry, then add entries while they fit.
  let size = JSON.stringify(document(listings.length, false, fields, [], note(listings.length))).length;
  const kept: Listing[] = [];
  for (const listing of listings) {
    const entry = JSON.stringify(pick(listing, fields)).length + 1;
    if (size + entry > maxChars) break;
    size += entry;
    kept.push(listing);
  }
  return document(listings.length, false, fields, kept, note(kept.length));
}

function document(
  total: number,
  complete: boolean,
  fields: readonly SummaryField[],
  listings: readonly Listing[],
  note: string,
): ListingsSummary {
  return {
    total,
    complete,
    fields,
    listings: listings.map((listing) => pick(listing, fields)),
    ...(note === '' ? {} : { note }),
  };
}

function pick(listing: Listing, fields: readonly SummaryField[]): Partial<Pick<Listing, SummaryField>> {
  return Object.fromEntries(fields.map((field) => [field, listing[field]]));
}
