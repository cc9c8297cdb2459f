import { interactionPolicy, type KoaContextWithOIDC } from 'oidc-provider';
import type { WebSessionStore } from '../postgres/web-sessions.ts';
import { sessionCookieName } from '../web/session.ts';

/** The login prompt's reason when the browser's account session does not back the provider's session. */
export const accountSessionReason = 'no_account_session';

/**
 * oidc-provider's default interaction policy plus one login check: the provider's own session (kept for
 * its own bookkeeping) counts only while the browser's Innkeep session is live and for the same account.
 * So the account session is the one sign-in: signing out on /logout, "Sign out other sessions", a
 * password change or the session's expiry also stop authorizations from going through without a sign-in;
 * the interaction page then signs the browser in again, from a live account session or with the form.
 */
export function accountSessionPolicy(webSessions: WebSessionStore): interactionPolicy.DefaultPolicy {
  const policy = interactionPolicy.base();
  const login = policy.get('login');
  if (login === undefined) throw new Error('oidc-provider’s base policy has no login prompt');
  login.checks.add(
    new interactionPolicy.Check(
      accountSessionReason,
      'End-User authentication is required',
      async (ctx: KoaContextWithOIDC) => {
        // The person has just signed in during this authorization; its session cookie is on its way.
        if (ctx.oidc.result?.login !== undefined) return interactionPolicy.Check.NO_NEED_TO_PROMPT;
        // Our cookie is random and unsigned; the provider's cookie jar would otherwise look for a signature.
        const session = await webSessions.find(ctx.cookies.get(sessionCookieName, { signed: false }));
        return session !== null && session.userId === ctx.oidc.session?.accountId
          ? interactionPolicy.Check.NO_NEED_TO_PROMPT
          : interactionPolicy.Check.REQUEST_PROMPT;
      },
    ),
  );
  return policy;
}
