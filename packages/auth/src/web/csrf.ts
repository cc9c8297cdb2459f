import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Name of the cookie that carries the CSRF secret; its HMAC goes into every form as `csrf`. */
export const csrfCookieName = 'ik_csrf';

/** A fresh random value for the CSRF cookie. */
export function newCsrfSecret(): string {
  return randomBytes(24).toString('base64url');
}

/**
 * The form token for a CSRF cookie value: HMAC with the first of the server's secret keys. Another site can
 * neither read the cookie nor compute the HMAC, so a forged form post cannot carry a matching token.
 */
export function csrfTokenFor(cookieValue: string, secretKeys: readonly string[]): string {
  const key = secretKeys[0];
  if (key === undefined) throw new Error('csrfTokenFor needs at least one secret key');
  return createHmac('sha256', key).update(`csrf:${cookieValue}`).digest('base64url');
}

/** True when `token` matches the cookie value under any of the keys (keys rotate: the first signs, all verify). */
export function isValidCsrfToken(
  cookieValue: string | undefined,
  token: unknown,
  secretKeys: readonly string[],
): boolean {
  if (cookieValue === undefined || typeof token !== 'string' || token.length === 0) return false;
  const given = Buffer.from(token);
  return secretKeys.some((key) => {
    const expected = Buffer.from(createHmac('sha256', key).update(`csrf:${cookieValue}`).digest('base64url'));
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
}
