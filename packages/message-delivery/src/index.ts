// Innkeep's guest message sender: emails queued host and automated messages to direct guests over SMTP and
// records each outcome. The queue itself (SQL) is given to it as the domain port `MessageDeliveryQueue`.

export type { MessageEmail, MessageEmailAddresses } from './message-email.ts';
export { messageEmail } from './message-email.ts';
export type { MessageDeliveryTick, RunMessageDeliveriesOptions } from './run-message-deliveries.ts';
export { runMessageDeliveries } from './run-message-deliveries.ts';
export { smtpFailureOutcome } from './smtp-outcome.ts';
export type { MessageTransport } from './smtp-transport.ts';
export { createSmtpTransport, smtpTimeoutsMs } from './smtp-transport.ts';
