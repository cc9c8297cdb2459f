// @fastify/rate-limit ships its built-in stores as CommonJS files without type declarations; these are their
// constructors as the plugin itself calls them (store/LocalStore.js, store/RedisStore.js).

declare module '@fastify/rate-limit/store/LocalStore.js' {
  import type { FastifyRateLimitStore } from '@fastify/rate-limit';

  /** Counts in this process's memory, in an LRU of `cache` keys (default 5,000). */
  const LocalStore: new (
    continueExceeding: boolean,
    exponentialBackoff: boolean,
    cache?: number,
  ) => FastifyRateLimitStore;
  export default LocalStore;
}

declare module '@fastify/rate-limit/store/RedisStore.js' {
  import type { FastifyRateLimitStore } from '@fastify/rate-limit';
  import type { Redis } from 'ioredis';

  /** Counts in Redis under `key` + the counted key, with one Lua script per increment. */
  const RedisStore: new (
    continueExceeding: boolean,
    exponentialBackoff: boolean,
    redis: Redis,
    key?: string,
  ) => FastifyRateLimitStore;
  export default RedisStore;
}
