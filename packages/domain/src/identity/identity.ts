import { z } from 'zod';
import { type AccessRoute, type Actor, type UserRole, userRoles } from '../core/actor.ts';
import { type Page, pageInputShape } from '../core/paging.ts';

/** Subscription states of an account, as the billing side reports them. */
export const subscriptionStatuses = ['trialing', 'active', 'past_due', 'canceled', 'unpaid'] as const;
/** One of {@link subscriptionStatuses}. */
export type SubscriptionStatus = (typeof subscriptionStatuses)[number];
/** Validates a subscription status. */
export const subscriptionStatusSchema = z
  .enum(subscriptionStatuses)
  .describe('Subscription status: trialing or active (good standing), past_due, canceled or unpaid.');

const goodStandingStatuses: ReadonlySet<string> = new Set<SubscriptionStatus>(['trialing', 'active']);

/**
 * True when an account with this subscription status may use the service (`trialing` or `active`).
 * Unknown strings are not in good standing, so a status the code does not know never opens access.
 */
export function isGoodStanding(status: string): boolean {
  return goodStandingStatuses.has(status);
}

/** Roles a sub-user (team member) can hold; an account has exactly one owner, made with the account. */
export const subUserRoles = ['manager', 'viewer'] as const;
/** One of {@link subUserRoles}. */
export type SubUserRole = (typeof subUserRoles)[number];

/** Validates a login email; uniqueness is checked case-insensitively by the use cases. */
export const emailSchema = z
  .email('Not a valid email address.')
  .max(254)
  .describe('Email address the person signs in with; unique across Innkeep, case-insensitively.');

/** Validates a new password: at least 10 characters, so that guessing stays impractical. */
export const passwordSchema = z
  .string()
  .min(10, 'Passwords need at least 10 characters.')
  .max(256)
  .describe('Password, 10 to 256 characters.');

/** Validates a first or last name. */
export const personNameSchema = z.string().trim().min(1).max(100).describe('A first or last name.');

/**
 * Who presented a credential, with what the adapters check on every request: the role (only owners may
 * use `/mcp`) and whether the subscription is in good standing.
 */
export interface Principal {
  readonly accountId: string;
  readonly userId: string;
  readonly role: UserRole;
  readonly email: string;
  readonly subscriptionStatus: SubscriptionStatus;
  readonly inGoodStanding: boolean;
}

/** The {@link Actor} a request of `principal` acts as, arriving through `via` (and an OAuth client or partner key). */
export function actorFromPrincipal(principal: Principal, via: AccessRoute, clientId: string | null): Actor {
  return { accountId: principal.accountId, userId: principal.userId, role: principal.role, via, clientId };
}

const authTokenInfoSchema = z
  .object({ createdAt: z.string().describe('When the current authToken was generated, ISO 8601 UTC.') })
  .nullable()
  .describe('The user’s authToken (never the token itself); null when none has been generated.');

/** The signed-in user's profile, with the account and subscription it belongs to. */
export const userProfileSchema = z.object({
  id: z.string().describe('User id, e.g. usr_…'),
  email: z.string().describe('Sign-in email.'),
  firstName: z.string().describe('First name.'),
  lastName: z.string().describe('Last name.'),
  role: z.enum(userRoles).describe('owner, or a team member’s role: manager (may change data) or viewer.'),
  account: z
    .object({
      id: z.string().describe('Account id, e.g. acc_…'),
      name: z.string().describe('Account (business) name.'),
      timeZone: z.string().describe('The account’s IANA time zone.'),
      currency: z.string().describe('The account’s default ISO 4217 currency.'),
    })
    .describe('The account the user belongs to.'),
  subscription: z
    .object({
      plan: z.string().describe('Plan name.'),
      status: subscriptionStatusSchema,
      inGoodStanding: z.boolean().describe('True for trialing and active subscriptions.'),
      currentPeriodEnd: z
        .string()
        .nullable()
        .describe('End of the paid or trial period, ISO 8601 UTC; null when unknown.'),
    })
    .describe('The account’s subscription.'),
  authToken: authTokenInfoSchema,
  createdAt: z.string().describe('When the user was created, ISO 8601 UTC.'),
});
/** The signed-in user's profile. */
export type UserProfile = z.infer<typeof userProfileSchema>;

