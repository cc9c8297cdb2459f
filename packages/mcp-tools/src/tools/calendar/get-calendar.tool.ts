import { getCalendarOperation, maxToolCalendarDays } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_calendar: a listing's nights with availability, price and stay restrictions. */
export const getCalendarTool = defineTool({
  operation: getCalendarOperation,
  name: 'get_calendar',
  title: 'Get a listing’s calendar',
  description:
    `One listing’s days, startDate to endDate (at most ${maxToolCalendarDays}): open, booked (reservation ` +
    'id) or blocked (reason); the effective price after per-date prices, rules (appliedRuleIds) and the ' +
    'minimum price; channel prices; minimum stay; closed check-in or check-out.',
});
