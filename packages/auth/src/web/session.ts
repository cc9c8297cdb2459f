import type { FastifyReply, FastifyRequest } from 'fastify';
import { sessionLifetimeMs, type WebSession, type WebSessionStore } from '../postgres/web-sessions.ts';
import { cookieAttributes } from './forms.ts';
import { userAgentLabel } from './user-agent-label.ts';

/** Name of the cookie that carries a signed-in browser's session id (random, 256 bits; see WebSessionStore). */
export const sessionCookieName = 'ik_session';

/** The signed-in browser behind a request: the account pages' and the OAuth sign-in's one session. */
export interface BrowserSessions {
  readonly store: WebSessionStore;
  /** The live session the request's cookie names, or null. */
  current(request: FastifyRequest): Promise<WebSession | null>;
  /**
   * Signs the browser in as `userId`: ends the session its cookie named, if any, and sets a new random id,
   * so an id planted in the browser before sign-in (session fixation) never becomes a signed-in one.
   */
  signIn(request: FastifyRequest, reply: FastifyReply, userId: string): Promise<WebSession>;
  /** Ends the browser's session on every instance and clears its cookie. */
  signOut(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** Clears the session cookie, e.g. when it names a session that is over. */
  clearCookie(reply: FastifyReply): void;
}

/** Browser sessions over `store`; cookies are `Secure` when `secureCookies`. */
export function createBrowserSessions(store: WebSessionStore, secureCookies: boolean): BrowserSessions {
  return {
    store,

    current(request) {
      return store.find(request.cookies[sessionCookieName]);
    },

    async signIn(request, reply, userId) {
      await store.end(request.cookies[sessionCookieName]);
      const { sessionId, session } = await store.start(userId, {
        userAgent: userAgentLabel(request.headers['user-agent']),
        ipAddress: request.ip,
      });
      reply.setCookie(sessionCookieName, sessionId, {
        ...cookieAttributes(secureCookies),
        maxAge: sessionLifetimeMs / 1000,
      });
      return session;
    },

    async signOut(request, reply) {
      await store.end(request.cookies[sessionCookieName]);
      reply.clearCookie(sessionCookieName, cookieAttributes(secureCookies));
    },

    clearCookie(reply) {
      reply.clearCookie(sessionCookieName, cookieAttributes(secureCookies));
    },
  };
}
