import { z } from 'zod';
import type { UserRole } from '../core/actor.ts';
import { timeZoneSchema } from '../core/dates.ts';
import { currencyCodeSchema } from '../core/money.ts';
import {
  emailSchema,
  passwordSchema,
  personNameSchema,
  type SubscriptionStatus,
  subscriptionStatusSchema,
  subUserRoles,
} from './identity.ts';

const accountIdSchema = z.string().min(1).max(64).describe('Account id, e.g. acc_…');

/** A new account with its owner, as an operator creates it. */
export const createOwnerAccountInputSchema = z.object({
  accountName: z.string().trim().min(1).max(200).describe('Account (business) name.'),
  email: emailSchema,
  password: passwordSchema,
  firstName: personNameSchema,
  lastName: personNameSchema,
  timeZone: timeZoneSchema,
  currency: currencyCodeSchema,
  subscriptionStatus: subscriptionStatusSchema.default('trialing'),
  plan: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_-]*$/, 'Plan names are lower-case letters, digits, - and _.')
    .max(50)
    .default('standard')
    .describe('Plan name, default standard.'),
});
/** Input of {@link OperatorUseCases.createOwnerAccount}. */
export type CreateOwnerAccountInput = z.input<typeof createOwnerAccountInputSchema>;

/** A team member added to an existing account. */
export const addSubUserInputSchema = z.object({
  accountId: accountIdSchema,
  email: emailSchema,
  firstName: personNameSchema,
  lastName: personNameSchema,
  role: z.enum(subUserRoles).describe('manager (may change data) or viewer (read only).'),
  password: passwordSchema
    .optional()
    .describe('Password, 10 to 256 characters; omit for a user who signs in only with an authToken.'),
});
/** Input of {@link OperatorUseCases.addSubUser}. */
export type AddSubUserInput = z.input<typeof addSubUserInputSchema>;

/** A subscription change reported by billing or made by hand. */
export const setSubscriptionStatusInputSchema = z.object({
  accountId: accountIdSchema,
  status: subscriptionStatusSchema,
  currentPeriodEnd: z.iso
    .datetime({ offset: true })
    .nullable()
    .optional()
    .describe('End of the paid or trial period, ISO 8601; null clears it; omitted leaves it as it is.'),
});
/** Input of {@link OperatorUseCases.setSubscriptionStatus}. */
export type SetSubscriptionStatusInput = z.input<typeof setSubscriptionStatusInputSchema>;

/** A partner approved for an apiKey. */
export const issuePartnerApiKeyInputSchema = z.object({
  partnerName: z.string().trim().min(1).max(200).describe('The partner’s name, as support knows it.'),
  contactEmail: emailSchema.optional().describe('Where to reach the partner about the key.'),
});
/** Input of {@link OperatorUseCases.issuePartnerApiKey}. */
export type IssuePartnerApiKeyInput = z.input<typeof issuePartnerApiKeyInputSchema>;

/** Names the apiKey to revoke. */
export const revokePartnerApiKeyInputSchema = z.object({
  id: z.string().min(1).max(64).describe('Partner apiKey id, e.g. key_…'),
});
/** Input of {@link OperatorUseCases.revokePartnerApiKey}. */
export type RevokePartnerApiKeyInput = z.input<typeof revokePartnerApiKeyInputSchema>;

/** Names the user who gets a new authToken. */
export const issueAuthTokenInputSchema = z.object({
  email: z.string().trim().min(1).max(254).describe('The user’s sign-in email (any letter case).'),
});
/** Input of {@link OperatorUseCases.issueAuthToken}. */
export type IssueAuthTokenInput = z.input<typeof issueAuthTokenInputSchema>;

/** A user found by email. */
export interface UserLookup {
  readonly userId: string;
  readonly accountId: string;
  readonly role: UserRole;
}

/**
 * Commands an operator runs from the server CLI. There is no acting user: writes that concern an account
 * are audited with `via: 'cli'` and no user id. Secrets in the results are shown this once.
 */
export interface OperatorUseCases {
  /** Creates an account, its subscription and its owner; `conflict` when the email is taken. */
  createOwnerAccount(input: CreateOwnerAccountInput): Promise<{ accountId: string; userId: string }>;
  /** Adds a manager or viewer to an account; `not_found` for an unknown account, `conflict` for a taken email. */
  addSubUser(input: AddSubUserInput): Promise<{ userId: string }>;
  /** Sets an account's subscription status (and period end). */
  setSubscriptionStatus(
    input: SetSubscriptionStatusInput,
  ): Promise<{ accountId: string; status: SubscriptionStatus; inGoodStanding: boolean }>;
  /** Issues an apiKey to a partner; the key is returned this once and stored only as a hash. */
  issuePartnerApiKey(input: IssuePartnerApiKeyInput): Promise<{ id: string; apiKey: string }>;
  /** Revokes a partner apiKey at once; revoking it again changes nothing. `not_found` for unknown ids. */
  revokePartnerApiKey(input: RevokePartnerApiKeyInput): Promise<void>;
  /** Generates a new authToken for a user (revoking the old one), e.g. to bootstrap a fresh install. */
  issueAuthToken(input: IssueAuthTokenInput): Promise<{ userId: string; authToken: string }>;
  /** The user with this email, compared case-insensitively; null when there is none. */
  findUserByEmail(email: string): Promise<UserLookup | null>;
}
