import {
  collectDateRangeOperation,
  getCalendarOperation,
  getQuoteOperation,
  setAvailabilityOperation,
  setPricesOperation,
} from '@innkeep/operations';
import { defineRoute, type RestRoute } from '../../route-definition.ts';

/**
 * The calendar in Innkeep's own fields (each night's status, hold and applied rules, which Host Tools'
 * getCalendar has no place for), quotes night by night, prices set with what came of each, availability
 * writes Host Tools has no call for, and reading dates as people say them.
 */
export const calendarRoutes: readonly RestRoute[] = [
  defineRoute({
    operation: getCalendarOperation,
    method: 'GET',
    path: '/getCalendarDays/:listingId',
    summary:
      'Reads a listing’s nights (startDate to endDate) with status, price, stay rules and what holds them.',
    description:
      'Each night with available/booked/blocked, the reservation or block holding it, price and stay ' +
      'restrictions; hasMore/nextStartDate when unusually long notes cut the range short.',
    tag: 'Calendar',
  }),
  defineRoute({
    operation: getQuoteOperation,
    method: 'GET',
    path: '/getStayQuote/:listingId',
    summary: 'Prices a stay (startDate, endDate, guests) without booking it.',
    description: 'The nightly prices, fees, taxes and total in the listing’s currency; line items add up.',
    tag: 'Calendar',
  }),
  defineRoute({
    operation: setPricesOperation,
    method: 'POST',
    path: '/setNightlyPrices/:listingId',
    summary: 'Sets nightly prices (on every channel or one) and stay restrictions, date by date.',
    description:
      'The changed nights as the calendar now shows them; priceOutcomes says per price what a guest pays and ' +
      'which pricing rule or minimum price made it differ. All dates change, or none.',
    tag: 'Calendar',
  }),
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
