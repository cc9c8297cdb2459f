import {
  addDays,
  DomainError,
  findUnstorableText,
  type Listing,
  type Reservation,
  type Scope,
} from '@innkeep/domain';
import { findPrompt, promptCatalogue } from '../prompts/prompt-catalogue.ts';
import { collectPages } from '../resources/collect-pages.ts';
import { maxSummaryListings } from '../resources/listings-summary.ts';
import { listedResources, resourceTemplates } from '../resources/resource-definition.ts';
import { compileUriTemplate } from '../resources/uri-template.ts';
import type { ToolContext } from '../tool-definition.ts';

/** What completion/complete is asked to complete: a resource template's variable or a prompt's argument. */
export type CompletionRef = { type: 'ref/resource'; uri: string } | { type: 'ref/prompt'; name: string };

/** The argument being typed and what has been typed so far. */
export interface CompletionArgument {
  readonly name: string;
  readonly value: string;
}

/** What completion/complete returns inside `completion`. */
export interface CompletionResult {
  [key: string]: unknown;
  /** At most {@link maxCompletionValues}, best first. */
  values: string[];
  /** Every match, when all candidates were searched; absent when the search stopped at its cap. */
  total?: number;
  /** True when more matches exist than `values` holds (or may exist beyond the searched candidates). */
  hasMore: boolean;
}

/** Most values one completion returns (the MCP limit). */
export const maxCompletionValues = 100;
/** Most reservations one reservation-id completion searches: those around today first. */
export const maxCompletionReservations = 2000;
/** Reservation-id completion searches stays from this many days back on. */
export const completionLookbackDays = 60;

interface Matches {
  readonly ids: readonly string[];
  /** False when the candidates searched were capped. */
  readonly searchedAll: boolean;
}

interface Completer {
  readonly scopes: readonly Scope[];
  find(value: string, context: ToolContext): Promise<Matches>;
}

const completers: Readonly<Record<string, Completer>> = {
  listingId: { scopes: ['listings:read'], find: findListingIds },
  reservationId: { scopes: ['reservations:read'], find: findReservationIds },
};

/**
 * The argument names of `ref`. Resource refs name a template by its URI template (or a listed resource,
 * which has none).
 *
 * @throws DomainError `invalid_argument` for a ref to no known template, resource or prompt.
 */
function argumentNames(ref: CompletionRef): readonly string[] {
  if (ref.type === 'ref/prompt') {
    const prompt = findPrompt(ref.name);
    if (prompt !== undefined) return prompt.arguments.map((argument) => argument.name);
    throw new DomainError(
      'invalid_argument',
      `No prompt named ${ref.name} to complete. Prompts: ${promptCatalogue.map((known) => known.name).join(', ')}.`,
      { details: { ref } },
    );
  }
  const template = resourceTemplates.find((candidate) => candidate.uriTemplate === ref.uri);
  if (template !== undefined) return compileUriTemplate(template.uriTemplate).variables;
  if (listedResources.some((resource) => resource.uri === ref.uri)) return [];
  throw new DomainError(
    'invalid_argument',
    `No resource template ${ref.uri} to complete. Templates: ` +
      `${resourceTemplates.map((known) => known.uriTemplate).join(', ')}.`,
    { details: { ref } },
  );
}

/**
 * The completer of `argumentName` in `ref`: null when the argument exists but takes free values (dates,
 * intents), which get no suggestions.
 *
 * @throws DomainError `invalid_argument` for an unknown ref or an argument `ref` does not have.
 */
function completerFor(ref: CompletionRef, argumentName: string): Completer | null {
  const names = argumentNames(ref);
  if (!names.includes(argumentName)) {
    throw new DomainError(
      'invalid_argument',
      `${ref.type === 'ref/prompt' ? ref.name : ref.uri} has no argument ${argumentName}` +
        (names.length === 0 ? '.' : `; it has ${names.join(', ')}.`),
      { details: { ref, argument: argumentName } },
    );
  }
  return completers[argumentName] ?? null;
}

/**
 * The scopes completing `argumentName` of `ref` reads (listing ids need listings:read, reservation ids
 * reservations:read, because matching by guest name reveals who is booked); empty when it reads nothing.
 * Null for an unknown ref or argument. The transport checks these before calling {@link complete}.
 */
