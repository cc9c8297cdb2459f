import { randomUUID } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import { allScopes, type IdentityUseCases, type Principal } from '@innkeep/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { errors } from 'oidc-provider';
import type { ConsentStore } from '../postgres/consents.ts';
import type { LoginThrottle } from '../postgres/login-throttle.ts';
import type { WebSessionStore } from '../postgres/web-sessions.ts';
import {
  canonicalResource,
  type ResourceScopes,
  resourceNames,
  resourceUrl,
  scopesUsedAt,
} from '../provider/resource.ts';
import { csrfTokenForForm, formField, isTrustedFormPost } from '../web/forms.ts';
import { securityHeaders } from '../web/security-headers.ts';
import { createBrowserSessions } from '../web/session.ts';
import { createSignInGuard } from '../web/sign-in-guard.ts';
import { accountSessionReason } from './account-session-check.ts';
import {
  consentScopes,
  renderConsentPage,
  renderFailurePage,
  renderInteractionLoginPage,
  renderStartAgainPage,
  renderSubUserPage,
} from './pages.ts';

/** What the sign-in and consent pages of an authorization need. */
export interface InteractionRoutesOptions {
  readonly provider: Provider;
  readonly identity: Pick<IdentityUseCases, 'verifyLogin' | 'findPrincipal'>;
  readonly consents: ConsentStore;
  readonly throttle: LoginThrottle;
  /** The account pages' sessions: one sign-in serves both. */
  readonly webSessions: WebSessionStore;
  readonly secretKeys: readonly string[];
  readonly baseUrl: string;
  /** The scopes each resource uses; what the app already holds is shown only among those. */
  readonly resourceScopes: ResourceScopes;
}

type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;
type UidRequest = FastifyRequest<{ Params: { uid: string } }>;

const htmlType = 'text/html; charset=utf-8';
// The sign-in and consent forms are a few hundred bytes (21 scopes at most); anything larger is not ours.
const formBodyLimit = 16 * 1024;
const subUserDenial =
  'Assistants connect to the account owner’s login; a team member cannot connect one to this account.';

/**
 * The pages between `/oauth/authorize` and the redirect back to the client, at `/oauth/interaction/:uid`:
 * sign-in (throttled, CSRF-checked), then consent with one checkbox per scope. Every page is plain HTML
 * that works without JavaScript, with security headers and `Cache-Control: no-store`.
 *
 * The interaction itself lives in PostgreSQL (oidc-provider's Interaction model), so each step may be
 * served by a different instance. Form posts stay under `/oauth/interaction/:uid/` because the
 * provider's interaction cookie is scoped to that path.
 */
