import { describe, expect, it } from 'vitest';
import { smtpFailureOutcome } from '../src/smtp-outcome.ts';

/** An error as nodemailer reports it. */
function smtpError(fields: { code?: string; responseCode?: number; response?: string; message?: string }) {
  return Object.assign(new Error(fields.message ?? 'failed'), fields);
}

describe('smtpFailureOutcome', () => {
  it('fails for good on a 5xx answer, quoting it', () => {
    expect(
      smtpFailureOutcome(
        smtpError({ code: 'EENVELOPE', responseCode: 550, response: '550 5.1.1 No such user' }),
      ),
    ).toEqual({ kind: 'failed', error: '550 5.1.1 No such user' });
  });

  it('retries a 4xx answer, and 503 (a session out of step, not a refusal)', () => {
    expect(smtpFailureOutcome(smtpError({ responseCode: 451, response: '451 Later' }))).toEqual({
      kind: 'retry',
      error: '451 Later',
    });
    expect(smtpFailureOutcome(smtpError({ responseCode: 503, response: '503 Bad sequence' })).kind).toBe(
      'retry',
    );
  });

  it('retries timeouts, lost connections and a server refusing our login', () => {
    for (const code of ['ETIMEDOUT', 'ECONNECTION', 'ESOCKET', 'EDNS']) {
      expect(smtpFailureOutcome(smtpError({ code, message: 'Connection timeout' }))).toEqual({
        kind: 'retry',
        error: 'Connection timeout',
      });
    }
    expect(
      smtpFailureOutcome(smtpError({ code: 'EAUTH', responseCode: 535, response: '535 Bad credentials' }))
        .kind,
    ).toBe('retry');
    expect(smtpFailureOutcome('something odd')).toEqual({ kind: 'retry', error: 'something odd' });
  });

  it('fails an envelope refused before any server saw it', () => {
    expect(smtpFailureOutcome(smtpError({ code: 'EENVELOPE', message: 'No recipients defined' }))).toEqual({
      kind: 'failed',
      error: 'No recipients defined',
    });
  });
});
