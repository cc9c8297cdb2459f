import {
  addSubUserInputSchema,
  createOwnerAccountInputSchema,
  DomainError,
  parseInput,
  setSubscriptionStatusInputSchema,
} from '@innkeep/domain';
import {
  type CliCommand,
  type CliContext,
  type OptionValues,
  optionalString,
  requiredString,
  UsageError,
} from './command.ts';

const passwordNote =
  'A password given as a flag is visible to other local users in the process list; change it after the first login.';

/** `innkeep create-owner`: a new account with its owner user and a subscription. */
export const createOwnerCommand: CliCommand = {
  name: 'create-owner',
  summary: 'Create an account and its owner user.',
  usage:
    'create-owner --email <email> --password <password> --first-name <name> --last-name <name> ' +
    '--account-name <name> --time-zone <IANA zone> --currency <code> [--status <status>]',
  details: [
    '--account-name <name>   the business name, e.g. "Seaside Stays"',
    '--time-zone <zone>      IANA time zone of the account, e.g. Europe/Lisbon',
    '--currency <code>       ISO 4217 currency of reports, e.g. EUR',
    '--status <status>       subscription: trialing (default), active, past_due, canceled or unpaid',
    passwordNote,
  ].join('\n'),
  options: {
    email: { type: 'string' },
    password: { type: 'string' },
    'first-name': { type: 'string' },
    'last-name': { type: 'string' },
    'account-name': { type: 'string' },
    'time-zone': { type: 'string' },
    currency: { type: 'string' },
    status: { type: 'string' },
  },
  parse(values) {
    // The domain's own schema checks the values, so the CLI accepts exactly what the use case does.
    const input = parseInput(createOwnerAccountInputSchema, {
      email: requiredString(values, 'email'),
      password: requiredString(values, 'password'),
      firstName: requiredString(values, 'first-name'),
      lastName: requiredString(values, 'last-name'),
      accountName: requiredString(values, 'account-name'),
      timeZone: requiredString(values, 'time-zone'),
      currency: requiredString(values, 'currency'),
      subscriptionStatus: optionalString(values, 'status'),
    });
    return async (context) => {
      const created = await context.operator.createOwnerAccount(input);
      context.out(`Created account ${created.accountId} "${input.accountName}".`);
      context.out(`Owner: ${created.userId} (${input.email})`);
    };
  },
};

/** `innkeep add-sub-user`: a team member (manager or viewer) in an existing account. */
export const addSubUserCommand: CliCommand = {
  name: 'add-sub-user',
  summary: 'Add a team member (manager or viewer) to an account.',
  usage:
    'add-sub-user (--account-email <owner email> | --account-id <id>) --email <email> ' +
    '--first-name <name> --last-name <name> --role manager|viewer [--password <password>]',
  details: [
    '--account-email <email>  the account owner’s email; or --account-id <id>',
    '--role <role>            manager (may change data) or viewer (read only)',
    '--password <password>    10 to 256 characters; omit for a user who signs in only with an authToken',
    passwordNote,
  ].join('\n'),
  options: {
    'account-email': { type: 'string' },
    'account-id': { type: 'string' },
    email: { type: 'string' },
    'first-name': { type: 'string' },
    'last-name': { type: 'string' },
    role: { type: 'string' },
    password: { type: 'string' },
  },
  parse(values) {
    const account = accountReference(values);
    const member = parseInput(addSubUserInputSchema.omit({ accountId: true }), {
      email: requiredString(values, 'email'),
      firstName: requiredString(values, 'first-name'),
      lastName: requiredString(values, 'last-name'),
      role: requiredString(values, 'role'),
      password: optionalString(values, 'password'),
    });
    return async (context) => {
      const accountId = await resolveAccountId(account, context);
      const added = await context.operator.addSubUser({ accountId, ...member });
      context.out(`Added ${member.role} ${added.userId} (${member.email}) to account ${accountId}.`);
    };
  },
};

/** `innkeep set-subscription`: what billing would do — put an account in or out of good standing. */
export const setSubscriptionCommand: CliCommand = {
  name: 'set-subscription',
  summary: 'Set an account’s subscription status (and optionally the end of its period).',
  usage:
    'set-subscription (--account-email <owner email> | --account-id <id>) --status <status> ' +
    '[--period-end <ISO date-time>]',
  details: [
    '--status <status>          trialing or active (good standing); past_due, canceled or unpaid (not)',
    '--period-end <date-time>   when the current period ends, e.g. 2027-01-31T00:00:00Z',
  ].join('\n'),
  options: {
    'account-email': { type: 'string' },
    'account-id': { type: 'string' },
    status: { type: 'string' },
    'period-end': { type: 'string' },
  },
  parse(values) {
    const account = accountReference(values);
    const change = parseInput(setSubscriptionStatusInputSchema.omit({ accountId: true }), {
      status: requiredString(values, 'status'),
      currentPeriodEnd: optionalString(values, 'period-end'),
    });
    return async (context) => {
      const accountId = await resolveAccountId(account, context);
      const result = await context.operator.setSubscriptionStatus({ accountId, ...change });
      const standing = result.inGoodStanding ? 'in good standing' : 'NOT in good standing';
      context.out(`Account ${result.accountId}: subscription ${result.status}, ${standing}.`);
    };
  },
};

type AccountReference = { readonly email: string } | { readonly id: string };

function accountReference(values: OptionValues): AccountReference {
  const email = optionalString(values, 'account-email');
  const id = optionalString(values, 'account-id');
  if (email !== undefined && id === undefined) return { email };
  if (id !== undefined && email === undefined) return { id };
  throw new UsageError('Pass exactly one of --account-email and --account-id.');
}

// An account is named by its owner's email because that is what an operator has at hand; a team member's
// email is refused rather than guessed from, so a typo cannot silently change the wrong account.
async function resolveAccountId(account: AccountReference, context: CliContext): Promise<string> {
  if ('id' in account) return account.id;
  const user = await context.operator.findUserByEmail(account.email);
  if (user === null) {
    throw new DomainError(
      'not_found',
      `No user has the email ${account.email}. Check the spelling, or pass --account-id.`,
    );
  }
  if (user.role !== 'owner') {
    throw new DomainError(
      'failed_precondition',
      `${account.email} is a ${user.role} of account ${user.accountId}, not its owner. ` +
        `Pass the owner’s email, or --account-id ${user.accountId}.`,
    );
  }
  return user.accountId;
}