export async function interactionRoutes(
  app: FastifyInstance,
  options: InteractionRoutesOptions,
): Promise<void> {
  const { provider, identity, consents, throttle, webSessions, secretKeys } = options;
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const basePath = new URL(baseUrl).pathname.replace(/\/+$/, '');
  const secureCookies = baseUrl.startsWith('https:');
  const formOptions = { secretKeys, baseUrl };
  const csrfOptions = { secretKeys, secureCookies };
  const sessions = createBrowserSessions(webSessions, secureCookies);
  const guard = createSignInGuard({ throttle, secretKeys, secureCookies });

  await app.register(fastifyCookie);
  await app.register(fastifyFormbody, { bodyLimit: formBodyLimit });
  await app.register(securityHeaders);

  app.setErrorHandler((error, request, reply) => {
    const reference = randomUUID();
    request.log.error({ err: error, reference }, 'An authorization page failed');
    return sendPage(reply, 500, renderFailurePage(reference));
  });

  const paths = (uid: string) => {
    const page = `${basePath}/oauth/interaction/${encodeURIComponent(uid)}`;
    return { page, login: `${page}/login`, confirm: `${page}/confirm`, abort: `${page}/abort` };
  };

  /** The interaction this browser is in, if it is the one the URL names and it has not expired. */
  async function interactionOf(request: UidRequest, reply: FastifyReply): Promise<Interaction | undefined> {
    try {
      const interaction = await provider.interactionDetails(request.raw, reply.raw);
      return interaction.uid === request.params.uid ? interaction : undefined;
    } catch (error) {
      if (error instanceof errors.SessionNotFound) return undefined;
      throw error;
    }
  }

  async function clientNameOf(interaction: Interaction): Promise<string> {
    const clientId = String(interaction.params.client_id);
    const client = await provider.Client.find(clientId);
    return client?.clientName ?? clientId;
  }

  async function finish(
    request: FastifyRequest,
    reply: FastifyReply,
    result: Parameters<Provider['interactionResult']>[2],
  ): Promise<string> {
    return provider.interactionResult(request.raw, reply.raw, result, { mergeWithLastSubmission: false });
  }

  async function showLogin(
    request: UidRequest,
    reply: FastifyReply,
    interaction: Interaction,
    status: number,
    form: { email?: string; error?: string } = {},
  ): Promise<FastifyReply> {
    const page = renderInteractionLoginPage({
      clientName: await clientNameOf(interaction),
      action: paths(interaction.uid).login,
      csrfToken: csrfTokenForForm(request, reply, csrfOptions),
      email: form.email,
      error: form.error,
    });
    return sendPage(reply, status, page);
  }

  async function showConsent(
    request: UidRequest,
    reply: FastifyReply,
    interaction: Interaction,
    principal: Principal,
    status: number,
    error?: string,
  ): Promise<FastifyReply> {
    const { asked, held } = await scopesOf(interaction);
    const allowedBefore = new Set<string>(
      await consents.allowedScopes(principal.userId, String(interaction.params.client_id)),
    );
    const page = renderConsentPage({
      clientName: await clientNameOf(interaction),
      redirectUri: String(interaction.params.redirect_uri ?? ''),
      signedInAs: principal.email,
      scopes: consentScopes(asked, held, allowedBefore),
      confirmAction: paths(interaction.uid).confirm,
      abortAction: paths(interaction.uid).abort,
      csrfToken: csrfTokenForForm(request, reply, csrfOptions),
      error,
    });
    return sendPage(reply, status, page);
  }

  /**
   * Requested scopes not yet decided (`asked`; the provider asks only for scopes the requested resources
   * use) and those the grant already holds on the requested resources and they use (`held`).
   */
  async function scopesOf(interaction: Interaction): Promise<{ asked: Set<string>; held: Set<string> }> {
    const asked = new Set(missingResourceScopes(interaction));
    const requested = String(interaction.params.scope ?? '').split(' ');
    // With no resource named, the provider asked for BASE_URL and every resource (see defaultResource).
    const named = interaction.params.resource;
    const resources =
      named === undefined
        ? [baseUrl, ...resourceNames.map((name) => resourceUrl(baseUrl, name))]
        : [named].flat().map((resource) => canonicalResource(String(resource)));
    const used = new Set<string>(
      resources.flatMap((resource) => scopesUsedAt(baseUrl, resource, options.resourceScopes) ?? []),
    );
    const grant =
      interaction.grantId === undefined ? undefined : await provider.Grant.find(interaction.grantId);
    const granted = new Set(resources.flatMap((resource) => grant?.resources?.[resource]?.split(' ') ?? []));
    const held = new Set(
      requested.filter((scope) => granted.has(scope) && used.has(scope) && !asked.has(scope)),
    );
    return { asked, held };
  }

  /** The sub-user page; the app learns `access_denied` when the person follows "Return to …". */
  async function refuseSubUser(
    request: FastifyRequest,
    reply: FastifyReply,
    interaction: Interaction,
    principal: Principal,
  ): Promise<FastifyReply> {
    const returnTo = await finish(request, reply, {
      error: 'access_denied',
      error_description: subUserDenial,
    });
    const page = renderSubUserPage({
      clientName: await clientNameOf(interaction),
      signedInAs: principal.email,
      returnTo,
    });
    return sendPage(reply, 403, page);
  }

  app.get<{ Params: { uid: string } }>('/oauth/interaction/:uid', async (request, reply) => {
    const interaction = await interactionOf(request, reply);
    if (interaction === undefined) return sendPage(reply, 400, renderStartAgainPage());
    if (interaction.prompt.name === 'login') {
      const returnTo = await continueSignedIn(request, reply, interaction);
      return returnTo === undefined
        ? showLogin(request, reply, interaction, 200)
        : reply.redirect(returnTo, 303);
    }
    if (interaction.prompt.name !== 'consent') return sendPage(reply, 400, renderStartAgainPage());
    const principal = await principalOf(interaction);
    if (principal === null) return sendPage(reply, 400, renderStartAgainPage());
    if (principal.role !== 'owner') return refuseSubUser(request, reply, interaction, principal);
    return showConsent(request, reply, interaction, principal, 200);
  });

  app.post<{ Params: { uid: string } }>('/oauth/interaction/:uid/login', async (request, reply) => {
    const interaction = await interactionOf(request, reply);
    if (interaction === undefined) return sendPage(reply, 400, renderStartAgainPage());
    if (interaction.prompt.name !== 'login') return reply.redirect(paths(interaction.uid).page, 303);
    const email = (formField(request.body, 'email') ?? '').trim().slice(0, 254);
    if (!isTrustedFormPost(request, formOptions)) {
      return showLogin(request, reply, interaction, 403, {
        email,
        error: 'This form expired or came from another site. Please sign in again.',
      });
    }
    const password = formField(request.body, 'password') ?? '';
    const outcome = await guard.run(request, email, () => identity.verifyLogin({ email, password }));
    if (outcome.kind === 'locked') {
      reply.header('retry-after', String(outcome.retryAfterSeconds));
      return showLogin(request, reply, interaction, 429, { email, error: outcome.message });
    }
    if (outcome.kind === 'failed') {
      return showLogin(request, reply, interaction, 401, {
        email,
        error: 'That email and password do not match an Innkeep login.',
      });
    }
    const principal = outcome.value;
    // A team member is not signed in at all: a session would send every later attempt in this browser
    // straight back to this refusal, with no way to sign in as the owner instead.
    if (principal.role !== 'owner') return refuseSubUser(request, reply, interaction, principal);
    // Signing in here signs the browser in to the account pages too: one sign-in for both.
    const session = await sessions.signIn(request, reply, principal.userId);
    guard.rememberDevice(reply, email);
    const returnTo = await finish(request, reply, {
      login: { accountId: principal.userId, remember: true, ts: epochSeconds(session.createdAt) },
    });
    return reply.redirect(returnTo, 303);
  });

  app.post<{ Params: { uid: string } }>('/oauth/interaction/:uid/confirm', async (request, reply) => {
    const interaction = await interactionOf(request, reply);
    if (interaction === undefined) return sendPage(reply, 400, renderStartAgainPage());
    if (interaction.prompt.name !== 'consent') return reply.redirect(paths(interaction.uid).page, 303);
    const principal = await principalOf(interaction);
    if (principal === null) return sendPage(reply, 400, renderStartAgainPage());
    if (!isTrustedFormPost(request, formOptions)) {
      return showConsent(
        request,
        reply,
        interaction,
        principal,
        403,
        'This form expired. Please decide again.',
      );
    }
    if (principal.role !== 'owner') return refuseSubUser(request, reply, interaction, principal);

    const chosen = chosenScopes(request.body);
    const missing = missingResourceScopes(interaction);
    if (missing.length > 0 && !missing.some((scope) => chosen.has(scope))) {
      return showConsent(
        request,
        reply,
        interaction,
        principal,
        400,
        'Tick at least one thing the app may do, or choose Deny.',
      );
    }

    const clientId = String(interaction.params.client_id);
    const existing =
      interaction.grantId === undefined ? undefined : await provider.Grant.find(interaction.grantId);
    const grant = existing ?? new provider.Grant({ accountId: principal.userId, clientId });
    const details = interaction.prompt.details;
    const missingOpenId = Array.isArray(details.missingOIDCScope) ? details.missingOIDCScope.map(String) : [];
    // openid and offline_access reveal nothing about the account (the subject id at most), so they come
    // with any approval instead of being asked about.
    if (missingOpenId.length > 0) grant.addOIDCScope(missingOpenId.join(' '));
    for (const [resource, scopes] of Object.entries(resourceScopeRequests(interaction))) {
      const allowed = scopes.filter((scope) => chosen.has(scope));
      const refused = scopes.filter((scope) => !chosen.has(scope));
      // Refused scopes must be recorded as refused, or the provider asks for them again in a loop.
      if (allowed.length > 0) grant.addResourceScope(resource, allowed.join(' '));
      if (refused.length > 0) grant.rejectResourceScope(resource, refused.join(' '));
    }
    const grantId = await grant.save();
    if (formField(request.body, 'remember') === 'yes')
      await consents.remember(principal.userId, clientId, grantId);
    const returnTo = await provider.interactionResult(
      request.raw,
      reply.raw,
      { consent: { grantId } },
      { mergeWithLastSubmission: true },
    );
    return reply.redirect(returnTo, 303);
  });

  app.post<{ Params: { uid: string } }>('/oauth/interaction/:uid/abort', async (request, reply) => {
    const interaction = await interactionOf(request, reply);
    if (interaction === undefined) return sendPage(reply, 400, renderStartAgainPage());
    if (!isTrustedFormPost(request, formOptions)) return reply.redirect(paths(interaction.uid).page, 303);
    const returnTo = await finish(request, reply, {
      error: 'access_denied',
      error_description: 'The person declined to connect the app.',
    });
    return reply.redirect(returnTo, 303);
  });

  /**
   * Finishes the login step with the owner this browser is already signed in as (on the account pages or
   * an earlier authorization) and returns where the provider continues; undefined when the form must be
   * shown instead: nobody or a team member is signed in, or the client or the provider asked for a fresh
   * sign-in (`prompt=login`, `max_age`, a hint naming someone else).
   */
  async function continueSignedIn(
    request: UidRequest,
    reply: FastifyReply,
    interaction: Interaction,
  ): Promise<string | undefined> {
    if (!interaction.prompt.reasons.every((reason) => sessionReasons.has(reason))) return undefined;
    const session = await sessions.current(request);
    const principal = session === null ? null : await identity.findPrincipal(session.userId);
    if (session === null || principal?.role !== 'owner') return undefined;
    // The time of the real sign-in, so the provider's auth_time tells the truth about it.
    return finish(request, reply, {
      login: { accountId: principal.userId, remember: true, ts: epochSeconds(session.createdAt) },
    });
  }

  async function principalOf(interaction: Interaction): Promise<Principal | null> {
    const userId = interaction.session?.accountId;
    return userId === undefined ? null : identity.findPrincipal(userId);
  }
}