export function completionScopes(ref: CompletionRef, argumentName: string): Scope[] | null {
  try {
    return [...(completerFor(ref, argumentName)?.scopes ?? [])];
  } catch (thrown) {
    if (thrown instanceof DomainError) return null;
    throw thrown;
  }
}

/**
 * Suggests values for a template variable or prompt argument: listing ids whose id, name or nickname
 * starts with (first) or contains the typed value; reservation ids matched by id, confirmation code or
 * guest name, current and upcoming stays first, then recent ones. Other arguments get no suggestions.
 *
 * @throws DomainError `invalid_argument` for an unknown ref or an argument the ref does not have.
 */
export async function complete(
  ref: CompletionRef,
  argument: CompletionArgument,
  context: ToolContext,
): Promise<CompletionResult> {
  const completer = completerFor(ref, argument.name);
  // Nothing stored holds U+0000 (PostgreSQL cannot), so such a value matches nothing; a query would fail.
  if (completer === null || findUnstorableText(argument.value) !== undefined) {
    return { values: [], total: 0, hasMore: false };
  }
  const { ids, searchedAll } = await completer.find(argument.value.trim().toLowerCase(), context);
  return {
    values: ids.slice(0, maxCompletionValues),
    ...(searchedAll ? { total: ids.length } : {}),
    hasMore: ids.length > maxCompletionValues || !searchedAll,
  };
}

/** 0 when a field starts with `needle`, 1 when one contains it, null when none does. */
function matchRank(needle: string, fields: readonly (string | null)[]): 0 | 1 | null {
  const lowered = fields.flatMap((field) => (field === null ? [] : [field.toLowerCase()]));
  if (lowered.some((field) => field.startsWith(needle))) return 0;
  if (lowered.some((field) => field.includes(needle))) return 1;
  return null;
}

/** Ids of `candidates` (already in their preferred order) that match, prefix matches first. */
function rankedIds<Candidate extends { id: string }>(
  candidates: readonly Candidate[],
  needle: string,
  fields: (candidate: Candidate) => readonly (string | null)[],
): string[] {
  const ranked = candidates.flatMap((candidate, order) => {
    const rank = matchRank(needle, fields(candidate));
    return rank === null ? [] : [{ id: candidate.id, rank, order }];
  });
  ranked.sort((a, b) => a.rank - b.rank || a.order - b.order);
  return ranked.map((match) => match.id);
}

async function findListingIds(needle: string, { actor, domain }: ToolContext): Promise<Matches> {
  const { items, complete } = await collectPages(
    (cursor, limit) => domain.listings.list(actor, { cursor, limit }),
    maxSummaryListings,
  );
  const ids = rankedIds<Listing>(items, needle, (listing) => [listing.id, listing.name, listing.nickname]);
  return { ids, searchedAll: complete };
}

async function findReservationIds(needle: string, { actor, domain, clock }: ToolContext): Promise<Matches> {
  // UTC's today is within a day of every listing's; close enough to order suggestions.
  const today = clock.now().toISOString().slice(0, 10);
  const { items, complete } = await collectPages(
    (cursor, limit) =>
      domain.reservations.list(actor, { startDate: addDays(today, -completionLookbackDays), cursor, limit }),
    maxCompletionReservations,
  );
  const current = items.filter((stay) => stay.endDate >= today);
  const past = items.filter((stay) => stay.endDate < today).reverse();
  const ids = rankedIds<Reservation>([...current, ...past], needle, (stay) => [
    stay.id,
    stay.confirmationCode,
    stay.guest.firstName,
    stay.guest.lastName,
    `${stay.guest.firstName} ${stay.guest.lastName}`,
  ]);
  if (ids.length === 0 && needle.startsWith('res_')) {
    // A full id of a stay outside the searched window still completes to itself.
    const found = await domain.reservations.get(actor, needle).catch((thrown: unknown) => {
      if (thrown instanceof DomainError && thrown.code === 'not_found') return null;
      throw thrown;
    });
    if (found !== null) return { ids: [found.id], searchedAll: complete };
  }
  return { ids, searchedAll: complete };
}
