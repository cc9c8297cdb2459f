import { type CliCommand, optionalString, requiredString } from './command.ts';

const shownOnce = 'This is the only time it is shown: store it now. Innkeep keeps only a hash.';

/** `innkeep issue-api-key`: an apiKey for an approved partner, which raises their REST limits. */
export const issueApiKeyCommand: CliCommand = {
  name: 'issue-api-key',
  summary: 'Issue an apiKey to an approved partner (raises REST rate limits).',
  usage: 'issue-api-key --partner <name> [--contact-email <email>]',
  details: [
    '--partner <name>         the partner’s company or product name',
    '--contact-email <email>  whom to tell about changes and abuse',
  ].join('\n'),
  options: { partner: { type: 'string' }, 'contact-email': { type: 'string' } },
  parse(values) {
    const input = {
      partnerName: requiredString(values, 'partner'),
      contactEmail: optionalString(values, 'contact-email'),
    };
    return async (context) => {
      const issued = await context.operator.issuePartnerApiKey(input);
      context.out(`Issued apiKey ${issued.id} to partner "${input.partnerName}".`);
      context.out(`apiKey: ${issued.apiKey}`);
      context.out(shownOnce);
    };
  },
};

/** `innkeep new-auth-token`: a fresh authToken for a user; the previous one stops working. */
export const newAuthTokenCommand: CliCommand = {
  name: 'new-auth-token',
  summary: 'Print a new authToken for a user, revoking their previous one.',
  usage: 'new-auth-token --email <email>',
  details: '--email <email>  the user’s login email',
  options: { email: { type: 'string' } },
  parse(values) {
    const email = requiredString(values, 'email');
    return async (context) => {
      const issued = await context.operator.issueAuthToken({ email });
      context.out(
        `New authToken for ${email} (user ${issued.userId}); any previous authToken no longer works.`,
      );
      context.out(`authToken: ${issued.authToken}`);
      context.out(shownOnce);
    };
  },
};
