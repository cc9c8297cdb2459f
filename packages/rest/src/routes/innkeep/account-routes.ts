import { getAccountOperation, listAccountsOperation } from '@innkeep/operations';
import { defineRoute, type RestRoute } from '../../route-definition.ts';

/** The host's connected channel accounts (Airbnb, Vrbo, Booking.com, direct). */
export const accountRoutes: readonly RestRoute[] = [
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
