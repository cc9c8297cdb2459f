import { randomBytes } from 'node:crypto';
import type { Clock } from '@innkeep/domain';
import type { Kysely } from 'kysely';
import type { AuthDatabase, WebSessionsTable } from './database.ts';
import { tokenDigest } from './token-hash.ts';

/** How long a session lasts after signing in, however active: a working day, then the person signs in again. */
export const sessionLifetimeMs = 12 * 60 * 60 * 1000;
/** A session nobody used for this long is over, so a browser left signed in does not stay so all day. */
export const sessionIdleTimeoutMs = 2 * 60 * 60 * 1000;
// `last_seen_at` only has to be right to the minute for the idle timeout and the settings page, so it is
// written at most once a minute per session instead of on every request.
const lastSeenResolutionMs = 60 * 1000;
// 32 random bytes as base64url: 43 characters.
const sessionIdPattern = /^[A-Za-z0-9_-]{43}$/;

/** A live session as the settings page shows it. The raw id is never part of it. */
export interface WebSession {
  /** SHA-256 of the session id: names the session without being able to act as it. */
  readonly idHash: string;
  readonly userId: string;
  readonly createdAt: Date;
  readonly lastSeenAt: Date;
  readonly expiresAt: Date;
  readonly userAgent: string;
  readonly ipAddress: string;
}

/** Where a sign-in came from, as the settings page shows it later. */
export interface SessionOrigin {
  /** A short browser label, e.g. "Firefox on Windows". */
  readonly userAgent: string;
  readonly ipAddress: string;
}

/**
 * The signed-in browsers of every instance, in the `web_sessions` table.
 *
 * Hand-written rather than `@fastify/session`: that plugin's store is a get/set/destroy map from the raw
 * id to a serialised session, while the settings page needs to list a user's sessions and end all but
 * one, the ids must be stored hashed, and activity is recorded at most once a minute. Those queries are
 * the whole of this store, so the plugin would add a second cookie format without removing any of them.
 */
export interface WebSessionStore {
  /** Starts a session for `userId`; returns the random id for the cookie (never stored) and the session. */
  start(userId: string, origin: SessionOrigin): Promise<{ sessionId: string; session: WebSession }>;
  /**
   * The live session `sessionId` names, or null when it is malformed, unknown, ended, past its absolute
   * lifetime or idle too long. Records the activity, at most once a minute.
   */
  find(sessionId: string | undefined): Promise<WebSession | null>;
  /** Ends the session `sessionId` names, if any. */
  end(sessionId: string | undefined): Promise<void>;
  /** The user's live sessions, most recently used first. */
  listForUser(userId: string): Promise<WebSession[]>;
  /** Ends every session of `userId` except the one with `keepIdHash`; returns how many ended. */
  endOthers(userId: string, keepIdHash: string): Promise<number>;
}

/** The session store over `web_sessions`; `clock` decides what "now" is. */
export function createWebSessionStore(db: Kysely<AuthDatabase>, clock: Clock): WebSessionStore {
  const liveSessions = (now: Date) =>
    db
      .selectFrom('web_sessions')
      .selectAll()
      .where('expires_at', '>', now)
      .where('last_seen_at', '>', new Date(now.getTime() - sessionIdleTimeoutMs));

  return {
    async start(userId, origin) {
      const now = clock.now();
      const sessionId = randomBytes(32).toString('base64url');
      const row = {
        id_hash: tokenDigest(sessionId),
        user_id: userId,
        created_at: now,
        last_seen_at: now,
        expires_at: new Date(now.getTime() + sessionLifetimeMs),
        user_agent: origin.userAgent.slice(0, 100),
        ip_address: origin.ipAddress.slice(0, 64),
      };
      // Rows of the user's finished sessions go when a new one starts, so no sweeper job is needed.
      await db
        .deleteFrom('web_sessions')
        .where('user_id', '=', userId)
        .where((eb) =>
          eb.or([
            eb('expires_at', '<=', now),
            eb('last_seen_at', '<=', new Date(now.getTime() - sessionIdleTimeoutMs)),
          ]),
        )
        .execute();
      await db.insertInto('web_sessions').values(row).execute();
      return { sessionId, session: toSession(row) };
    },

    async find(sessionId) {
      if (sessionId === undefined || !sessionIdPattern.test(sessionId)) return null;
      const now = clock.now();
      const idHash = tokenDigest(sessionId);
      const row = await liveSessions(now).where('id_hash', '=', idHash).executeTakeFirst();
      if (row === undefined) return null;
      if (now.getTime() - row.last_seen_at.getTime() < lastSeenResolutionMs) return toSession(row);
      await db
        .updateTable('web_sessions')
        .set({ last_seen_at: now })
        .where('id_hash', '=', idHash)
        .where('last_seen_at', '<', now)
        .execute();
      return toSession({ ...row, last_seen_at: now });
    },

    async end(sessionId) {
      if (sessionId === undefined || !sessionIdPattern.test(sessionId)) return;
      await db.deleteFrom('web_sessions').where('id_hash', '=', tokenDigest(sessionId)).execute();
    },

    async listForUser(userId) {
      const rows = await liveSessions(clock.now())
        .where('user_id', '=', userId)
        .orderBy('last_seen_at', 'desc')
        .orderBy('created_at', 'desc')
        .execute();
      return rows.map(toSession);
    },

    async endOthers(userId, keepIdHash) {
      const result = await db
        .deleteFrom('web_sessions')
        .where('user_id', '=', userId)
        .where('id_hash', '<>', keepIdHash)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

function toSession(row: WebSessionsTable): WebSession {
  return {
    idHash: row.id_hash,
    userId: row.user_id,
    createdAt: row.created_at,
    lastSeenAt: row.last_seen_at,
    expiresAt: row.expires_at,
    userAgent: row.user_agent,
    ipAddress: row.ip_address,
  };
}
