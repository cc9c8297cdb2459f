import type { AuthInvalidation } from './auth-notifications.ts';

/** What one cached verification depends on, and until when it may be used at most. */
interface Entry<T> {
  readonly value: T;
  readonly expiresAtMs: number;
  /** `grant:<id>`, `user:<id>`, `account:<id>`: the notifications that drop it (any entry: `reset`). */
  readonly keys: readonly string[];
}

/** Sizes of a {@link VerificationCache}. */
export interface VerificationCacheLimits {
  /** Entries kept at most; the least recently used goes first. */
  readonly maxEntries: number;
  /** The longest an entry is used, even when no notification drops it. */
  readonly maxAgeMs: number;
}

/**
 * Positive access-token checks by token digest, for one instance, dropped the moment a notification says a
 * fact behind them changed. It caches only while notifications are known to arrive (`enable` after the
 * listener listens, `disable` when it is lost, which also forgets everything), and refuses to store a
 * check whose query began before the latest notification or listener change (`epoch`), because that
 * query may have read what the notification just invalidated.
 */
export class VerificationCache<T> {
  readonly #limits: VerificationCacheLimits;
  readonly #entries = new Map<string, Entry<T>>();
  readonly #digestsByKey = new Map<string, Set<string>>();
  readonly #grantUsedAtMs = new Map<string, number>();
  #enabled = false;
  #epoch = 0;

  constructor(limits: VerificationCacheLimits) {
    this.#limits = limits;
  }

  /** Changes with every notification and listener change; pass the value read before a query to `store`. */
  get epoch(): number {
    return this.#epoch;
  }

  /** Entries held now. */
  get size(): number {
    return this.#entries.size;
  }

  /** The cached check of `digest`, if any and still in date at `nowMs`. */
  lookup(digest: string, nowMs: number): T | undefined {
    const entry = this.#entries.get(digest);
    if (entry === undefined) return undefined;
    if (nowMs >= entry.expiresAtMs) {
      this.#remove(digest);
      return undefined;
    }
    // Most recently used last: Map keeps insertion order, so the first entry is the one to evict.
    this.#entries.delete(digest);
    this.#entries.set(digest, entry);
    return entry.value;
  }

  /**
   * Keeps `value` for `digest` until `expiresAtMs` (capped at `maxAgeMs` from `nowMs`), unless caching is
   * off or anything was invalidated since `epoch` was read.
   */
  store(
    digest: string,
    value: T,
    facts: {
      /** The grant, user and account the value depends on; each one's notification drops it. */
      readonly grantId?: string;
      readonly userId?: string;
      readonly accountId?: string;
      readonly nowMs: number;
      readonly expiresAtMs: number;
      readonly grantUsedAtMs: number | null;
      readonly epoch: number;
    },
  ): void {
    if (!this.#enabled || facts.epoch !== this.#epoch) return;
    const expiresAtMs = Math.min(facts.nowMs + this.#limits.maxAgeMs, facts.expiresAtMs);
    if (expiresAtMs <= facts.nowMs) return;
    this.#remove(digest);
    const keys = [
      ...(facts.grantId === undefined ? [] : [`grant:${facts.grantId}`]),
      ...(facts.userId === undefined ? [] : [`user:${facts.userId}`]),
      ...(facts.accountId === undefined ? [] : [`account:${facts.accountId}`]),
    ];
    this.#entries.set(digest, { value, expiresAtMs, keys });
    for (const key of keys) {
      let digests = this.#digestsByKey.get(key);
      if (digests === undefined) {
        digests = new Set();
        this.#digestsByKey.set(key, digests);
      }
      digests.add(digest);
    }
    if (facts.grantId !== undefined && facts.grantUsedAtMs !== null) {
      const known = this.#grantUsedAtMs.get(facts.grantId) ?? facts.grantUsedAtMs;
      this.#grantUsedAtMs.set(facts.grantId, Math.max(known, facts.grantUsedAtMs));
    }
    while (this.#entries.size > this.#limits.maxEntries) {
      const oldest = this.#entries.keys().next();
      if (oldest.done === true) break;
      this.#remove(oldest.value);
    }
  }

  /**
   * True, and records `nowMs` as the grant's last use, when the grant was last recorded as used
   * `intervalMs` or more ago (or never, as far as this cache knows): the caller then writes it down.
   */
  claimGrantUse(grantId: string, nowMs: number, intervalMs: number): boolean {
    const usedAtMs = this.#grantUsedAtMs.get(grantId);
    if (usedAtMs !== undefined && nowMs - usedAtMs < intervalMs) return false;
    this.#grantUsedAtMs.set(grantId, nowMs);
    return true;
  }

  /** Drops what a notification says changed; every notification also moves the epoch on. */
  invalidate(invalidation: AuthInvalidation): void {
    this.#epoch += 1;
    if (invalidation.kind === 'everything') {
      this.#clear();
      return;
    }
    const digests = this.#digestsByKey.get(`${invalidation.kind}:${invalidation.id}`);
    if (digests === undefined) return;
    for (const digest of [...digests]) this.#remove(digest);
  }

  /** Starts caching: notifications are known to arrive from now on. */
  enable(): void {
    this.#epoch += 1;
    this.#enabled = true;
  }

  /** Stops caching and forgets everything: notifications may be missed from now on. */
  disable(): void {
    this.#epoch += 1;
    this.#enabled = false;
    this.#clear();
  }

  #clear(): void {
    this.#entries.clear();
    this.#digestsByKey.clear();
    this.#grantUsedAtMs.clear();
  }

  #remove(digest: string): void {
    const entry = this.#entries.get(digest);
    if (entry === undefined) return;
    this.#entries.delete(digest);
    for (const key of entry.keys) {
      const digests = this.#digestsByKey.get(key);
      digests?.delete(digest);
      if (digests?.size === 0) {
        this.#digestsByKey.delete(key);
        // The last cached token of a grant is gone; its last use is read from the database next time.
        if (key.startsWith('grant:')) this.#grantUsedAtMs.delete(key.slice('grant:'.length));
      }
    }
  }
}
