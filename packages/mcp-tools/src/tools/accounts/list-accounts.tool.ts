import { listAccountsOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** list_accounts: the host's connected channel accounts. */
export const listAccountsTool = defineTool({
  operation: listAccountsOperation,
  name: 'list_accounts',
  title: 'List connected channel accounts',
  description:
    'Lists the host’s connected booking-channel accounts (their Airbnb, Vrbo and Booking.com logins, and the ' +
    'direct-booking channel) by name: how each is connected (api, ical or messaging_only), its health ' +
    '(connected, or needs_reauth / disconnected / error, when syncing has stopped), the last successful sync and ' +
    'last error, and how many listings are linked to it. Use it when bookings, prices or messages seem not to ' +
    'reach a channel. These are channel connections, not Innkeep users; get_user describes the signed-in host. ' +
    'Returns up to limit (default 20) and nextCursor when more exist.',
});
