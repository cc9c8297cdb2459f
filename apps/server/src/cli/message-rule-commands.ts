import { runMessageRulesOnce } from '../message-rule-job.ts';
import type { CliCommand } from './command.ts';

/** `innkeep run-message-rules`: sends the automated messages that are due now, once, and says how many. */
export const runMessageRulesCommand: CliCommand = {
  name: 'run-message-rules',
  summary: 'Send the automated messages that are due now, once.',
  usage: 'run-message-rules',
  details:
    'The server does this every minute by itself (unless MESSAGE_RULES=off); use this to catch up by hand.\n' +
    'Safe beside running servers: only one of them sends at a time, and no message goes out twice.',
  options: {},
  parse: () => async (context) => {
    const result = await runMessageRulesOnce(context.db, context.clock, context.emailDelivery);
    if (result === null) {
      context.out('Another instance is sending the message rules right now; nothing to do here.');
      return;
    }
    context.out(`Sent ${result.sent} message${result.sent === 1 ? '' : 's'}; skipped ${result.skipped}.`);
  },
};
