import { getAccountOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_account: one connected channel account. */
export const getAccountTool = defineTool({
  operation: getAccountOperation,
  name: 'get_account',
  title: 'Get a connected channel account',
  description:
    'One channel account by id: connection type, status, last sync and error (iCal: polled; api: as ' +
    'recorded), linked listings. Use it when a host asks why a channel shows other dates.',
});
