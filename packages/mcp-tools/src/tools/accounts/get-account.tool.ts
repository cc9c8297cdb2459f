import { getAccountOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_account: one connected channel account. */
export const getAccountTool = defineTool({
  operation: getAccountOperation,
  name: 'get_account',
  title: 'Get a connected channel account',
  description:
    'Returns one connected booking-channel account by id (from list_accounts, or a listing’s ' +
    'channels[].channelAccountId): the channel, its name, connection type, health (connected, needs_reauth, ' +
    'disconnected or error), the last successful sync, the last error and how many listings are linked to it. ' +
    'Use it to explain why a listing stopped syncing; needs_reauth means the host must log in to the channel again.',
});
