import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import {
  actorFromPrincipal,
  type Clock,
  DomainError,
  errorCatalogue,
  type IdentityUseCases,
  type IssuedAuthToken,
  type ListingUseCases,
  type Principal,
  passwordSchema,
  reportInternalFailure,
} from '@innkeep/domain';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { logRequestAs } from '../http/request-log.ts';
import { disconnectApp, listConnectedApps } from '../postgres/connected-apps.ts';
import type { AuthDatabase } from '../postgres/database.ts';
import { createLoginThrottle } from '../postgres/login-throttle.ts';
import {
  endOtherProviderSessions,
  endProviderSession,
  providerSessionCookieName,
} from '../postgres/provider-sessions.ts';
import { createWebSessionStore, type WebSession } from '../postgres/web-sessions.ts';
import {
  renderConnectedAppsPage,
  renderMessagePage,
  renderReplaceAuthTokenPage,
  renderSettingsPage,
  renderSignInPage,
} from './account-views.ts';
import { innkeepScript } from './copy-button.ts';
import { csrfTokenForForm, formField, isTrustedFormPost, safeNextPath } from './forms.ts';
import { type HomePagesOptions, registerHomePages } from './home-pages.ts';
import { registerListingPages } from './listing-pages.ts';
import { securityHeaders } from './security-headers.ts';
import { createBrowserSessions, sessionCookieName } from './session.ts';
import { createSignInGuard } from './sign-in-guard.ts';
import type { ServedPages } from './site-nav.ts';
import { innkeepStylesheet } from './stylesheet.ts';
import { type AccountPageContext, registerWebhookPages, type WebhookPagesOptions } from './webhook-pages.ts';

/** What the account pages are built from. */
export interface AccountPagesOptions {
  readonly db: Kysely<AuthDatabase>;
  readonly identity: IdentityUseCases;
  /** CSRF and known-device keys, each at least 32 characters: the first signs, all verify (rotate by prepending). */
  readonly secretKeys: readonly string[];
  /** The public URL of the service, e.g. `https://innkeep.example`; form posts must come from its origin. */
  readonly baseUrl: string;
  readonly clock: Clock;
  /** Mark cookies `Secure`; defaults to true when `baseUrl` is https. */
  readonly secureCookies?: boolean;
  /** The use cases behind the webhooks page; without them, /settings/webhooks is not served. */
  readonly webhooks?: WebhookPagesOptions | undefined;
  /** The domain's listings, behind /listings and each listing's channel calendars; without them, not served. */
  readonly listings?: ListingUseCases | undefined;
  /** The audit log behind the home page's dashboard; without it, / is not served. */
  readonly home?: HomePagesOptions | undefined;
}

