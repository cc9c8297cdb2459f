import { z } from 'zod';
import { calendarImportSchema, calendarImportUrlSchema } from '../calendar-imports/calendar-imports.ts';
import type { Actor } from '../core/actor.ts';
import { areLocalDates, daysBetween, type LocalDate, localDateSchema } from '../core/dates.ts';
import { amountSchema } from '../core/money.ts';
import { type Page, pageInputShape } from '../core/paging.ts';

/** Booking channels Innkeep knows. `direct` is the host's own bookings. */
export const channels = ['airbnb', 'vrbo', 'booking', 'direct'] as const;
/** One of {@link channels}. */
export type Channel = (typeof channels)[number];
/** Validates a channel name. */
export const channelSchema = z
  .enum(channels)
  .describe('Booking channel: airbnb, vrbo, booking (Booking.com) or direct.');

/** Validates a listing id. */
export const listingIdSchema = z.string().min(1).max(64).describe('Listing id, e.g. lst_…');

/** A listing's link to its page on one channel account, with the iCal calendar the channel polls. */
export const listingChannelLinkSchema = z.object({
  channel: channelSchema,
  channelAccountId: z.string(),
  externalListingId: z.string(),
  url: z.string().nullable(),
  calendarExportUrl: z
    .string()
    .describe(
      'Secret iCal URL (…/ical/<token>.ics) of the listing’s booked and blocked nights, without guest ' +
        'details and without this channel’s own reservations: paste it into the channel’s calendar import. ' +
        'Anyone holding it can read the calendar; reissuing it stops the old one.',
    ),
  calendarImport: calendarImportSchema
    .nullable()
    .describe('The channel’s own iCal calendar, polled for its stays; null when not set.'),
});
/** One of {@link Listing.channels}. */
export type ListingChannelLink = z.infer<typeof listingChannelLinkSchema>;

