import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { csrfCookieName, csrfTokenFor, isValidCsrfToken, newCsrfSecret } from './csrf.ts';

// newCsrfSecret() makes 32 base64url characters; anything far off that was not set by us.
const csrfCookiePattern = /^[A-Za-z0-9_-]{16,128}$/;
const maxNextLength = 2000;
// Any origin would do: `next` is resolved against it only to see where a browser would go.
const nextProbeBase = 'https://innkeep.invalid';

/** Attributes shared by Innkeep's cookies: whole site, invisible to scripts, not sent on cross-site posts. */
export function cookieAttributes(secureCookies: boolean): CookieSerializeOptions {
  return { path: '/', httpOnly: true, sameSite: 'lax', secure: secureCookies };
}

/**
 * The `csrf` value for a form on the page being rendered. Reuses the request's `ik_csrf` cookie, or sets a
 * fresh one on `reply`, so every form the person has open stays valid.
 */
export function csrfTokenForForm(
  request: FastifyRequest,
  reply: FastifyReply,
  options: { secretKeys: readonly string[]; secureCookies: boolean },
): string {
  let secret = request.cookies[csrfCookieName];
  if (secret === undefined || !csrfCookiePattern.test(secret)) {
    secret = newCsrfSecret();
    reply.setCookie(csrfCookieName, secret, cookieAttributes(options.secureCookies));
  }
  return csrfTokenFor(secret, options.secretKeys);
}

/**
 * True when a form post comes from one of our own pages: the browser does not say it came from another
 * site (`Origin`, `Sec-Fetch-Site`), and the body's `csrf` field matches the `ik_csrf` cookie.
 * Anything else must be refused with nothing changed.
 */
export function isTrustedFormPost(
  request: FastifyRequest,
  options: { secretKeys: readonly string[]; baseUrl: string },
): boolean {
  if (!isSameOriginRequest(request, options.baseUrl)) return false;
  const body = request.body;
  const token =
    typeof body === 'object' && body !== null ? (body as Record<string, unknown>).csrf : undefined;
  return isValidCsrfToken(request.cookies[csrfCookieName], token, options.secretKeys);
}

function isSameOriginRequest(request: FastifyRequest, baseUrl: string): boolean {
  const origin = request.headers.origin;
  // Under `Referrer-Policy: no-referrer` browsers send `Origin: null` even on our own form posts, so a
  // null or missing Origin decides nothing; Sec-Fetch-Site still tells same-origin from cross-site posts.
  // Old clients send neither and rely on the CSRF token alone.
  if (origin === undefined || origin === 'null') {
    const site = request.headers['sec-fetch-site'];
    return site === undefined || site === 'same-origin' || site === 'none';
  }
  // The configured public origin, or the host the browser addressed (e.g. 127.0.0.1 instead of localhost
  // in development): a foreign page cannot make a browser send either as its Origin.
  return origin === new URL(baseUrl).origin || origin === `${request.protocol}://${request.host}`;
}

/**
 * `next` if it is a path on this site, else `fallback`. The answer is judged after URL normalisation, as
 * the browser will read it: `/.//evil.example` and `/a/..//evil.example` normalise to `//evil.example`,
 * which a browser follows to another host, so only a normalised path starting with a single `/` passes.
 */
export function safeNextPath(next: unknown, fallback: string): string {
  if (typeof next !== 'string' || next.length === 0 || next.length > maxNextLength) return fallback;
  if (!next.startsWith('/')) return fallback;
  // Browsers read "\" as "/", and control characters are stripped before parsing: refuse both outright.
  for (const char of next) {
    const code = char.charCodeAt(0);
    if (char === '\\' || code < 0x20 || code === 0x7f) return fallback;
  }
  const probe = URL.parse(next, nextProbeBase);
  if (probe === null || probe.origin !== nextProbeBase) return fallback;
  const path = `${probe.pathname}${probe.search}${probe.hash}`;
  return path.startsWith('//') ? fallback : path;
}

/** A string field of a parsed form or query string; repeated or missing fields are undefined. */
export function formField(source: unknown, name: string): string | undefined {
  if (typeof source !== 'object' || source === null) return undefined;
  const value = (source as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}
