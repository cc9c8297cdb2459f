import { createHmac, timingSafeEqual } from 'node:crypto';

/** Name of the cookie that carries a signed-in person's web session. */
export const sessionCookieName = 'ik_session';

/** How long a web session lasts after signing in: a working day, then the person signs in again. */
export const sessionLifetimeMs = 12 * 60 * 60 * 1000;

// Instances' clocks drift a little; a session issued by a fast clock is still accepted by a slow one.
const allowedClockSkewMs = 60 * 1000;
// Far longer than any cookie we sign; anything bigger is refused before it is parsed.
const maxCookieLength = 1024;

/**
 * What the session cookie says: who signed in, when, and until when (epoch milliseconds). It is stateless —
 * any instance holding one of the secret keys can check it, with no shared session store.
 */
export interface WebSession {
  readonly userId: string;
  readonly issuedAt: number;
  readonly expiresAt: number;
}

/** A session for `userId` starting `now`, valid for {@link sessionLifetimeMs}. */
export function newWebSession(userId: string, now: Date): WebSession {
  const issuedAt = now.getTime();
  return { userId, issuedAt, expiresAt: issuedAt + sessionLifetimeMs };
}

function mac(key: string, payload: string): Buffer {
  // The "session:" prefix keeps these MACs apart from the CSRF tokens made with the same keys.
  return createHmac('sha256', key).update(`session:${payload}`).digest();
}

/** The cookie value for `session`: base64url JSON, a dot, and its HMAC-SHA256 under the first secret key. */
export function signSession(session: WebSession, secretKeys: readonly string[]): string {
  const key = secretKeys[0];
  if (key === undefined) throw new Error('signSession needs at least one secret key');
  const payload = Buffer.from(
    JSON.stringify({ userId: session.userId, issuedAt: session.issuedAt, expiresAt: session.expiresAt }),
  ).toString('base64url');
  return `${payload}.${mac(key, payload).toString('base64url')}`;
}

/**
 * The session a cookie value carries, or null when it is missing, malformed, signed with none of
 * `secretKeys` (keys rotate: the first signs, all verify), expired at `now`, or issued in the future.
 */
export function verifySession(
  cookieValue: string | undefined,
  secretKeys: readonly string[],
  now: Date,
): WebSession | null {
  if (cookieValue === undefined || cookieValue.length > maxCookieLength) return null;
  const [payload, signature, extra] = cookieValue.split('.');
  if (payload === undefined || signature === undefined || extra !== undefined) return null;
  const given = Buffer.from(signature, 'base64url');
  const signedByUs = secretKeys.some((key) => {
    const expected = mac(key, payload);
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
  if (!signedByUs) return null;
  const session = parseSession(payload);
  if (session === null) return null;
  const nowMs = now.getTime();
  if (session.expiresAt <= nowMs || session.issuedAt > nowMs + allowedClockSkewMs) return null;
  return session;
}

function parseSession(payload: string): WebSession | null {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { userId, issuedAt, expiresAt } = value as Record<string, unknown>;
  if (typeof userId !== 'string' || userId.length === 0 || userId.length > 64) return null;
  if (!Number.isSafeInteger(issuedAt) || !Number.isSafeInteger(expiresAt)) return null;
  return { userId, issuedAt: Number(issuedAt), expiresAt: Number(expiresAt) };
}
