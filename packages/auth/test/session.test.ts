import { describe, expect, it } from 'vitest';
import { newWebSession, signSession, verifySession } from '../src/web/session.ts';

const oldKey = 'old-key-0123456789abcdefghijklmnopqrstuv';
const newKey = 'new-key-0123456789abcdefghijklmnopqrstuv';
const start = new Date('2027-03-01T12:00:00Z');
const twelveHoursMs = 12 * 60 * 60 * 1000;

describe('web session cookies', () => {
  it('round-trips a session valid for twelve hours', () => {
    const session = newWebSession('usr_1', start);
    expect(session).toEqual({
      userId: 'usr_1',
      issuedAt: Date.parse('2027-03-01T12:00:00Z'),
      expiresAt: Date.parse('2027-03-02T00:00:00Z'),
    });
    const cookie = signSession(session, [newKey]);
    expect(verifySession(cookie, [newKey], start)).toEqual(session);
    expect(verifySession(cookie, [newKey], new Date(start.getTime() + twelveHoursMs - 1))).toEqual(session);
  });

  it('refuses a session once twelve hours have passed', () => {
    const cookie = signSession(newWebSession('usr_1', start), [newKey]);
    expect(verifySession(cookie, [newKey], new Date(start.getTime() + twelveHoursMs))).toBeNull();
  });

  it('refuses a payload changed after signing', () => {
    const cookie = signSession(newWebSession('usr_1', start), [newKey]);
    const [, signature] = cookie.split('.');
    const forged = Buffer.from(
      JSON.stringify({
        userId: 'usr_2',
        issuedAt: start.getTime(),
        expiresAt: start.getTime() + twelveHoursMs,
      }),
    ).toString('base64url');
    expect(verifySession(`${forged}.${signature}`, [newKey], start)).toBeNull();
  });

  it('refuses cookies with a wrong, missing or extra signature part', () => {
    const cookie = signSession(newWebSession('usr_1', start), [newKey]);
    const [payload] = cookie.split('.');
    expect(verifySession(`${payload}.AAAA`, [newKey], start)).toBeNull();
    expect(verifySession(`${payload}`, [newKey], start)).toBeNull();
    expect(verifySession(`${cookie}.extra`, [newKey], start)).toBeNull();
  });

  it('accepts a cookie signed with an older key while it is still in the list, and not after', () => {
    const cookie = signSession(newWebSession('usr_1', start), [oldKey]);
    expect(verifySession(cookie, [newKey, oldKey], start)?.userId).toBe('usr_1');
    expect(verifySession(cookie, [newKey], start)).toBeNull();
  });

  it('signs with the first key only', () => {
    const cookie = signSession(newWebSession('usr_1', start), [newKey, oldKey]);
    expect(verifySession(cookie, [newKey], start)?.userId).toBe('usr_1');
    expect(verifySession(cookie, [oldKey], start)).toBeNull();
  });

  it('refuses sessions issued in the future and malformed values', () => {
    const later = signSession(newWebSession('usr_1', new Date(start.getTime() + 5 * 60 * 1000)), [newKey]);
    expect(verifySession(later, [newKey], start)).toBeNull();
    expect(verifySession(undefined, [newKey], start)).toBeNull();
    expect(verifySession('', [newKey], start)).toBeNull();
    expect(verifySession('x'.repeat(5000), [newKey], start)).toBeNull();
  });
});
