import { getCheckInsCheckOutsOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_check_ins_check_outs: arrivals, departures and stayovers per day, week or month. */
export const getCheckInsCheckOutsTool = defineTool({
  operation: getCheckInsCheckOutsOperation,
  name: 'get_check_ins_check_outs',
  title: 'Arrivals and departures',
  description:
    'Arrivals (check-ins), departures (check-outs) and stayovers of accepted stays per day — or per week or ' +
    'month; periods over 92 nights default to months — with totals, on each listing’s own dates. With ' +
    'listReservations (periods up to 31 nights) also lists who arrives and leaves: reservation id, listing, ' +
    'guest first name, dates. Use it for "how many check-ins next week?" or operations planning; for the next ' +
    'arrivals from today use get_upcoming_reservations.',
});
