import { allScopes, DomainError, type Scope } from '@innkeep/domain';
import { type Kysely, sql } from 'kysely';
import type { AuthDatabase } from './database.ts';

/** An assistant (OAuth client) a user has connected, as the settings page lists it. */
export interface ConnectedApp {
  /** The oidc-provider Grant id; what {@link disconnectApp} takes. */
  readonly grantId: string;
  readonly clientId: string;
  /** The client's registered `client_name`, or its id when it gave none. Client-supplied: escape it. */
  readonly clientName: string;
  /**
   * Where the client registered to be sent back after sign-in (its `redirect_uris`), which tells two
   * registrations of one app apart (a desktop app's loopback port, a web app's site). Client-supplied:
   * escape them. Empty when the client's registration is not stored here.
   */
  readonly redirectUris: readonly string[];
  /** What the grant allows, in catalogue order. */
  readonly scopes: readonly Scope[];
  /** When the user approved it, ISO 8601 UTC. */
  readonly connectedAt: string;
  /** When one of its tokens was last used, ISO 8601 UTC; null when never. */
  readonly lastUsedAt: string | null;
}

// A person connects a handful of assistants; the cap keeps a runaway client from making the page unbounded.
const maxListedApps = 200;

// Client names come from dynamic registration; an empty one would leave a blank row on the page.
function displayName(clientName: string | null, clientId: string): string {
  return clientName === null || clientName.trim() === '' ? clientId : clientName;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function scopeWords(value: unknown): string[] {
  return typeof value === 'string' ? value.split(' ').filter((word) => word.length > 0) : [];
}

/**
 * The scopes an oidc-provider 9 Grant payload allows: `openid.scope` and each `resources[<resource>]`
 * (space-separated), minus what `rejected` holds for the same place. OIDC-only words such as `openid`
 * and `offline_access` are not Innkeep scopes and are left out.
 */
export function grantedScopes(payload: Record<string, unknown>): Scope[] {
  const rejected = isRecord(payload.rejected) ? payload.rejected : {};
  const granted = new Set<string>();
  const addAllowed = (allowed: unknown, refused: unknown) => {
    const refusedWords = new Set(scopeWords(refused));
    for (const word of scopeWords(allowed)) if (!refusedWords.has(word)) granted.add(word);
  };
  const openid = isRecord(payload.openid) ? payload.openid : {};
  addAllowed(openid.scope, isRecord(rejected.openid) ? rejected.openid.scope : undefined);
  const resources = isRecord(payload.resources) ? payload.resources : {};
  const rejectedResources = isRecord(rejected.resources) ? rejected.resources : {};
  for (const [resource, scope] of Object.entries(resources)) addAllowed(scope, rejectedResources[resource]);
  return allScopes.filter((scope) => granted.has(scope));
}

/**
 * The assistants `userId` has connected and not disconnected: each unexpired Grant of the user, with its
 * client's name and registered redirect URIs, the scopes it allows, when it was made and when any of its
 * tokens was last used.
 * Newest first, at most 200.
 */
export async function listConnectedApps(
  db: Kysely<AuthDatabase>,
  userId: string,
  options: { now?: Date } = {},
): Promise<ConnectedApp[]> {
  const now = options.now ?? new Date();
  const rows = await db
    .selectFrom('oidc_model as grant_row')
    .leftJoin('oidc_model as client_row', (join) =>
      join
        .on('client_row.model', '=', 'Client')
        .on('client_row.id', '=', sql<string>`coalesce(grant_row.client_id, grant_row.payload->>'clientId')`),
    )
    .select([
      'grant_row.id',
      'grant_row.payload',
      'grant_row.created_at',
      sql<string>`coalesce(grant_row.client_id, grant_row.payload->>'clientId', '')`.as('client_id'),
      sql<string | null>`client_row.payload->>'client_name'`.as('client_name'),
      sql<unknown>`client_row.payload->'redirect_uris'`.as('redirect_uris'),
      // Whichever row oidc-provider's adapter stamps on use — the Grant or its tokens — counts.
      sql<Date | null>`greatest(grant_row.last_used_at, (
        select max(token_row.last_used_at) from oidc_model as token_row where token_row.grant_id = grant_row.id
      ))`.as('last_used_at'),
    ])
    .where('grant_row.model', '=', 'Grant')
    .where('grant_row.account_id', '=', userId)
    .where((eb) => eb.or([eb('grant_row.expires_at', 'is', null), eb('grant_row.expires_at', '>', now)]))
    .orderBy('grant_row.created_at', 'desc')
    .orderBy('grant_row.id')
    .limit(maxListedApps)
    .execute();
  return rows.map((row) => ({
    grantId: row.id,
    clientId: row.client_id,
    clientName: displayName(row.client_name, row.client_id),
    redirectUris: stringsOf(row.redirect_uris),
    scopes: grantedScopes(row.payload),
    connectedAt: new Date(row.created_at).toISOString(),
    lastUsedAt: row.last_used_at === null ? null : new Date(row.last_used_at).toISOString(),
  }));
}

/**
 * Disconnects an assistant: in one transaction, deletes every oidc-provider record of the grant (access
 * and refresh tokens, codes, the Grant itself) and the remembered consent, so all its tokens stop working
 * at once, and writes an `oauth.disconnect` audit entry. `not_found` when the grant is not the user's.
 */
export async function disconnectApp(
  db: Kysely<AuthDatabase>,
  userId: string,
  grantId: string,
): Promise<{ clientId: string; clientName: string }> {
  return db.transaction().execute(async (trx) => {
    const grant = await trx
      .selectFrom('oidc_model as grant_row')
      .innerJoin('users', 'users.id', 'grant_row.account_id')
      .leftJoin('oidc_model as client_row', (join) =>
        join
          .on('client_row.model', '=', 'Client')
          .on(
            'client_row.id',
            '=',
            sql<string>`coalesce(grant_row.client_id, grant_row.payload->>'clientId')`,
          ),
      )
      .select([
        'users.account_id',
        sql<string>`coalesce(grant_row.client_id, grant_row.payload->>'clientId', '')`.as('client_id'),
        sql<string | null>`client_row.payload->>'client_name'`.as('client_name'),
      ])
      .where('grant_row.model', '=', 'Grant')
      .where('grant_row.id', '=', grantId)
      .where('grant_row.account_id', '=', userId)
      .executeTakeFirst();
    if (grant === undefined) {
      throw new DomainError('not_found', `No connected assistant with id ${grantId} for this user.`, {
        details: { kind: 'connected assistant', id: grantId },
      });
    }
    const tokens = await trx.deleteFrom('oidc_model').where('grant_id', '=', grantId).executeTakeFirst();
    await trx.deleteFrom('oidc_model').where('model', '=', 'Grant').where('id', '=', grantId).execute();
    await trx
      .deleteFrom('oauth_consents')
      .where('grant_id', '=', grantId)
      .where('user_id', '=', userId)
      .execute();
    const clientName = displayName(grant.client_name, grant.client_id);
    // The domain's recordAudit is internal to it; this writes the same columns it does.
    await trx
      .insertInto('audit_log')
      .values({
        account_id: grant.account_id,
        user_id: userId,
        via: 'web',
        client_id: grant.client_id,
        action: 'oauth.disconnect',
        target_type: 'oauth_grant',
        target_id: grantId,
        details: JSON.stringify({ clientName, removedRecords: Number(tokens.numDeletedRows) }),
      })
      .execute();
    return { clientId: grant.client_id, clientName };
  });
}