const defaultNext = '/settings';
// Sign-in and settings forms are a few hundred bytes; a bigger body is not one of ours.
const formBodyLimit = 16 * 1024;
const grantIdPattern = /^[A-Za-z0-9_-]{1,128}$/;
const settingsNotices: Readonly<Record<string, string>> = {
  others_signed_out: 'Every other browser is signed out.',
  password_changed: 'Your password is changed, and every other browser is signed out.',
};
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
  const sessions = createBrowserSessions(createWebSessionStore(db, clock), secureCookies);
  const guard = createSignInGuard({ throttle: createLoginThrottle(db, clock), secretKeys, secureCookies });
  const formOptions = { secretKeys, baseUrl };
  const csrfOptions = { secretKeys, secureCookies };
  const served: ServedPages = {
    home: options.home !== undefined,
    webhooks: options.webhooks !== undefined,
    listings: options.listings !== undefined,
  };

  // The app may already have these for other routes; registering them twice would fail.
  if (!app.hasReplyDecorator('setCookie')) await app.register(fastifyCookie);
  if (!app.hasContentTypeParser('application/x-www-form-urlencoded')) await app.register(fastifyFormbody);
  await app.register(securityHeaders);

  /**
   * The signed-in principal and its session, re-read on every request so that a session ended on any
   * instance, or a deleted user, is signed out at once.
   */
  async function signedIn(
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<{ principal: Principal; session: WebSession } | null> {
    if (request.cookies[sessionCookieName] === undefined) return null;
    const session = await sessions.current(request);
    const principal = session === null ? null : await identity.findPrincipal(session.userId);
    if (session === null || principal === null) {
      sessions.clearCookie(reply);
      return null;
    }
    logRequestAs(request, reply, { accountId: principal.accountId, userId: principal.userId });
    return { principal, session };
  }

  /**
   * Ends the browser's session at the authorization server as well, so the next authorization cannot
   * carry on under whoever was signed in there before.
   */
  async function endBrowserProviderSession(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    await endProviderSession(db, request.cookies[providerSessionCookieName]);
    for (const name of [providerSessionCookieName, `${providerSessionCookieName}.sig`]) {
      if (request.cookies[name] !== undefined) reply.clearCookie(name, { path: '/' });
    }
  }

  async function renderSettings(
    request: FastifyRequest,
    reply: FastifyReply,
    signedInAs: { principal: Principal; session: WebSession },
    extra: { issued?: IssuedAuthToken; notice?: string | undefined; passwordError?: string } = {},
  ): Promise<string> {
    const { principal, session } = signedInAs;
    const profile = await identity.getUser(actorFromPrincipal(principal, 'web', null));
    return renderSettingsPage({
      profile,
      baseUrl,
      sessions: await sessions.store.listForUser(principal.userId),
      currentIdHash: session.idHash,
      csrfToken: csrfTokenForForm(request, reply, csrfOptions),
      served,
      ...extra,
    });
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
    // People read a page, not a model: the page's own words, with the reference every adapter uses.
    const { reference } = reportInternalFailure(error, (failureReference, cause) =>
      request.log.error({ err: cause, reference: failureReference }, 'Account page failed'),
    );
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

  app.get('/assets/innkeep.js', async (_request, reply) => {
    return reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .header('x-content-type-options', 'nosniff')
      .send(innkeepScript);
  });

  app.get('/login', async (request, reply) => {
    const next = safeNextPath(formField(request.query, 'next'), defaultNext);
    if ((await signedIn(request, reply)) !== null) return reply.redirect(next, 303);
    const notice = formField(request.query, 'signed_out') === '1' ? 'You are signed out.' : undefined;
    return sendPage(
      reply,
      200,
      renderSignInPage(
        { action: loginAction(next), csrfToken: csrfTokenForForm(request, reply, csrfOptions), notice },
        served,
      ),
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
        renderSignInPage(
          {
            action: loginAction(next),
            csrfToken: csrfTokenForForm(request, reply, csrfOptions),
            email,
            error,
          },
          served,
        ),
      );
    if (email === '' || password === '') return retry(400, 'Enter your email and your password.');

    const outcome = await guard.run(request, email, () => identity.verifyLogin({ email, password }));
    if (outcome.kind === 'locked') {
      reply.header('retry-after', String(outcome.retryAfterSeconds));
      return retry(429, outcome.message);
    }
    // One message for an unknown email and a wrong password, so the form reveals no accounts.
    if (outcome.kind === 'failed') return retry(401, 'The email or password is wrong.');
    await endBrowserProviderSession(request, reply);
    await sessions.signIn(request, reply, outcome.value.userId);
    guard.rememberDevice(reply, email);
    return reply.redirect(next, 303);
  });

  app.post('/logout', { bodyLimit: formBodyLimit }, async (request, reply) => {
    if (!isTrustedFormPost(request, formOptions)) return refuseForm(reply);
    await endBrowserProviderSession(request, reply);
    await sessions.signOut(request, reply);
    return reply.redirect('/login?signed_out=1', 303);
  });

  app.get('/settings', async (request, reply) => {
    const signedInAs = await signedIn(request, reply);
    if (signedInAs === null) return toSignIn(reply, request.url);
    const noticeKey = formField(request.query, 'done') ?? '';
    const page = await renderSettings(request, reply, signedInAs, { notice: settingsNotices[noticeKey] });
    return sendPage(reply, 200, page);
  });

  app.post('/settings/sessions/sign-out-others', { bodyLimit: formBodyLimit }, async (request, reply) => {
    if (!isTrustedFormPost(request, formOptions)) return refuseForm(reply);
    const signedInAs = await signedIn(request, reply);
    if (signedInAs === null) return toSignIn(reply, '/settings');
    await signOutOtherBrowsers(request, signedInAs);
    return reply.redirect('/settings?done=others_signed_out#sessions', 303);
  });

  /** Ends every session of the user but this browser's, here and at the authorization server. */
  async function signOutOtherBrowsers(
    request: FastifyRequest,
    { principal, session }: { principal: Principal; session: WebSession },
  ): Promise<void> {
    await sessions.store.endOthers(principal.userId, session.idHash);
    await endOtherProviderSessions(db, principal.userId, request.cookies[providerSessionCookieName]);
  }

  app.post('/settings/password', { bodyLimit: formBodyLimit }, async (request, reply) => {
    if (!isTrustedFormPost(request, formOptions)) return refuseForm(reply);
    const signedInAs = await signedIn(request, reply);
    if (signedInAs === null) return toSignIn(reply, '/settings');
    const { principal } = signedInAs;
    const currentPassword = formField(request.body, 'current_password') ?? '';
    const newPassword = formField(request.body, 'new_password') ?? '';
    const again = async (status: number, passwordError: string) =>
      sendPage(reply, status, await renderSettings(request, reply, signedInAs, { passwordError }));

    if (currentPassword === '') return again(400, 'Enter your current password.');
    const rule = passwordSchema.safeParse(newPassword);
    if (!rule.success) return again(400, rule.error.issues[0]?.message ?? 'Choose another new password.');
    if (newPassword !== formField(request.body, 'confirm_password')) {
      return again(400, 'The two new passwords differ. Type the same new password twice.');
    }
    if (newPassword === currentPassword)
      return again(400, 'The new password must differ from the current one.');
    const actor = actorFromPrincipal(principal, 'web', null);
    // The current password is guessed like a sign-in: a browser left signed in must not become a way
    // around the sign-in throttle.
    const outcome = await guard.run(request, principal.email, async () => {
      try {
        await identity.changePassword(actor, { currentPassword, newPassword });
        return true;
      } catch (error) {
        if (error instanceof DomainError && error.code === 'permission_denied') return null;
        throw error;
      }
    });
    if (outcome.kind === 'locked') {
      reply.header('retry-after', String(outcome.retryAfterSeconds));
      return again(429, outcome.message);
    }
    if (outcome.kind === 'failed')
      return again(403, 'The current password is not correct; nothing was changed.');
    await signOutOtherBrowsers(request, signedInAs);
    return reply.redirect('/settings?done=password_changed', 303);
  });

  app.post('/settings/auth-token', { bodyLimit: formBodyLimit }, async (request, reply) => {
    if (!isTrustedFormPost(request, formOptions)) return refuseForm(reply);
    const signedInAs = await signedIn(request, reply);
    if (signedInAs === null) return toSignIn(reply, '/settings');
    const actor = actorFromPrincipal(signedInAs.principal, 'web', null);
    // A token in use is replaced only from the confirmation page, never by a stray or replayed first click.
    const hasToken = (await identity.getUser(actor)).authToken !== null;
    if (hasToken && formField(request.body, 'replace') !== 'yes') {
      return reply.redirect('/settings/auth-token/replace', 303);
    }
    const issued = await identity.rotateAuthToken(actor);
    // Rendered in this response rather than after a redirect: the token must never travel in a URL,
    // and nothing but this one page ever shows it.
    return sendPage(reply, 200, await renderSettings(request, reply, signedInAs, { issued }));
  });

  app.get('/settings/auth-token/replace', async (request, reply) => {
    const signedInAs = await signedIn(request, reply);
    if (signedInAs === null) return toSignIn(reply, request.url);
    const profile = await identity.getUser(actorFromPrincipal(signedInAs.principal, 'web', null));
    // With no token to replace, the settings page's own button makes the first one.
    if (profile.authToken === null) return reply.redirect('/settings#auth-token', 303);
    const csrfToken = csrfTokenForForm(request, reply, csrfOptions);
    return sendPage(reply, 200, renderReplaceAuthTokenPage({ profile, csrfToken, served }));
  });

  app.get('/settings/apps', async (request, reply) => {
    const principal = (await signedIn(request, reply))?.principal ?? null;
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
        served,
      }),
    );
  });

  app.post('/settings/apps/:grantId/disconnect', { bodyLimit: formBodyLimit }, async (request, reply) => {
    if (!isTrustedFormPost(request, formOptions)) return refuseForm(reply);
    const principal = (await signedIn(request, reply))?.principal ?? null;
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

  const pageContext: AccountPageContext = {
    signedIn: async (request, reply) => (await signedIn(request, reply))?.principal ?? null,
    toSignIn,
    isTrustedFormPost: (request) => isTrustedFormPost(request, formOptions),
    refuseForm,
    csrfToken: (request, reply) => csrfTokenForForm(request, reply, csrfOptions),
    sendPage,
    served,
  };
  if (options.webhooks !== undefined) registerWebhookPages(app, options.webhooks, pageContext);
  if (options.listings !== undefined)
    registerListingPages(app, { listings: options.listings, baseUrl }, pageContext);
  if (options.home !== undefined) {
    registerHomePages(
      app,
      options.home,
      {
        identity,
        connectedApps: (userId) => listConnectedApps(db, userId, { now: clock.now() }),
        baseUrl,
        webhookPages: options.webhooks !== undefined,
      },
      pageContext,
    );
  }
}

function loginAction(next: string): string {
  return next === defaultNext ? '/login' : `/login?next=${encodeURIComponent(next)}`;
}

/**
 * Fastify plugin serving the account's own web pages — sign-in and sign-out, settings (profile, account,
 * subscription, signed-in browsers, password, auth token), connected assistants, given `webhooks`, the
 * webhooks page (subscriptions, their delivery logs, tests and secrets), given `listings`, the listings and
 * each listing's channel calendars (export URLs to give channels, channels' calendars to import) and, given
 * `home`, the home page at `/` (a welcome when signed out, the dashboard with the account's activity when
 * signed in) — as plain HTML forms that work without scripts (one script of our own only adds copy
 * buttons). Sessions are rows in `web_sessions` named by a random `ik_session` cookie, shared with the OAuth
 * sign-in and ended on every instance by signing out; every form carries a CSRF token
 * and is refused when posted from another site; failed sign-ins are throttled (see `loginThrottlePolicy`).
 */
export const accountPages: FastifyPluginAsync<AccountPagesOptions> = registerAccountPages;