/** A user of the account as the owner's team list shows it. */
export const teamMemberSchema = z.object({
  id: z.string().describe('User id, e.g. usr_…'),
  email: z.string().describe('Sign-in email.'),
  firstName: z.string().describe('First name.'),
  lastName: z.string().describe('Last name.'),
  role: z.enum(userRoles).describe('owner, manager or viewer.'),
  authToken: authTokenInfoSchema,
  createdAt: z.string().describe('When the user was created, ISO 8601 UTC.'),
});
/** A user of the account. */
export type TeamMember = z.infer<typeof teamMemberSchema>;

/** Paging for {@link IdentityUseCases.listUsers}; users come ordered by email. */
export const listUsersInputSchema = z.object({ ...pageInputShape });
/** Input of {@link IdentityUseCases.listUsers}. */
export type ListUsersInput = z.input<typeof listUsersInputSchema>;

/** Email and password as a sign-in form sends them. Only bounded here; {@link passwordSchema} is for new ones. */
export const loginInputSchema = z.object({
  email: z.string().trim().min(1).max(254).describe('Sign-in email.'),
  password: z.string().min(1).max(256).describe('Password.'),
});
/** Input of {@link IdentityUseCases.verifyLogin}. */
export type LoginInput = z.input<typeof loginInputSchema>;

/** The profile fields a user may change. Omitted fields stay as they are. */
export const updateProfileInputSchema = z
  .object({
    firstName: personNameSchema.optional(),
    lastName: personNameSchema.optional(),
  })
  .refine(
    (input) => input.firstName !== undefined || input.lastName !== undefined,
    'Name firstName, lastName or both.',
  );
/** Input of {@link IdentityUseCases.updateProfile}. */
export type UpdateProfileInput = z.input<typeof updateProfileInputSchema>;

/** A password change: the current password proves it is the user, not someone at an unlocked screen. */
export const changePasswordInputSchema = z
  .object({
    currentPassword: z.string().min(1).max(256).describe('The password in use now.'),
    newPassword: passwordSchema,
  })
  .refine((input) => input.currentPassword !== input.newPassword, {
    message: 'The new password must differ from the current one.',
    path: ['newPassword'],
  });
/** Input of {@link IdentityUseCases.changePassword}. */
export type ChangePasswordInput = z.input<typeof changePasswordInputSchema>;

/** A freshly generated authToken. It is shown this once; only its hash is kept. */
export interface IssuedAuthToken {
  readonly authToken: string;
  /** ISO 8601 UTC. */
  readonly createdAt: string;
}

/** A partner a valid apiKey belongs to. */
export interface PartnerApiKeyOwner {
  readonly id: string;
  readonly partnerName: string;
}

/**
 * Credentials and the signed-in user's own settings; what REST, OAuth and the web pages call.
 * Credential lookups answer null rather than throwing, so adapters give one uniform 401.
 */
export interface IdentityUseCases {
  /** The principal an authToken belongs to, in one indexed query; null for unknown or revoked tokens. */
  authenticateAuthToken(authToken: string): Promise<Principal | null>;
  /**
   * The principal when email and password match; null otherwise. Unknown emails cost the same password
   * work as known ones, so response times do not reveal which emails have accounts.
   */
  verifyLogin(input: LoginInput): Promise<Principal | null>;
  /** The current principal of a user id (e.g. the subject of an OAuth token); null when the user is gone. */
  findPrincipal(userId: string): Promise<Principal | null>;
  /** The partner a (non-revoked) apiKey belongs to; null for unknown or revoked keys. */
  resolvePartnerApiKey(apiKey: string): Promise<PartnerApiKeyOwner | null>;
  /** Generates a new authToken for the acting user, revoking the old one at once; audited. */
  rotateAuthToken(actor: Actor): Promise<IssuedAuthToken>;
  /** The acting user's profile. */
  getUser(actor: Actor): Promise<UserProfile>;
  /** The account's users, ordered by email; owner only. */
  listUsers(actor: Actor, input?: ListUsersInput): Promise<Page<TeamMember>>;
  /** Changes the acting user's own name; audited. Viewers may change their own profile. */
  updateProfile(actor: Actor, input: UpdateProfileInput): Promise<UserProfile>;
  /**
   * Changes the acting user's password after checking the current one (`permission_denied` when it is
   * wrong); audited without either password.
   */
  changePassword(actor: Actor, input: ChangePasswordInput): Promise<void>;
}
