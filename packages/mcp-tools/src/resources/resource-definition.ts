import {
  areLocalDates,
  DomainError,
  daysBetween,
  listingIdSchema,
  localDateSchema,
  parseInput,
  reservationIdSchema,
  type Scope,
} from '@innkeep/domain';
import {
  getListingOperation,
  getReservationOperation,
  getUserOperation,
  maxToolCalendarDays,
} from '@innkeep/operations';
import { z } from 'zod';
import type { ToolContext } from '../tool-definition.ts';
import { collectPages } from './collect-pages.ts';
import { maxSummaryListings, summarizeListings } from './listings-summary.ts';
import { compileUriTemplate, normalizeUri, type UriTemplateMatcher } from './uri-template.ts';

/** What every resource and template declares besides its address. */
interface ResourceCopy {
  /** Programmatic name, unique among resources and templates. */
  readonly name: string;
  readonly title: string;
  /** Product copy for the model: what the document holds and when to read it instead of calling a tool. */
  readonly description: string;
  readonly mimeType: 'application/json';
  /** Every scope the caller's grant must hold to read it. */
  readonly scopes: readonly Scope[];
}

/** A resource with a fixed URI, shown by resources/list. */
export interface ListedResourceDefinition extends ResourceCopy {
  readonly uri: string;
  /** Reads the document as JSON text. Throw a DomainError for failures the caller can act on. */
  read(context: ToolContext): Promise<string>;
}

/** A resource template (RFC 6570 level 1), shown by resources/templates/list and never by resources/list. */
export interface ResourceTemplateDefinition<Params extends z.ZodObject = z.ZodObject> extends ResourceCopy {
  readonly uriTemplate: string;
  /** Validates the decoded template variables; a failure is `invalid_argument`. */
  readonly params: Params;
  /** Reads the document named by `params` as JSON text. Throw a DomainError (e.g. `not_found`). */
  read(params: z.output<Params>, context: ToolContext): Promise<string>;
}

/** Declares a template; a typed identity function so the reader's params are checked against the schema. */
function defineResourceTemplate<Params extends z.ZodObject>(
  definition: ResourceTemplateDefinition<Params>,
): ResourceTemplateDefinition<Params> {
  return definition;
}

/**
 * Longest range, in days (both ends included), the calendar template reads: the window of get_calendar,
 * whose facts it gives, so a model that learnt one limit never meets another.
 */
export const maxResourceCalendarDays = maxToolCalendarDays;

/** service://user: who is connected. */
const userResource: ListedResourceDefinition = {
  uri: 'service://user',
  name: 'user',
  title: 'Connected user and account',
  description:
    'The signed-in host: name, email, role, the account’s name, time zone and default currency, and the ' +
    'subscription’s plan and status. Read it to greet the host, to know the account’s time zone (the day ' +
    '"today" is for briefings) or to explain why the service is unavailable. Same facts as get_user.',
  mimeType: 'application/json',
  scopes: ['user:read'],
  read: async (context) => JSON.stringify(await getUserOperation.run({}, context)),
};

/** service://listings: a compact index of every listing. */
const listingsResource: ListedResourceDefinition = {
  uri: 'service://listings',
  name: 'listings',
  title: 'All listings at a glance',
  description:
    'A compact summary of every listing of the account, by name: id, name, city, time zone, currency, base ' +
    'nightly price and whether it takes bookings. Read it once to map the portfolio and find listing ids; ' +
    'on large accounts some fields may be left out to stay under 100 KB, and `note` says which. For full ' +
    'settings read service://listings/{listingId} or call get_listing.',
  mimeType: 'application/json',
  scopes: ['listings:read'],
  read: async ({ actor, domain }) => {
    const { items, complete } = await collectPages(
      (cursor, limit) => domain.listings.list(actor, { cursor, limit }),
      maxSummaryListings,
    );
    return JSON.stringify(summarizeListings(items, !complete));
  },
};

/** service://listings/{listingId}: one listing's settings. */
const listingTemplate = defineResourceTemplate({
  uriTemplate: 'service://listings/{listingId}',
  name: 'listing',
  title: 'One listing',
  description:
    'One listing’s full settings: address, time zone, currency, base and minimum price, fees, tax rate, ' +
    'discounts, minimum and maximum nights, capacity, check-in/out hours, enabled flag, groups and channel ' +
    'links. Same facts as get_listing; find ids in service://listings.',
  mimeType: 'application/json',
  scopes: ['listings:read'],
  params: z.object({ listingId: listingIdSchema }),
  read: async ({ listingId }, context) =>
    JSON.stringify(await getListingOperation.run({ listingId }, context)),
});

