import { listAccountsOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** list_accounts: the host's connected channel accounts. */
export const listAccountsTool = defineTool({
  operation: listAccountsOperation,
  name: 'list_accounts',
  title: 'List connected channel accounts',
  description:
    'Lists the host’s channel accounts (Airbnb, Vrbo, Booking.com, direct): connection type, status, last ' +
    'sync and error (iCal: polled; api: as recorded), linked listings.',
});
