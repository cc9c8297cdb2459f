import { collectDateRangeOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** collect_date_range: what a person said about dates, as an explicit range. */
export const collectDateRangeTool = defineTool({
  operation: collectDateRangeOperation,
  name: 'collect_date_range',
  title: 'Turn words into dates',
  description:
    'Turns dates in words (“next weekend”, “last month”, “3/6/2025”) into YYYY-MM-DD from today in the ' +
    'account’s time zone (a listing’s with listingId); tell the person how it read them. Weeks run ' +
    'Monday–Sunday; “last N days” include today. resolved: both dates included (for a stay, ask if ' +
    'endDate is the last night or check-out). ambiguous or unrecognised: ask.',
});