/** A rental listing as every route returns it. Money in major units of `currency`. */
export const listingSchema = z.object({
  id: z.string(),
  name: z.string(),
  nickname: z.string().nullable(),
  propertyType: z.string(),
  address: z.string(),
  city: z.string(),
  region: z.string().nullable(),
  countryCode: z.string(),
  postalCode: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  timeZone: z.string(),
  currency: z.string(),
  bedrooms: z.number(),
  bathrooms: z.number(),
  maxGuests: z.number(),
  basePrice: z.number().describe('Default nightly price before per-date overrides and pricing rules.'),
  minPrice: z.number().nullable().describe('Floor no rule or override goes below; null when none.'),
  cleaningFee: z.number(),
  extraGuestFee: z.number().describe('Per night, for each guest above guestsIncluded.'),
  guestsIncluded: z.number(),
  taxRate: z.number().describe('Percent charged on accommodation and fees.'),
  minNights: z.number(),
  maxNights: z.number(),
  checkInTime: z.number().describe('Local hour, 0–23.'),
  checkOutTime: z.number().describe('Local hour, 0–23.'),
  weeklyDiscount: z.number().describe('Percent off accommodation for stays of 7–27 nights.'),
  monthlyDiscount: z.number().describe('Percent off accommodation for stays of 28 nights or more.'),
  enabled: z.boolean().describe('Disabled listings take no new bookings or quotes.'),
  listingGroupIds: z.array(z.string()),
  channels: z.array(listingChannelLinkSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
/** A rental listing. */
export type Listing = z.infer<typeof listingSchema>;

/** Filters and paging for {@link ListingUseCases.list}. */
export const listListingsInputSchema = z.object({
  ...pageInputShape,
  enabled: z.boolean().optional().describe('Only enabled (true) or only disabled (false) listings.'),
  listingGroupId: z.string().max(64).optional().describe('Only listings in this listing group.'),
  query: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe('Case-insensitive text found in the name, nickname or city.'),
});
/** Input of {@link ListingUseCases.list}. */
export type ListListingsInput = z.input<typeof listListingsInputSchema>;

/** Most nights an availability window may span: two years, as far ahead as hosts publish calendars. */
export const maxAvailabilityWindowNights = 731;

/**
 * What is wrong with a stay window from check-in `startDate` to check-out `endDate`, or undefined when it
 * can be asked about: it needs at least one night and at most {@link maxAvailabilityWindowNights}. Both
 * must be real dates; the problem belongs on `endDate`.
 */
export function availabilityWindowProblem(startDate: LocalDate, endDate: LocalDate): string | undefined {
  const nights = daysBetween(startDate, endDate);
  if (nights < 1) return 'endDate (the check-out date) must be after startDate.';
  if (nights > maxAvailabilityWindowNights) {
    return `Ask about at most ${maxAvailabilityWindowNights} nights at a time; this window has ${nights}.`;
  }
  return undefined;
}

/** A stay window and paging for {@link ListingUseCases.listAvailable}. */
export const listAvailableListingsInputSchema = z
  .object({
    ...pageInputShape,
    startDate: localDateSchema.describe('The check-in date: the first night that must be free.'),
    endDate: localDateSchema.describe(
      'The check-out date; the last night that must be free is the day before.',
    ),
  })
  .superRefine((input, context) => {
    if (!areLocalDates(input.startDate, input.endDate)) return;
    const problem = availabilityWindowProblem(input.startDate, input.endDate);
    if (problem !== undefined) context.addIssue({ code: 'custom', path: ['endDate'], message: problem });
  });
/** Input of {@link ListingUseCases.listAvailable}. */
export type ListAvailableListingsInput = z.input<typeof listAvailableListingsInputSchema>;

const hourSchema = z.number().int().min(0).max(23);
const percentSchema = z.number().min(0).max(100).multipleOf(0.01);

/** The listing settings a host may change. Omitted fields stay as they are. */
export const updateListingInputSchema = z
  .object({
    listingId: listingIdSchema,
    name: z.string().trim().min(1).max(200).optional().describe('Listing name guests see.'),
    nickname: z
      .string()
      .trim()
      .max(100)
      .nullable()
      .optional()
      .describe('Internal short name; null removes it.'),
    basePrice: amountSchema.optional().describe('Nightly price of dates without their own.'),
    minPrice: amountSchema.nullable().optional().describe('Price floor; null removes it.'),
    cleaningFee: amountSchema.optional().describe('Per stay.'),
    extraGuestFee: amountSchema.optional().describe('Per night, for each guest above guestsIncluded.'),
    guestsIncluded: z.number().int().min(1).max(50).optional().describe('Guests the nightly price covers.'),
    taxRate: percentSchema.optional().describe('Percent, e.g. 12.5.'),
    maxGuests: z.number().int().min(1).max(50).optional().describe('Adults and children.'),
    minNights: z.number().int().min(1).max(365).optional().describe('Shortest stay, in nights.'),
    maxNights: z.number().int().min(1).max(1125).optional().describe('Longest stay, in nights.'),
    checkInTime: hourSchema.optional().describe('Earliest local arrival hour.'),
    checkOutTime: hourSchema.optional().describe('Latest local departure hour.'),
    weeklyDiscount: percentSchema.optional().describe('Percent off accommodation for 7–27 nights.'),
    monthlyDiscount: percentSchema.optional().describe('Percent off accommodation for 28 nights or more.'),
    enabled: z.boolean().optional().describe('Takes bookings and quotes.'),
  })
  .refine((input) => Object.keys(input).length > 1, 'Name at least one setting to change.');
/** Input of {@link ListingUseCases.update}. */
export type UpdateListingInput = z.input<typeof updateListingInputSchema>;

/** Which channel link of a listing gets a new calendar export URL. */
export const reissueCalendarExportUrlInputSchema = z.object({
  listingId: listingIdSchema,
  channelAccountId: z
    .string()
    .min(1)
    .max(64)
    .describe('The channel account the listing is linked to, e.g. cha_…'),
});
/** Input of {@link ListingUseCases.reissueCalendarExportUrl}. */
export type ReissueCalendarExportUrlInput = z.input<typeof reissueCalendarExportUrlInputSchema>;

/** Sets or removes the channel calendar a channel link imports. */
export const setCalendarImportUrlInputSchema = z.object({
  listingId: listingIdSchema,
  channelAccountId: z
    .string()
    .min(1)
    .max(64)
    .describe('The channel account the listing is linked to, e.g. cha_…'),
  url: calendarImportUrlSchema,
});
/** Input of {@link ListingUseCases.setCalendarImportUrl}. */
export type SetCalendarImportUrlInput = z.input<typeof setCalendarImportUrlInputSchema>;

/** Reads and changes listings. */
export interface ListingUseCases {
  /** Lists the account's listings by name. */
  list(actor: Actor, input: ListListingsInput): Promise<Page<Listing>>;
  /**
   * Lists by name, in `list`'s order and cursor form, the account's listings none of whose nights from
   * `startDate` up to (not including) `endDate` is booked or blocked: the nights the calendar shows available.
   */
  listAvailable(actor: Actor, input: ListAvailableListingsInput): Promise<Page<Listing>>;
  /** One listing; `not_found` for ids outside the account. */
  get(actor: Actor, listingId: string): Promise<Listing>;
  /** Changes listing settings; audited. */
  update(actor: Actor, input: UpdateListingInput): Promise<Listing>;
  /**
   * Gives a channel link a new calendar export URL: the old one answers 404 from now on. Audited;
   * `not_found` when the listing is outside the account or not linked to that channel account.
   */
  reissueCalendarExportUrl(actor: Actor, input: ReissueCalendarExportUrlInput): Promise<ListingChannelLink>;
  /**
   * Sets the channel calendar a link imports, to be polled at once (status `pending` until then), or with
   * null stops importing and frees the nights the feed held. A new URL keeps the held stays until its first
   * good poll. Audited; `not_found` when the listing is outside the account or not linked to that channel
   * account.
   */
  setCalendarImportUrl(actor: Actor, input: SetCalendarImportUrlInput): Promise<ListingChannelLink>;
}
