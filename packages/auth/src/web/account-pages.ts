import { randomUUID } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import {
  actorFromPrincipal,
  type Clock,
  DomainError,
  errorCatalogue,
  type IdentityUseCases,
  type Principal,
} from '@innkeep/domain';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { disconnectApp, listConnectedApps } from '../postgres/connected-apps.ts';
import type { AuthDatabase } from '../postgres/database.ts';
import { createLoginThrottle, loginThrottleKeys } from '../postgres/login-throttle.ts';
import {
  renderConnectedAppsPage,
  renderMessagePage,
  renderSettingsPage,
  renderSignInPage,
} from './account-views.ts';
import { cookieAttributes, csrfTokenForForm, formField, isTrustedFormPost, safeNextPath } from './forms.ts';
import { securityHeaders } from './security-headers.ts';
import {
  newWebSession,
  sessionCookieName,
  sessionLifetimeMs,
  signSession,
  verifySession,
} from './session.ts';
import { innkeepStylesheet } from './stylesheet.ts';

/** What the account pages are built from. */
export interface AccountPagesOptions {
  readonly db: Kysely<AuthDatabase>;
  readonly identity: IdentityUseCases;
  /** Session and CSRF keys, each at least 32 characters: the first signs, all verify (rotate by prepending). */
  readonly secretKeys: readonly string[];
  /** The public URL of the service, e.g. `https://innkeep.example`; form posts must come from its origin. */
  readonly baseUrl: string;
  readonly clock: Clock;
  /** Mark cookies `Secure`; defaults to true when `baseUrl` is https. */
  readonly secureCookies?: boolean;
}

const defaultNext = '/settings';
// Sign-in and settings forms are a few hundred bytes; a bigger body is not one of ours.
const formBodyLimit = 16 * 1024;
const grantIdPattern = /^[A-Za-z0-9_-]{1,128}$/;
const htmlType = 'text/html; charset=utf-8';

function sendPage(reply: FastifyReply, status: number, page: string): FastifyReply {
  return reply.code(status).type(htmlType).send(page);
}

