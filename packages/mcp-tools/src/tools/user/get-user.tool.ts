import { getUserOperation } from '@innkeep/operations';
import { defineTool } from '../../tool-definition.ts';

/** get_user: the signed-in host, their account and subscription. */
export const getUserTool = defineTool({
  operation: getUserOperation,
  name: 'get_user',
  title: 'Get the signed-in host',
  description:
    'The host you act for: name, email and role; the account’s business name, time zone and currency; the ' +
    'subscription’s plan and standing. The account’s time zone gives “today” when no listing is involved.',
});
