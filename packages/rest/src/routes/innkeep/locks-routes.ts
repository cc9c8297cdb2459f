import { getLockOperation, listAccessCodesOperation, listLocksOperation } from '@innkeep/operations';
import { defineRoute, type RestRoute } from '../../route-definition.ts';

/** Smart locks and the door codes of stays. */
export const locksRoutes: readonly RestRoute[] = [
  defineRoute({
    operation: listLocksOperation,
    method: 'GET',
    path: '/listLocks',
    summary: 'Lists the account’s smart locks, by name.',
    description: 'A page of locks with the listings each serves, with nextCursor/hasMore.',
    tag: 'Locks',
    paging: 'page',
  }),
  defineRoute({
    operation: getLockOperation,
    method: 'GET',
    path: '/getLock/:lockId',
    summary: 'One smart lock.',
    description: 'The lock: provider, listings, online state, battery and code length.',
    tag: 'Locks',
  }),
  defineRoute({
    operation: listAccessCodesOperation,
    method: 'GET',
    path: '/listAccessCodes',
    summary: 'A stay’s door codes (query reservationId), one per lock of its listing.',
    description: 'The codes with their validity windows and status, by lock name.',
    tag: 'Locks',
  }),
];
