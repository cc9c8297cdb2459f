import { getAccountOperation, getUserOperation, listAccountsOperation } from '@innkeep/operations';
import { defineRoute, type RestRoute } from '../../route-definition.ts';

/**
 * The signed-in user with their account and subscription, and the host's connected channel accounts (Airbnb,
 * Vrbo, Booking.com, direct).
 */
export const accountRoutes: readonly RestRoute[] = [
  defineRoute({
    operation: getUserOperation,
    method: 'GET',
    path: '/getUserProfile',
    summary: 'Reads the signed-in user, their role, account and subscription.',
    description:
      'The user in Innkeep’s own fields: role (owner, manager or viewer), the account’s name, time zone ' +
      'and currency, the subscription’s plan and status, and when the authToken was made (never the token).',
    tag: 'Account',
  }),
  defineRoute({
    operation: listAccountsOperation,
    method: 'GET',
    path: '/listAccounts',
    summary: 'Lists the host’s connected channel accounts, by display name.',
    description: 'A page of channel accounts with nextCursor/hasMore.',
    tag: 'Account',
    paging: 'page',
  }),
  defineRoute({
    operation: getAccountOperation,
    method: 'GET',
    // Named after the operation's field: the id is a channel account's (cha_…), not the Innkeep account's.
    path: '/getAccount/:channelAccountId',
    summary: 'One connected channel account.',
    description: 'The channel account: channel, display name and the channel’s own ids.',
    tag: 'Account',
  }),
];