/**
 * Why the provider asks for a sign-in when the browser's account session may answer it: the provider has
 * no session of its own, or its session is not that of the account session (see `accountSessionPolicy`).
 */
const sessionReasons: ReadonlySet<string> = new Set(['no_session', accountSessionReason]);

function epochSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

/** `{ [resource]: scopes }` the provider wants decided, restricted to scopes Innkeep knows. */
function resourceScopeRequests(interaction: Interaction): Record<string, string[]> {
  const raw = interaction.prompt.details.missingResourceScopes;
  if (typeof raw !== 'object' || raw === null) return {};
  const known = new Set<string>(allScopes);
  return Object.fromEntries(
    Object.entries(raw).map(([resource, scopes]) => [
      resource,
      (Array.isArray(scopes) ? scopes.map(String) : []).filter((scope) => known.has(scope)),
    ]),
  );
}

function missingResourceScopes(interaction: Interaction): string[] {
  return [...new Set(Object.values(resourceScopeRequests(interaction)).flat())];
}

function chosenScopes(body: unknown): Set<string> {
  if (typeof body !== 'object' || body === null) return new Set();
  const value = (body as Record<string, unknown>).scope;
  const list = Array.isArray(value) ? value : [value];
  return new Set(list.filter((scope): scope is string => typeof scope === 'string'));
}

function sendPage(reply: FastifyReply, status: number, page: string): FastifyReply {
  return reply.code(status).type(htmlType).send(page);
}
