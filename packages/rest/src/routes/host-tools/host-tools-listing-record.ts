import type { Listing } from '@innkeep/domain';
import { z } from 'zod';

const channelListingSchema = z.object({ id: z.string().describe('The listing’s id on that channel.') });

/**
 * A listing as Host Tools clients read it (`Listing` of the Host Tools API): Innkeep's listing under Host
 * Tools field names. Only what Innkeep stores is sent; Host Tools fields Innkeep does not have (images,
 * policies, sync switches …) are left out rather than invented, and optional text Innkeep has no value
 * for is left out rather than sent as null.
 */
export const hostToolsListingSchema = z.object({
  _id: z.string().describe('Listing id, e.g. lst_…'),
  userID: z.string().describe('The account the listing belongs to; the same in every answer.'),
  name: z.string().describe('Listing name guests see.'),
  nickname: z.string().optional().describe('Internal short name, when the host set one.'),
  propertyType: z.string().describe('Kind of property, e.g. apartment or house.'),
  address: z.string().describe('Street address.'),
  city: z.string(),
  region: z.string().optional().describe('State, province or region, when known.'),
  country: z.string().describe('Country name in English.'),
  countryCode: z.string().describe('ISO 3166-1 alpha-2 country code.'),
  zipcode: z.string().optional().describe('Postal code, when known.'),
  latitude: z.number().optional(),
  longitude: z.number().optional(),
  timeZone: z.string().describe('IANA time zone; stay dates and hours are local to it.'),
  currency: z.string().describe('ISO 4217 code of every amount of the listing.'),
  bedrooms: z.number(),
  bathrooms: z.number(),
  maxGuests: z.number().describe('Most guests allowed (adults and children).'),
  minNights: z.number().describe('Shortest stay, in nights, unless a date says otherwise.'),
  basePrice: z.number().describe('Default nightly price before per-date prices and pricing rules.'),
  minPrice: z.number().nullable().describe('Floor no rule or per-date price goes below; null when none.'),
  checkInTime: z.number().describe('Local hour guests may arrive from, 0–23.'),
  checkOutTime: z.number().describe('Local hour guests leave by, 0–23.'),
  weeklyDiscount: z.number().describe('Percent off accommodation for stays of 7–27 nights; 0 for none.'),
  monthlyDiscount: z
    .number()
    .describe('Percent off accommodation for stays of 28 nights or more; 0 for none.'),
  channels: z
    .object({
      Airbnb: channelListingSchema.optional(),
      VRBO: channelListingSchema.optional(),
      Booking: channelListingSchema.optional(),
      direct: z
        .array(
          z.object({
            id: z.string().describe('The listing’s id on the direct booking site.'),
            url: z.string().optional().describe('Its page on the direct booking site, when known.'),
          }),
        )
        .optional()
        .describe('Direct booking sites the listing is on.'),
    })
    .describe('The channels the listing is on; a channel it is not on is absent.'),
});
/** A listing as Host Tools clients read it. */
export type HostToolsListing = z.infer<typeof hostToolsListingSchema>;

/** The key of each marketplace channel in a Host Tools listing's `channels`. */
const marketplaceKeys = { airbnb: 'Airbnb', vrbo: 'VRBO', booking: 'Booking' } as const;

const countryNames = new Intl.DisplayNames(['en'], { type: 'region' });
// Intl looks a name up anew on every call; a listing read is hot enough (bench:rest) to keep each one.
const countryNameCache = new Map<string, string>();

/** The English name of an ISO 3166 country code, or the code when Intl knows none. */
function countryName(code: string): string {
  let name = countryNameCache.get(code);
  if (name === undefined) {
    name = countryNames.of(code) ?? code;
    countryNameCache.set(code, name);
  }
  return name;
}

/** Innkeep's listing as Host Tools clients read it; `accountId` is their `userID`. */
export function toHostToolsListing(listing: Listing, accountId: string): HostToolsListing {
  return {
    _id: listing.id,
    userID: accountId,
    name: listing.name,
    ...(listing.nickname === null ? {} : { nickname: listing.nickname }),
    propertyType: listing.propertyType,
    address: listing.address,
    city: listing.city,
    ...(listing.region === null ? {} : { region: listing.region }),
    country: countryName(listing.countryCode),
    countryCode: listing.countryCode,
    ...(listing.postalCode === null ? {} : { zipcode: listing.postalCode }),
    ...(listing.latitude === null ? {} : { latitude: listing.latitude }),
    ...(listing.longitude === null ? {} : { longitude: listing.longitude }),
    timeZone: listing.timeZone,
    currency: listing.currency,
    bedrooms: listing.bedrooms,
    bathrooms: listing.bathrooms,
    maxGuests: listing.maxGuests,
    minNights: listing.minNights,
    basePrice: listing.basePrice,
    minPrice: listing.minPrice,
    checkInTime: listing.checkInTime,
    checkOutTime: listing.checkOutTime,
    weeklyDiscount: listing.weeklyDiscount,
    monthlyDiscount: listing.monthlyDiscount,
    channels: hostToolsChannels(listing.channels),
  };
}

/**
 * Host Tools holds one listing per marketplace channel and a list of direct sites. Innkeep could link a
 * listing to one marketplace through two channel accounts; the first link then stands for the channel.
 */
function hostToolsChannels(links: Listing['channels']): HostToolsListing['channels'] {
  const channels: HostToolsListing['channels'] = {};
  for (const link of links) {
    if (link.channel === 'direct') {
      channels.direct = [
        ...(channels.direct ?? []),
        { id: link.externalListingId, ...(link.url === null ? {} : { url: link.url }) },
      ];
      continue;
    }
    channels[marketplaceKeys[link.channel]] ??= { id: link.externalListingId };
  }
  return channels;
}
