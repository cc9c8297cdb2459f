import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One email the sink accepted: its envelope and its raw text. */
export interface ReceivedMail {
  readonly from: string;
  readonly to: readonly string[];
  readonly raw: string;
}

/** How the sink answers a recipient: accept, or refuse with an SMTP code and text. */
export type RecipientAnswer = 'accept' | { readonly code: number; readonly message: string };

/** A local SMTP server that keeps what it receives, for tests. */
export interface SmtpSink {
  readonly url: string;
  readonly received: ReceivedMail[];
  /** How to answer each next recipient, in order; once they are used up, every recipient is accepted. */
  answerNext(...answers: RecipientAnswer[]): void;
  close(): Promise<void>;
}

/** Starts a sink on a free loopback port: no TLS, no login. */
export async function startSmtpSink(): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  const answers: RecipientAnswer[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      const answer = answers.shift() ?? 'accept';
      if (answer === 'accept') return callback();
      callback(Object.assign(new Error(answer.message), { responseCode: answer.code }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    answerNext: (...next) => answers.push(...next),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The value of header `name` in a raw email (unfolded), or undefined. */
export function header(raw: string, name: string): string | undefined {
  const head = raw.slice(0, raw.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ');
  const line = head
    .split('\r\n')
    .find((candidate) => candidate.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line?.slice(name.length + 1).trim();
}

/** The body of a raw email, as sent (7-bit text stays as written). */
export function body(raw: string): string {
  return raw.slice(raw.indexOf('\r\n\r\n') + 4).replace(/\r\n$/, '');
}
