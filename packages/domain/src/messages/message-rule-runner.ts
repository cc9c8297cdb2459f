import { z } from 'zod';

/** Options of {@link MessageRuleRunner.runDue}. */
export const runDueMessageRulesInputSchema = z.object({
  now: z.date().optional().describe('The moment to run as of; default the clock’s now.'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(500)
    .describe('Most messages one run sends, 1 to 10000; default 500. The rest wait for the next run.'),
});
/** Input of {@link MessageRuleRunner.runDue}. */
export type RunDueMessageRulesInput = z.input<typeof runDueMessageRulesInputSchema>;

/** What one run of {@link MessageRuleRunner.runDue} did. */
export interface RunDueMessageRulesResult {
  /** Messages queued to guests by this run. */
  readonly sent: number;
  /** Due messages this run did not send because another runner had just sent them. */
  readonly skipped: number;
}

/**
 * Sends message rules when they come due, for every account: the operator's background job, not a use
 * case of any one user, so it takes no actor.
 */
export interface MessageRuleRunner {
  /**
   * Queues the text of every active rule whose trigger moment for a covered reservation has come within
   * the last 24 hours, once per reservation and rule however often and on however many instances it runs.
   * Moments are listing-local: `inquiry`, `booking_confirmed` and `cancelled` wait `offsetDays` after the
   * event (and for the rule's send time on that day, when it has one); `check_in` and `check_out` are the
   * stay's dates moved by `offsetDays` at the send time, else the check-in or check-out hour; `during_stay`
   * and `review_request` count from check-in and check-out at the send time, else at
   * `stayRuleDefaultSendTime` (message-rules.ts). A booking confirmed after its check-in message
   * would have gone out gets the rule's last-minute text right away.
   * Anything due longer than 24 hours ago is never sent, so a new rule does not write to past guests.
   */
  runDue(options?: RunDueMessageRulesInput): Promise<RunDueMessageRulesResult>;
}
