import type { DatabaseHandle } from '@innkeep/storage';
import type { AuthNotifications } from '../resource-server/auth-notifications.ts';

/** The channel the triggers of migration `2026_11_21_1002_auth_notifications` notify. */
export const authNotificationChannel = 'innkeep_auth';

/** What {@link createPostgresAuthNotifications} needs. */
export interface PostgresAuthNotificationsOptions {
  /** The PostgreSQL database handle's `listen`: each subscription gets a connection of its own. */
  readonly listen: NonNullable<DatabaseHandle['listen']>;
  /** Told when the listening connection drops or cannot be opened; caching is off until it listens again. */
  readonly onError?: (error: unknown) => void;
  /** Waits between attempts to listen again: doubling from `initialMs` up to `maxMs`, jittered. */
  readonly retry?: { readonly initialMs: number; readonly maxMs: number };
  /** How often the listening connection checks itself (default: the handle's, 5 s). */
  readonly heartbeatMs?: number;
}

const defaultRetry = { initialMs: 250, maxMs: 30_000 };

/**
 * {@link AuthNotifications} from PostgreSQL: each subscription LISTENs on `innkeep_auth` over a dedicated
 * connection. When that connection is lost it says so at once (`onLost`), then opens a new one, waiting
 * longer after each failure, and says `onListening` only once the new one LISTENs, so whatever relies on it
 * can stay off for exactly as long as messages could be missed.
 */
export function createPostgresAuthNotifications(
  options: PostgresAuthNotificationsOptions,
): AuthNotifications {
  const retry = options.retry ?? defaultRetry;
  return {
    subscribe(onMessage, onLost, onListening) {
      let closed = false;
      let listener: { close(): Promise<void> } | undefined;
      let timer: NodeJS.Timeout | undefined;
      let opening: Promise<void> | undefined;
      let failures = 0;

      const again = () => {
        if (closed) return;
        const ceiling = Math.min(retry.maxMs, retry.initialMs * 2 ** failures);
        failures += 1;
        // Jitter keeps every instance from reconnecting in the same instant after a database restart.
        timer = setTimeout(open, ceiling / 2 + Math.random() * (ceiling / 2));
        timer.unref();
      };
      const lost = (error: Error) => {
        listener = undefined;
        if (closed) return;
        onLost();
        options.onError?.(error);
        again();
      };
      const open = () => {
        timer = undefined;
        opening = options
          .listen(
            authNotificationChannel,
            { onNotification: onMessage, onLost: lost },
            options.heartbeatMs === undefined ? undefined : { heartbeatMs: options.heartbeatMs },
          )
          .then(
            async (opened) => {
              if (closed) {
                await opened.close();
                return;
              }
              listener = opened;
              failures = 0;
              onListening();
            },
            (error: unknown) => {
              options.onError?.(error);
              again();
            },
          )
          .catch((error: unknown) => options.onError?.(error));
      };

      open();
      return async () => {
        closed = true;
        clearTimeout(timer);
        // A connection still being opened closes itself once it is up.
        await opening;
        const current = listener;
        listener = undefined;
        await current?.close();
      };
    },
  };
}
