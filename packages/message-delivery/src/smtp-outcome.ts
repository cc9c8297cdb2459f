import type { MessageEmailOutcome } from '@innkeep/domain';

/** The fields nodemailer sets on an error from an SMTP server or connection. */
interface SmtpError {
  readonly code?: unknown;
  readonly responseCode?: unknown;
  readonly response?: unknown;
  readonly message?: unknown;
}

/** Error codes of nodemailer that are the server's setup, not the message's: worth retrying once fixed. */
const setupErrorCodes = new Set(['EAUTH', 'ENOAUTH', 'EOAUTH2', 'ETLS', 'ECONFIG']);

/**
 * What a failed send means for the message. A 5xx answer (but 503, a session out of step) is the server's
 * final word on this message: `failed`, with its answer as the reason. A 4xx answer, a timeout, a dropped
 * connection, or a server that refuses our login or TLS (the operator can fix that within the retry window)
 * is `retry`. An envelope nodemailer refused before any server saw it (an invalid address) is `failed`.
 */
export function smtpFailureOutcome(error: unknown): MessageEmailOutcome {
  const smtp = (typeof error === 'object' && error !== null ? error : {}) as SmtpError;
  const reason = describe(smtp, error);
  const code = typeof smtp.code === 'string' ? smtp.code : undefined;
  if (code !== undefined && setupErrorCodes.has(code)) return { kind: 'retry', error: reason };
  if (typeof smtp.responseCode === 'number') {
    const permanent = smtp.responseCode >= 500 && smtp.responseCode < 600 && smtp.responseCode !== 503;
    return { kind: permanent ? 'failed' : 'retry', error: reason };
  }
  return { kind: code === 'EENVELOPE' ? 'failed' : 'retry', error: reason };
}

/** The server's answer when there is one (`550 5.1.1 No such user`), else the error's own message. */
function describe(smtp: SmtpError, error: unknown): string {
  if (typeof smtp.response === 'string' && smtp.response.trim() !== '') return smtp.response.trim();
  if (typeof smtp.message === 'string' && smtp.message !== '') return smtp.message;
  return String(error);
}
