import { DomainError } from './errors.ts';

/** The roles a user can hold in an account. The owner has every right; sub-users are team members. */
export const userRoles = ['owner', 'manager', 'viewer'] as const;
/** One of {@link userRoles}. */
export type UserRole = (typeof userRoles)[number];

/** The route a request came through; recorded in the audit log. */
export const accessRoutes = ['rest', 'mcp', 'web', 'cli', 'system'] as const;
/** One of {@link accessRoutes}. */
export type AccessRoute = (typeof accessRoutes)[number];

/**
 * Who is acting. Every use case takes one and scopes every query to `accountId`, so an id from another
 * account is indistinguishable from an id that does not exist.
 */
export interface Actor {
  readonly accountId: string;
  /** The user acting, or null for operator commands and background jobs. */
  readonly userId: string | null;
  readonly role: UserRole;
  readonly via: AccessRoute;
  /** The OAuth client (or partner key) the request came through, for the audit log. */
  readonly clientId: string | null;
}

/** Throws `permission_denied` unless the actor may change account data (owners and managers may). */
export function assertCanWrite(actor: Actor): void {
  if (actor.role === 'viewer') {
    throw new DomainError('permission_denied', 'Viewers can read this account but not change it.');
  }
}

/** Throws `permission_denied` unless the actor is the account owner (team and billing operations). */
export function assertOwner(actor: Actor): void {
  if (actor.role !== 'owner') {
    throw new DomainError('permission_denied', 'Only the account owner can do this.');
  }
}
