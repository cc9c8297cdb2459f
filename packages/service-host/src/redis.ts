import { Redis } from 'ioredis';

/** REDIS_URL is set but nothing answered there at start. */
export class RedisUnavailableError extends Error {
  override readonly name = 'RedisUnavailableError';

  constructor(cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`the Redis server in REDIS_URL did not answer (${reason}); is it running, on that host and port?`, {
      cause,
    });
  }
}

/**
 * Connects to Redis for counters shared across instances. Commands fail fast while it is down (the rate
 * limiters then let requests through) instead of queueing behind a reconnect; ioredis reconnects by itself
 * and tells `onError` of each failed attempt.
 *
 * @throws {@link RedisUnavailableError} when nothing answers at start.
 */
export async function connectRedis(url: string, onError: (error: Error) => void): Promise<Redis> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: true });
  // Without a listener each failed attempt would be an unhandled 'error' event.
  redis.on('error', onError);
  try {
    await redis.connect();
  } catch (cause) {
    redis.disconnect();
    throw new RedisUnavailableError(cause);
  }
  return redis;
}
