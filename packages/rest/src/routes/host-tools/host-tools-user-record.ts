import type { UserProfile } from '@innkeep/domain';
import { z } from 'zod';

/** The signed-in user as Host Tools clients read it (`User` of the Host Tools API). */
export const hostToolsUserSchema = z.object({
  userID: z
    .string()
    .describe('The account id: the userID of every listing, reservation and envelope this caller reads.'),
  email: z.string().describe('Sign-in email of the user the credentials belong to.'),
  firstName: z.string(),
  lastName: z.string(),
});
/** The signed-in user as Host Tools clients read it. */
export type HostToolsUser = z.infer<typeof hostToolsUserSchema>;

/**
 * The signed-in user as Host Tools clients read it. `userID` is the account's id, not the user's: Host
 * Tools has one user per account and every record carries that id, so a team member's `userID` must be the
 * one their account's records carry.
 */
export function toHostToolsUser(profile: UserProfile): HostToolsUser {
  return {
    userID: profile.account.id,
    email: profile.email,
    firstName: profile.firstName,
    lastName: profile.lastName,
  };
}
