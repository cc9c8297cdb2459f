import type { Clock } from '@innkeep/domain';
import {
  createSmtpTransport,
  type MessageDeliveryTick,
  type MessageTransport,
  runMessageDeliveries,
} from '@innkeep/message-delivery';
import { createMessageDeliveryQueue, type DatabaseHandle } from '@innkeep/storage';
import type { MailConfig } from './config.ts';
import type { JobLogger } from './message-rule-job.ts';
import { type PeriodicJob, type PeriodicJobRun, startPeriodicJob } from './periodic-job.ts';

/** Options of {@link startMessageDeliveryJob}; the delays and the transport are for tests. */
export interface MessageDeliveryJobOptions {
  readonly db: DatabaseHandle['db'];
  readonly clock: Clock;
  readonly log: JobLogger;
  /** The SMTP server and the addresses (SMTP_URL, MAIL_FROM, MAIL_REPLY_TO). */
  readonly mail: MailConfig;
  /** Sends the emails; default a pooled transport to `mail.smtpUrl`, closed when the job stops. */
  readonly transport?: MessageTransport;
  /** Time between ticks; default 2 seconds, so a host's message leaves about as soon as it is written. */
  readonly intervalMs?: number;
  /** Time from start to the first tick, so startup is not slowed by it; default 5 seconds. */
  readonly firstRunDelayMs?: number;
  /** Told how each tick ended and how long it took (the metrics count them). */
  readonly onRun?: (run: PeriodicJobRun) => void;
}

/**
 * Emails queued messages to guests in the background (see `runMessageDeliveries`), every 2 seconds. Every
 * instance runs it; the queue's leases give each message to one instance. A failed tick is logged and tried
 * again at the next one (see {@link startPeriodicJob}); stopping waits for a tick in progress, then closes
 * the SMTP connections.
 */
export function startMessageDeliveryJob(options: MessageDeliveryJobOptions): PeriodicJob {
  const { db, clock, log, mail } = options;
  const queue = createMessageDeliveryQueue({ db, clock });
  const { transport, closeTransport } = transportOf(options);
  const job = startPeriodicJob({
    async run() {
      const tick = await runMessageDeliveries(queue, {
        transport,
        from: mail.from,
        replyTo: mail.replyTo,
        now: () => clock.now(),
      });
      logNotable(log, tick);
      return 'success';
    },
    intervalMs: options.intervalMs ?? 2_000,
    firstRunDelayMs: options.firstRunDelayMs ?? 5_000,
    onFailure: (error) =>
      log.error({ err: error }, 'Emailing guest messages failed; retrying at the next tick'),
    onRun: options.onRun,
  });
  return {
    async stop() {
      await job.stop();
      closeTransport();
    },
  };
}

/** The transport given, which its owner closes, or a new one to `mail.smtpUrl`, which the job closes. */
function transportOf(options: MessageDeliveryJobOptions): {
  transport: MessageTransport;
  closeTransport: () => void;
} {
  if (options.transport !== undefined) return { transport: options.transport, closeTransport: () => {} };
  const own = createSmtpTransport(options.mail.smtpUrl);
  return { transport: own, closeTransport: () => own.close() };
}

/** Logs what the operator may need to know about: messages retried, given up or put off. */
function logNotable(log: JobLogger, tick: MessageDeliveryTick): void {
  if (tick.retried + tick.failed > 0) {
    log.info(
      { sent: tick.sent, retried: tick.retried, failed: tick.failed },
      'Some guest emails were not accepted; see the messages’ deliveryError',
    );
  }
  if (tick.deferred > 0) {
    log.info(
      { sent: tick.sent, deferred: tick.deferred },
      'The mail server is slow: some guest emails wait for the next claim rather than risk being sent twice',
    );
  }
}
