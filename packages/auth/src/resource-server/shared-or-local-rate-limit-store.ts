// Typed here rather than only through tsconfig, so that packages compiling this file reach the declarations too.
/// <reference path="./fastify-rate-limit-stores.d.ts" />
import type {
  FastifyRateLimitOptions,
  FastifyRateLimitStore,
  FastifyRateLimitStoreCtor,
} from '@fastify/rate-limit';
import LocalStore from '@fastify/rate-limit/store/LocalStore.js';
import RedisStore from '@fastify/rate-limit/store/RedisStore.js';
import type { Redis } from 'ioredis';

/** What {@link sharedOrLocalRateLimitStore} counts with, and where it says how it counts. */
export interface SharedOrLocalStoreOptions {
  /** The shared counters. Give it fail-fast options (`maxRetriesPerRequest: 1`, no offline queue). */
  readonly redis: Redis;
  /** The prefix of the counters' keys in Redis. */
  readonly nameSpace: string;
  /** Redis stopped answering: each instance counts alone from now on. Told once per outage. */
  readonly onLocal: (cause: Error) => void;
  /** Redis answers again: counting is shared across instances again. Told once per recovery. */
  readonly onShared: () => void;
}

/** The plugin settings a store is built from that the built-in stores read. */
interface StoreSettings {
  readonly continueExceeding?: boolean;
  readonly exponentialBackoff?: boolean;
}

/**
 * A `store` for @fastify/rate-limit that counts in Redis, shared by every instance, while Redis answers, and
 * in this instance's memory (the plugin's own LocalStore) while it does not; it goes back to Redis as soon as
 * Redis is connected again, whose counters may by then have started over. The plugin's `skipOnError` would
 * instead count nothing at all while Redis is down, leaving the limit off.
 *
 * A request never waits for a reconnect: while the client is not connected Redis is not asked, and a command
 * that fails (the connection dropped under it) is counted locally instead.
 */
export function sharedOrLocalRateLimitStore(options: SharedOrLocalStoreOptions): FastifyRateLimitStoreCtor {
  const mode = countingMode(options);
  return class extends SharedOrLocalStore {
    constructor(settings: FastifyRateLimitOptions) {
      const { continueExceeding = false, exponentialBackoff = false } = settings as StoreSettings;
      super(
        options.redis,
        new RedisStore(continueExceeding, exponentialBackoff, options.redis, options.nameSpace),
        new LocalStore(continueExceeding, exponentialBackoff),
        mode,
      );
    }
  };
}

/** Which way counting goes now; tells of each change once. */
interface CountingMode {
  local(cause: Error): void;
  shared(): void;
}

function countingMode(listener: Pick<SharedOrLocalStoreOptions, 'onLocal' | 'onShared'>): CountingMode {
  let local = false;
  return {
    local(cause) {
      if (local) return;
      local = true;
      listener.onLocal(cause);
    },
    shared() {
      if (!local) return;
      local = false;
      listener.onShared();
    },
  };
}

class SharedOrLocalStore implements FastifyRateLimitStore {
  readonly #redis: Redis;
  readonly #shared: FastifyRateLimitStore;
  readonly #local: FastifyRateLimitStore;
  readonly #mode: CountingMode;

  constructor(redis: Redis, shared: FastifyRateLimitStore, local: FastifyRateLimitStore, mode: CountingMode) {
    this.#redis = redis;
    this.#shared = shared;
    this.#local = local;
    this.#mode = mode;
  }

  incr(...[key, callback, timeWindow, max]: Parameters<FastifyRateLimitStore['incr']>): void {
    if (this.#redis.status !== 'ready') {
      this.#mode.local(new Error(`The Redis connection is ${this.#redis.status}.`));
      this.#local.incr(key, callback, timeWindow, max);
      return;
    }
    this.#shared.incr(
      key,
      (error, result) => {
        if (error !== null || result === undefined) {
          this.#mode.local(error ?? new Error('Redis answered without a count.'));
          this.#local.incr(key, callback, timeWindow, max);
          return;
        }
        this.#mode.shared();
        callback(null, result);
      },
      timeWindow,
      max,
    );
  }

  child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
    return new SharedOrLocalStore(
      this.#redis,
      this.#shared.child(routeOptions),
      this.#local.child(routeOptions),
      this.#mode,
    );
  }
}
