import type { Clock } from '@innkeep/domain';
import { type Kysely, sql } from 'kysely';
import type { Adapter, AdapterFactory, AdapterPayload } from 'oidc-provider';
import { type ClientSecretSeal, createClientSecretSeal } from './client-secret-seal.ts';
import { forgetConsentsForGrant } from './consents.ts';
import type { AuthDatabase } from './database.ts';
import { tokenDigest } from './token-hash.ts';

/** Models whose id is a bearer secret: stored as its SHA-256 digest, never as the value. */
const tokenModels: ReadonlySet<string> = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'ClientCredentials',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
  'PreAuthorizedCode',
  'InitialAccessToken',
  'RegistrationAccessToken',
]);

/** What the adapter needs. */
export interface OidcAdapterOptions {
  readonly db: Kysely<AuthDatabase>;
  readonly clock: Clock;
  /**
   * Seconds a rotated refresh token still works. Clients that refresh from two processes at once, or
   * retry after a lost response, present the old token again; inside this window that succeeds
   * instead of revoking the whole grant. Reuse after it is treated as theft.
   */
  readonly refreshTokenGraceSeconds: number;
  /** SECRET_KEYS: confidential clients' secrets are stored sealed with the first, and open with any. */
  readonly secretKeys: readonly string[];
}

// Where a Client row keeps its sealed secret; `client_secret` itself is never stored.
const sealedSecretField = 'sealed_client_secret';

/**
 * oidc-provider's storage, one `oidc_model` row per object, shared by every instance. The provider builds
 * one adapter per model name through the returned factory.
 *
 * - Token models are keyed by {@link tokenDigest} of the value and their stored payload omits `jti`.
 * - `grant_id`, `account_id` and `client_id` are copied out of the payload so that revocation, the
 *   access-token check and the "connected apps" page can find rows by them.
 * - Rows past `expires_at` are invisible, whatever the payload says.
 * - A Client's `client_secret` is stored sealed (see {@link createClientSecretSeal}); a row from before
 *   sealing, or sealed with a key other than the first, is sealed again with the first when read.
 */
export function createOidcAdapter(options: OidcAdapterOptions): AdapterFactory {
  const seal = createClientSecretSeal(options.secretKeys);
  return (model) => new PostgresOidcAdapter(model, options, seal);
}

class PostgresOidcAdapter implements Adapter {
  readonly #model: string;
  readonly #db: Kysely<AuthDatabase>;
  readonly #clock: Clock;
  readonly #graceMs: number;
  readonly #hashed: boolean;
  readonly #seal: ClientSecretSeal;

  constructor(model: string, options: OidcAdapterOptions, seal: ClientSecretSeal) {
    this.#model = model;
    this.#db = options.db;
    this.#clock = options.clock;
    this.#graceMs = options.refreshTokenGraceSeconds * 1000;
    this.#hashed = tokenModels.has(model);
    this.#seal = seal;
  }

  #key(id: string): string {
    return this.#hashed ? tokenDigest(id) : id;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const { jti: _value, ...withoutValue } = payload;
    const stored = this.#hashed ? withoutValue : await this.#sealedSecret(id, payload);
    const expiresAt =
      expiresIn === undefined ? null : new Date(this.#clock.now().getTime() + expiresIn * 1000);
    const columns = {
      payload: JSON.stringify(stored),
      grant_id: payload.grantId ?? null,
      uid: payload.uid ?? null,
      user_code: payload.userCode ?? null,
      account_id: payload.accountId ?? null,
      // A Client row carries its own id as `client_id`; every other model names its client `clientId`.
      client_id: payload.clientId ?? (this.#model === 'Client' ? (payload.client_id ?? null) : null),
      expires_at: expiresAt,
    };
    await this.#db
      .insertInto('oidc_model')
      .values({ model: this.#model, id: this.#key(id), ...columns })
      .onConflict((conflict) => conflict.columns(['model', 'id']).doUpdateSet(columns))
      .execute();
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const row = await this.#live()
      .select(['payload', 'consumed_at'])
      .where('id', '=', this.#key(id))
      .executeTakeFirst();
    if (row === undefined) return undefined;
    const payload: AdapterPayload = this.#hashed
      ? { ...row.payload, jti: id }
      : await this.#openedSecret(id, row.payload);
    if (row.consumed_at !== null && !this.#insideRefreshGrace(row.consumed_at)) payload.consumed = true;
    return payload;
  }

  /** `payload` as stored: a Client's secret sealed in place of the plain value. */
  async #sealedSecret(id: string, payload: AdapterPayload): Promise<AdapterPayload> {
    if (this.#model !== 'Client' || typeof payload.client_secret !== 'string') return payload;
    const { client_secret: secret, ...rest } = payload;
    return { ...rest, [sealedSecretField]: await this.#seal.seal(id, secret) };
  }

  /** A stored Client payload with its secret opened; resealed with the first key when it needs to be. */
  async #openedSecret(id: string, stored: AdapterPayload): Promise<AdapterPayload> {
    if (this.#model !== 'Client') return { ...stored };
    const { [sealedSecretField]: sealed, ...payload } = stored;
    if (typeof sealed === 'string') {
      const opened = await this.#seal.open(id, sealed);
      payload.client_secret = opened.secret;
      if (opened.sealedWithOlderKey) await this.#reseal(id, stored, payload);
    } else if (typeof payload.client_secret === 'string') {
      // Stored in plain text before secrets were sealed.
      await this.#reseal(id, stored, payload);
    }
    return payload;
  }

  // Only the row as it was read is replaced, so a registration update in between is never overwritten.
  async #reseal(id: string, stored: AdapterPayload, payload: AdapterPayload): Promise<void> {
    await this.#db
      .updateTable('oidc_model')
      .set({ payload: JSON.stringify(await this.#sealedSecret(id, payload)) })
      .where('model', '=', this.#model)
      .where('id', '=', id)
      .where(sql<boolean>`payload = ${JSON.stringify(stored)}::jsonb`)
      .execute();
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const row = await this.#live().select('payload').where('uid', '=', uid).executeTakeFirst();
    return row === undefined ? undefined : { ...row.payload };
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    const row = await this.#live().select('payload').where('user_code', '=', userCode).executeTakeFirst();
    return row === undefined ? undefined : { ...row.payload };
  }

  async consume(id: string): Promise<void> {
    // The first consumption counts: a token presented again inside the grace window must not push the
    // window further out.
    await this.#db
      .updateTable('oidc_model')
      .set({ consumed_at: sql`coalesce(consumed_at, ${this.#clock.now()})` })
      .where('model', '=', this.#model)
      .where('id', '=', this.#key(id))
      .execute();
  }

  async destroy(id: string): Promise<void> {
    const key = this.#key(id);
    await this.#db.transaction().execute(async (trx) => {
      await trx.deleteFrom('oidc_model').where('model', '=', this.#model).where('id', '=', key).execute();
      if (this.#model === 'Grant') await forgetConsentsForGrant(trx, key);
    });
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.#db
      .deleteFrom('oidc_model')
      .where('model', '=', this.#model)
      .where('grant_id', '=', grantId)
      .execute();
  }

  #live() {
    const now = this.#clock.now();
    return this.#db
      .selectFrom('oidc_model')
      .where('model', '=', this.#model)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
  }

  // Only refresh tokens get the grace window; a consumed authorization code stays consumed at once, so
  // a replayed code still revokes what it issued.
  #insideRefreshGrace(consumedAt: Date): boolean {
    return (
      this.#model === 'RefreshToken' && this.#clock.now().getTime() - consumedAt.getTime() < this.#graceMs
    );
  }
}
