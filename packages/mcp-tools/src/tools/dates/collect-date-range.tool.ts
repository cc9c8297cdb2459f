import { collectDateRangeOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** collect_date_range: what a person said about dates, as an explicit range. */
export const collectDateRangeTool = defineTool({
  operation: collectDateRangeOperation,
  name: 'collect_date_range',
  title: 'Turn words into dates',
  description:
    'Turns what a person said about dates ("today", "next weekend", "last month", "last 30 days", "Q3 2025", ' +
    '"March", "12th to 15th", "June 3 - June 9", "3/6/2025") into an explicit range of YYYY-MM-DD dates, ' +
    'counting from today in the account’s time zone (or a listing’s, with listingId), and says how it read the ' +
    'phrase. Call it whenever the person gave dates in words, before any tool that takes dates, and tell them ' +
    'the interpretation. How it reads: weeks run Monday to Sunday; a weekend is its Saturday and Sunday; "last/' +
    'next N days" include today; a month or date without a year is this year’s, a day without a month this ' +
    'month’s; "next Friday" is the Friday of next week. status resolved: use startDate and endDate, both ' +
    'INCLUDED, as they are for get_calendar, get_reservations and reports; for a stay, confirm whether endDate ' +
    'is the last night (check-out the day after) or the check-out day itself. status ambiguous (e.g. 3/6/2025 ' +
    'is 3 June or 6 March): ask the person the question, do not pick. status unrecognised: ask again, offering ' +
    'the examples. Reads nothing but the time zone and changes nothing.',
});
