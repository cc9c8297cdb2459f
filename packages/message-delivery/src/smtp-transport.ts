import { createTransport } from 'nodemailer';
import type { MessageEmail } from './message-email.ts';

/**
 * What `runMessageDeliveries` sends with: a nodemailer transporter (see {@link createSmtpTransport}), or a
 * stand-in in tests. It resolves once the server accepted the email and rejects with nodemailer's error.
 */
export interface MessageTransport {
  sendMail(email: MessageEmail): Promise<unknown>;
}

/** How long the SMTP server may take to accept a connection, greet, and answer each command. */
export const smtpTimeoutsMs = { connection: 10_000, greeting: 10_000, socket: 30_000 } as const;

/**
 * A pooled nodemailer transport to `smtpUrl` (`smtp://user:pass@host:587`, or `smtps://` for TLS from the
 * start), with the {@link smtpTimeoutsMs}, so a server that hangs makes an attempt fail and retry rather than
 * hold a claim. At most `maxConnections` (default 4) connections at once, reused between messages. Close it
 * when the job stops.
 */
export function createSmtpTransport(smtpUrl: string, options: { readonly maxConnections?: number } = {}) {
  const url = new URL(smtpUrl);
  return createTransport({
    url: url.href,
    pool: true,
    maxConnections: options.maxConnections ?? 4,
    connectionTimeout: smtpTimeoutsMs.connection,
    greetingTimeout: smtpTimeoutsMs.greeting,
    socketTimeout: smtpTimeoutsMs.socket,
  });
}
