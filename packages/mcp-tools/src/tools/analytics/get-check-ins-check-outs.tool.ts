import { getCheckInsCheckOutsOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_check_ins_check_outs: arrivals, departures and stayovers per day, week or month. */
export const getCheckInsCheckOutsTool = defineTool({
  operation: getCheckInsCheckOutsOperation,
  name: 'get_check_ins_check_outs',
  title: 'Arrivals and departures',
  description:
    'Arrivals, departures and stayovers of accepted stays per day, week or month, with totals; ' +
    'listReservations names them (up to 31 nights). Next arrivals from today: get_upcoming_reservations.',
});
