import { getAccountOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_account: one connected channel account. */
export const getAccountTool = defineTool({
  operation: getAccountOperation,
  name: 'get_account',
  title: 'Get a connected channel account',
  description:
    'One connected channel account by id: connection type, health, last sync and error, linked listings. ' +
    'Use it to explain why a listing stopped syncing; needs_reauth means the host must log in to the ' +
    'channel again.',
});
