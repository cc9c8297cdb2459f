import { getCalendarOperation, maxToolCalendarDays } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_calendar: a listing's nights with availability, price and stay restrictions. */
export const getCalendarTool = defineTool({
  operation: getCalendarOperation,
  name: 'get_calendar',
  title: 'Get a listing’s calendar',
  description:
    'Returns each date of one listing’s calendar from startDate to endDate (both included, at most ' +
    `${maxToolCalendarDays} days per call): whether the night is available, booked (with the reservation id) or ` +
    'blocked (owner stay, maintenance or manual, with the note); the effective nightly price after per-date ' +
    'prices, pricing rules (appliedRuleIds) and the minimum-price floor; per-channel prices; the minimum stay for ' +
    'arrivals that day; and whether check-in or check-out is closed. Dates are listing-local; prices are in the ' +
    'listing’s currency, major units. Use it to find open dates and gaps, to check prices before set_prices or ' +
    'set_availability, and to see why a quote costs what it does. For longer periods make consecutive calls; ' +
    'use collect_date_range to turn phrases like "next month" into dates. In the rare case the days do not fit ' +
    'in one reply, hasMore is true and nextStartDate says where to continue.',
});
