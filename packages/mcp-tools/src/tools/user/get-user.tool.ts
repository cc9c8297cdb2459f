import { getUserOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_user: the signed-in host, their account and subscription. */
export const getUserTool = defineTool({
  operation: getUserOperation,
  name: 'get_user',
  title: 'Get the signed-in host',
  description:
    'Returns the host you act for: name, email and role; their account (business name, time zone, default ' +
    'currency); the subscription (plan, status, whether it is in good standing, end of the current period); and ' +
    'when their authToken was generated (never the token). Use the account’s time zone for "today" when no ' +
    'listing is involved, and its name and first name to address the host.',
});
