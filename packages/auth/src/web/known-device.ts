import { createHmac, timingSafeEqual } from 'node:crypto';

/** Name of the cookie that marks a browser as one an email signed in on before. */
export const knownDeviceCookieName = 'ik_device';

/** How long a browser stays known after its last sign-in. */
export const knownDeviceLifetimeSeconds = 365 * 24 * 60 * 60;

// Sign-in forms cap emails at 254 characters; a MAC is 43. Anything longer was not set by us.
const maxCookieLength = 64;

function mac(key: string, email: string): Buffer {
  // The "known-device:" prefix keeps these MACs apart from the CSRF tokens made with the same keys.
  return createHmac('sha256', key).update(`known-device:${email.trim().toLowerCase()}`).digest();
}

/**
 * The cookie value that marks a browser as known to `email`: an HMAC of the email under the first secret
 * key. It reveals nothing about the email and only someone who signed in (or holds the keys) can have it.
 */
export function knownDeviceToken(email: string, secretKeys: readonly string[]): string {
  const key = secretKeys[0];
  if (key === undefined) throw new Error('knownDeviceToken needs at least one secret key');
  return mac(key, email).toString('base64url');
}

/** True when `cookieValue` is the known-device token of `email` under any of `secretKeys`. */
export function isKnownDevice(
  cookieValue: string | undefined,
  email: string,
  secretKeys: readonly string[],
): boolean {
  if (cookieValue === undefined || cookieValue.length > maxCookieLength) return false;
  const given = Buffer.from(cookieValue, 'base64url');
  return secretKeys.some((key) => {
    const expected = mac(key, email);
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
}