async function registerAccountPages(app: FastifyInstance, options: AccountPagesOptions): Promise<void> {
  const { db, identity, clock, secretKeys } = options;
  if (secretKeys.length === 0 || secretKeys.some((key) => key.length < 32)) {
    throw new Error('accountPages needs at least one secret key, each at least 32 characters long');
  }
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const secureCookies = options.secureCookies ?? baseUrl.startsWith('https:');
  const throttle = createLoginThrottle(db, clock);
  const formOptions = { secretKeys, baseUrl };
  const csrfOptions = { secretKeys, secureCookies };

  // The app may already have these for other routes; registering them twice would fail.
  if (!app.hasReplyDecorator('setCookie')) await app.register(fastifyCookie);
  if (!app.hasContentTypeParser('application/x-www-form-urlencoded')) await app.register(fastifyFormbody);
  await app.register(securityHeaders);

  /** The signed-in principal, re-read on every request so a deleted user is signed out at once. */
  async function signedIn(request: FastifyRequest, reply: FastifyReply): Promise<Principal | null> {
    const cookie = request.cookies[sessionCookieName];
    if (cookie === undefined) return null;
    const session = verifySession(cookie, secretKeys, clock.now());
    const principal = session === null ? null : await identity.findPrincipal(session.userId);
    if (principal === null) reply.clearCookie(sessionCookieName, cookieAttributes(secureCookies));
    return principal;
  }

  function toSignIn(reply: FastifyReply, next: string): FastifyReply {
    return reply.redirect(`/login?next=${encodeURIComponent(safeNextPath(next, defaultNext))}`, 303);
  }

  function refuseForm(reply: FastifyReply): FastifyReply {
    return sendPage(
      reply,
      403,
      renderMessagePage({
        title: 'Form refused',
        message:
          'This form has expired or was sent from another site, so nothing was changed. Go back, reload the page and try again.',
        link: { href: '/settings', label: 'Back to settings' },
      }),
    );
  }

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof DomainError) {
      return sendPage(
        reply,
        errorCatalogue[error.code].httpStatus,
        renderMessagePage({
          title: 'That did not work',
          message: error.message,
          link: { href: '/settings', label: 'Back to settings' },
        }),
      );
    }
    const statusCode =
      typeof error === 'object' && error !== null && 'statusCode' in error ? Number(error.statusCode) : 500;
    if (statusCode >= 400 && statusCode < 500) {
      return sendPage(
        reply,
        statusCode,
        renderMessagePage({
          title: 'Request not understood',
          message: 'The page could not read what was sent. Go back and try again.',
        }),
      );
    }
    const reference = randomUUID();
    request.log.error({ err: error, reference }, 'Account page failed');
    return sendPage(
      reply,
      500,
      renderMessagePage({
        title: 'Something went wrong',
        message: `Something went wrong on our side. Please try again; if it keeps happening, tell support this reference: ${reference}.`,
      }),
    );
  });

  app.get('/assets/innkeep.css', async (_request, reply) => {
    return reply
      .type('text/css; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .header('x-content-type-options', 'nosniff')
      .send(innkeepStylesheet);
  });

  app.get('/login', async (request, reply) => {
    const next = safeNextPath(formField(request.query, 'next'), defaultNext);
    if ((await signedIn(request, reply)) !== null) return reply.redirect(next, 303);
    const notice = formField(request.query, 'signed_out') === '1' ? 'You are signed out.' : undefined;
    return sendPage(
      reply,
      200,
      renderSignInPage({
        action: loginAction(next),
        csrfToken: csrfTokenForForm(request, reply, csrfOptions),
        notice,
      }),
    );
  });

  app.post('/login', { bodyLimit: formBodyLimit }, async (request, reply) => {
    if (!isTrustedFormPost(request, formOptions)) return refuseForm(reply);
    const next = safeNextPath(formField(request.query, 'next'), defaultNext);
    const email = (formField(request.body, 'email') ?? '').trim().slice(0, 254);
    const password = formField(request.body, 'password') ?? '';
    const retry = (status: number, error: string) =>
      sendPage(
        reply,
        status,
        renderSignInPage({
          action: loginAction(next),
          csrfToken: csrfTokenForForm(request, reply, csrfOptions),
          email,
          error,
        }),
      );
    if (email === '' || password === '') return retry(400, 'Enter your email and your password.');

    const keys = loginThrottleKeys({ email, ip: request.ip });
    try {
      await throttle.assertAllowed(keys);
    } catch (error) {
      if (!(error instanceof DomainError) || error.code !== 'rate_limited') throw error;
      reply.header('retry-after', String(error.details?.retryAfterSeconds ?? 900));
      return retry(429, error.message);
    }
    const principal = await identity.verifyLogin({ email, password });
    if (principal === null) {
      await throttle.recordFailure(keys);
      // One message for an unknown email and a wrong password, so the form reveals no accounts.
      return retry(401, 'The email or password is wrong.');
    }
    // Only the email's count: clearing the address's would let a valid account reset a password sprayer.
    await throttle.reset(keys.slice(0, 1));
    const session = signSession(newWebSession(principal.userId, clock.now()), secretKeys);
    reply.setCookie(sessionCookieName, session, {
      ...cookieAttributes(secureCookies),
      maxAge: sessionLifetimeMs / 1000,
    });
    return reply.redirect(next, 303);
  });

  app.post('/logout', { bodyLimit: formBodyLimit }, async (request, reply) => {
    if (!isTrustedFormPost(request, formOptions)) return refuseForm(reply);
    reply.clearCookie(sessionCookieName, cookieAttributes(secureCookies));
    return reply.redirect('/login?signed_out=1', 303);
  });

  app.get('/settings', async (request, reply) => {
    const principal = await signedIn(request, reply);
    if (principal === null) return toSignIn(reply, request.url);
    const profile = await identity.getUser(actorFromPrincipal(principal, 'web', null));
    return sendPage(
      reply,
      200,
      renderSettingsPage({ profile, baseUrl, csrfToken: csrfTokenForForm(request, reply, csrfOptions) }),
    );
  });

  app.post('/settings/auth-token', { bodyLimit: formBodyLimit }, async (request, reply) => {
    if (!isTrustedFormPost(request, formOptions)) return refuseForm(reply);
    const principal = await signedIn(request, reply);
    if (principal === null) return toSignIn(reply, '/settings');
    const actor = actorFromPrincipal(principal, 'web', null);
    const issued = await identity.rotateAuthToken(actor);
    const profile = await identity.getUser(actor);
    // Rendered in this response rather than after a redirect: the token must never travel in a URL,
    // and nothing but this one page ever shows it.
    return sendPage(
      reply,
      200,
      renderSettingsPage({
        profile,
        baseUrl,
        issued,
        csrfToken: csrfTokenForForm(request, reply, csrfOptions),
      }),
    );
  });

  app.get('/settings/apps', async (request, reply) => {
    const principal = await signedIn(request, reply);
    if (principal === null) return toSignIn(reply, request.url);
    const profile = await identity.getUser(actorFromPrincipal(principal, 'web', null));
    const apps = await listConnectedApps(db, principal.userId, { now: clock.now() });
    const notice =
      formField(request.query, 'disconnected') === '1'
        ? 'The assistant was disconnected; its access ended at once. To use it again, connect it anew from the assistant.'
        : undefined;
    return sendPage(
      reply,
      200,
      renderConnectedAppsPage({
        profile,
        apps,
        notice,
        csrfToken: csrfTokenForForm(request, reply, csrfOptions),
      }),
    );
  });

  app.post('/settings/apps/:grantId/disconnect', { bodyLimit: formBodyLimit }, async (request, reply) => {
    if (!isTrustedFormPost(request, formOptions)) return refuseForm(reply);
    const principal = await signedIn(request, reply);
    if (principal === null) return toSignIn(reply, '/settings/apps');
    const grantId = formField(request.params, 'grantId') ?? '';
    if (!grantIdPattern.test(grantId)) {
      throw new DomainError(
        'not_found',
        `No connected assistant with id ${grantId.slice(0, 128)} for this user.`,
      );
    }
    await disconnectApp(db, principal.userId, grantId);
    return reply.redirect('/settings/apps?disconnected=1', 303);
  });
}

function loginAction(next: string): string {
  return next === defaultNext ? '/login' : `/login?next=${encodeURIComponent(next)}`;
}

/**
 * Fastify plugin serving the account's own web pages — sign-in and sign-out, settings (profile, account,
 * subscription, auth token) and connected assistants — as plain HTML forms without scripts. Sessions are a
 * signed `ik_session` cookie valid on every instance; every form carries a CSRF token and is refused when
 * posted from another site; failed sign-ins are throttled per email and per address.
 */
export const accountPages: FastifyPluginAsync<AccountPagesOptions> = registerAccountPages;