// Refinements run even when a date failed its format check; only measure ranges of real dates.
/** service://listings/{listingId}/calendar/{startDate}/{endDate}: nights of one listing. */
const calendarTemplate = defineResourceTemplate({
  uriTemplate: 'service://listings/{listingId}/calendar/{startDate}/{endDate}',
  name: 'listing_calendar',
  title: 'A listing’s calendar',
  description:
    'Each night from startDate to endDate (both included, YYYY-MM-DD in the listing’s time zone, at most ' +
    `${maxResourceCalendarDays} days): available, booked (with the reservation id) or blocked (with the ` +
    'reason), the effective price after pricing rules, minimum stay, closed-to-arrival/departure flags, ' +
    'channel prices and notes. Same facts as get_calendar; change them with set_prices or set_availability.',
  mimeType: 'application/json',
  scopes: ['calendar:read'],
  params: z
    .object({
      listingId: listingIdSchema,
      startDate: localDateSchema.describe('First night to show (inclusive).'),
      endDate: localDateSchema.describe('Last night to show (inclusive).'),
    })
    .superRefine((params, context) => {
      if (!areLocalDates(params.startDate, params.endDate)) return;
      const days = daysBetween(params.startDate, params.endDate) + 1;
      if (days < 1) {
        context.addIssue({
          code: 'custom',
          path: ['endDate'],
          message: 'endDate must not be before startDate.',
        });
      } else if (days > maxResourceCalendarDays) {
        context.addIssue({
          code: 'custom',
          path: ['endDate'],
          message:
            `The calendar resource covers at most ${maxResourceCalendarDays} days (both ends included); this ` +
            `range has ${days}. Read it in consecutive ranges, e.g. one per quarter.`,
        });
      }
    }),
  read: async (params, { actor, domain }) => JSON.stringify(await domain.calendar.get(actor, params)),
});

/** service://reservations/{reservationId}: one reservation. */
const reservationTemplate = defineResourceTemplate({
  uriTemplate: 'service://reservations/{reservationId}',
  name: 'reservation',
  title: 'One reservation',
  description:
    'One reservation: listing, channel, confirmation code, status, guest and contact details, guest counts, ' +
    'dates (endDate is the check-out date), check-in/out hours, access code, notes, the price breakdown, ' +
    'nightly rates and payout. Same facts as get_reservation; the guest conversation is get_message_thread.',
  mimeType: 'application/json',
  scopes: ['reservations:read'],
  params: z.object({ reservationId: reservationIdSchema }),
  read: async ({ reservationId }, context) =>
    JSON.stringify(await getReservationOperation.run({ reservationId }, context)),
});

/** The resources resources/list shows, in order: exactly service://user and service://listings. */
export const listedResources: readonly ListedResourceDefinition[] = [userResource, listingsResource];

/** The templates resources/templates/list shows, in order. */
export const resourceTemplates: readonly ResourceTemplateDefinition[] = [
  listingTemplate,
  calendarTemplate,
  reservationTemplate,
];

const templateMatchers: readonly { definition: ResourceTemplateDefinition; matcher: UriTemplateMatcher }[] =
  resourceTemplates.map((definition) => ({
    definition,
    matcher: compileUriTemplate(definition.uriTemplate),
  }));

/** A URI resolved to its declaration: a listed resource (no params) or a template with its decoded variables. */
export interface ResolvedResource {
  readonly definition: ListedResourceDefinition | ResourceTemplateDefinition;
  /** Decoded template variables; empty for a listed resource. */
  readonly params: Readonly<Record<string, string>>;
}

/**
 * Finds what `uri` names: a listed resource (exact match; scheme and authority case-insensitive) or an
 * expansion of a template, with its variables percent-decoded. Null for anything else: another scheme, a
 * trailing slash, a query or fragment, an empty or malformed variable. Variables are not validated here;
 * {@link readResource} does that.
 */
export function resolveResource(uri: string): ResolvedResource | null {
  const normalized = normalizeUri(uri);
  const listed = listedResources.find((definition) => definition.uri === normalized);
  if (listed !== undefined) return { definition: listed, params: {} };
  for (const { definition, matcher } of templateMatchers) {
    const params = matcher.match(uri);
    if (params !== null) return { definition, params };
  }
  return null;
}

/** The scopes needed to read `uri`; null when no resource or template matches it. */
export function resourceScopes(uri: string): Scope[] | null {
  const resolved = resolveResource(uri);
  return resolved === null ? null : [...resolved.definition.scopes];
}

/** What resources/read returns: one JSON document named by the URI that was asked for. */
export interface ResourceReadResult {
  [key: string]: unknown;
  contents: { uri: string; mimeType: 'application/json'; text: string }[];
}

/**
 * Reads the resource `uri` names. Scope checks happen before this, in the transport.
 *
 * @throws DomainError `not_found` for a URI no resource or template matches, or a record that does not
 *   exist in the account; `invalid_argument` for malformed variables (not a date, a range over
 *   {@link maxResourceCalendarDays} days).
 */
export async function readResource(uri: string, context: ToolContext): Promise<ResourceReadResult> {
  const resolved = resolveResource(uri);
  if (resolved === null) throw unknownResource(uri);
  const { definition, params } = resolved;
  const text =
    'uri' in definition
      ? await definition.read(context)
      : await definition.read(parseInput(definition.params, params), context);
  return { contents: [{ uri, mimeType: definition.mimeType, text }] };
}

function unknownResource(uri: string): DomainError {
  const known = [
    ...listedResources.map((definition) => definition.uri),
    ...resourceTemplates.map((definition) => definition.uriTemplate),
  ];
  const hint =
    uri.endsWith('/') && resolveResource(uri.slice(0, -1)) !== null ? ' Drop the trailing slash.' : '';
  return new DomainError(
    'not_found',
    `No resource at ${uri}.${hint} Innkeep serves ${known.join(', ')} (ids and dates percent-encoded).`,
    { details: { kind: 'resource', uri } },
  );
}
