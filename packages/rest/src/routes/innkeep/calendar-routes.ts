import { collectDateRangeOperation, setAvailabilityOperation } from '@innkeep/operations';
import { defineRoute, type RestRoute } from '../../route-definition.ts';

/** Calendar writes Host Tools has no call for, and reading dates as people say them. */
export const calendarRoutes: readonly RestRoute[] = [
  defineRoute({
    operation: setAvailabilityOperation,
    method: 'POST',
    path: '/setAvailability/:listingId',
    summary: 'Blocks or opens a range of nights of one listing (endDate is the last night, inclusive).',
    description: 'How many nights changed, and the nights reservations still hold when opening.',
    tag: 'Calendar',
  }),
  defineRoute({
    operation: collectDateRangeOperation,
    method: 'GET',
    path: '/collectDateRange',
    summary: 'Reads dates as a person said them ("next weekend", "June 3 - June 9") as an explicit range.',
    description:
      'The range read (resolved), the readings to choose from (ambiguous), or why not (unrecognised).',
    tag: 'Calendar',
  }),
];
