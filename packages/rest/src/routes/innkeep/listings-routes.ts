import { defaultCalendarImportIntervalMinutes } from '@innkeep/domain';
import {
  getListingOperation,
  listListingsOperation,
  reissueCalendarExportUrlOperation,
  setCalendarImportUrlOperation,
  updateListingOperation,
} from '@innkeep/operations';
import { defineRoute, type RestRoute } from '../../route-definition.ts';
import { ignoredBodySchema } from './ignored-body.ts';

/**
 * Listings in Innkeep's own field names: list, read one, change, switch bookings on or off, reissue a
 * channel link's calendar export URL and set the channel calendar it imports.
 */
export const listingsRoutes: readonly RestRoute[] = [
  defineRoute({
    operation: listListingsOperation,
    method: 'GET',
    path: '/listListings',
    summary: 'Lists the account’s listings, by name, filtered by enabled, listing group or text.',
    description: 'A page of listings with every setting, and nextCursor/hasMore.',
    tag: 'Listings',
    paging: 'page',
  }),
  defineRoute({
    operation: getListingOperation,
    method: 'GET',
    path: '/getListingDetails/:listingId',
    summary: 'Reads one listing with every setting.',
    description:
      'The listing in Innkeep’s own fields, including what Host Tools’ getListing has no place for: ' +
      'enabled, the cleaning and extra-guest fees, tax rate, maximum nights and listing groups.',
    tag: 'Listings',
  }),
  defineRoute({
    operation: updateListingOperation,
    method: 'POST',
    path: '/updateListing/:listingId',
    summary: 'Changes a listing’s settings; omitted fields stay as they are.',
    description: 'The listing as changed.',
    tag: 'Listings',
  }),
  defineRoute({
    operation: updateListingOperation,
    method: 'POST',
    path: '/enableListing/:listingId',
    summary: 'Enables a listing, so it takes bookings and quotes again.',
    description: 'The listing, enabled.',
    tag: 'Listings',
    bodySchema: ignoredBodySchema,
    input: ({ params }) => ({ listingId: params.listingId, enabled: true }),
  }),
  defineRoute({
    operation: updateListingOperation,
    method: 'POST',
    path: '/disableListing/:listingId',
    summary: 'Disables a listing: it takes no new bookings or quotes; existing stays are kept.',
    description: 'The listing, disabled.',
    tag: 'Listings',
    bodySchema: ignoredBodySchema,
    input: ({ params }) => ({ listingId: params.listingId, enabled: false }),
  }),
  defineRoute({
    operation: reissueCalendarExportUrlOperation,
    method: 'POST',
    path: '/reissueCalendarExportUrl/:listingId/:channelAccountId',
    summary:
      'Gives a listing’s link to a channel account a new secret iCal URL; the old URL answers 404 from now on.',
    description:
      'The channel link with its new calendarExportUrl: paste it into the channel’s calendar import in ' +
      'place of the old one.',
    tag: 'Listings',
    bodySchema: ignoredBodySchema,
    input: ({ params }) => ({ listingId: params.listingId, channelAccountId: params.channelAccountId }),
  }),
  defineRoute({
    operation: setCalendarImportUrlOperation,
    method: 'POST',
    path: '/setCalendarImportUrl/:listingId/:channelAccountId',
    summary: 'Sets the channel’s iCal export URL a listing’s channel link imports; url null stops importing.',
    description:
      'The channel link with its calendarImport: pending until the first poll (at once, then every ' +
      `CALENDAR_IMPORT_INTERVAL_MINUTES, ${defaultCalendarImportIntervalMinutes} by default), then connected ` +
      'or error with the reason. The channel’s ' +
      'stays become blocked nights (reason channel); stays that clash with a booking here are listed as ' +
      'conflicts, not written. Removing the URL frees the nights it held.',
    tag: 'Listings',
  }),
];
