import http from 'node:http';
import https from 'node:https';
import type { DueWebhookDelivery, WebhookAttemptOutcome } from '@innkeep/domain';
import { webhookSignatureHeaderName } from '@innkeep/domain';
import { publicAddressLookup, RefusedAddressError, specialUseLiteralAddress } from '@innkeep/public-network';
import { signWebhook } from './sign-webhook.ts';

/** How long an attempt may take, from connecting to the end of the answer, before it counts as failed. */
export const webhookTimeoutMs = 10_000;

/** How much of a receiver's answer is read; the rest is not waited for, so a huge answer costs nothing. */
export const maxWebhookAnswerBytes = 64 * 1024;

/** How much of a failed answer's body is quoted in the attempt's error, for the host's delivery log. */
const quotedAnswerLength = 200;

/** Sent as `User-Agent`, so receivers and their firewalls can tell Innkeep's deliveries apart. */
export const webhookUserAgent = 'Innkeep-Webhooks/1';

/** Options of {@link sendWebhook}. */
export interface SendWebhookOptions {
  /**
   * Also deliver over http and to loopback, private and link-local addresses: for tests and local development
   * only (`WEBHOOK_ALLOW_PRIVATE`), since otherwise a subscription could reach the host's own network.
   */
  readonly allowPrivate?: boolean;
  /** Default {@link webhookTimeoutMs}; shorter in tests. */
  readonly timeoutMs?: number;
  /** The time the signature carries; default the current time. */
  readonly now?: () => Date;
}

/**
 * Makes one attempt at `delivery`: a POST of `body` (see `buildWebhookBody`), signed with the delivery's
 * secrets, whatever the subscription's format. Only https targets whose addresses are all public are reached:
 * the address is checked whenever a connection is made, after DNS resolution, so a name that resolves
 * elsewhere later (DNS rebinding) is caught on its next connection. Connections are kept alive for a few
 * seconds and reused by the next attempts to the same origin (see {@link receiverConnections}); an answer
 * cut short, a timeout or an error closes its connection instead. Redirects are not followed, at most
 * {@link maxWebhookAnswerBytes} of the answer are read, and the attempt ends after the timeout. Never throws:
 * every failure is an outcome, with an error that names no secret, in the shape the queue records.
 */
export function sendWebhook(
  delivery: DueWebhookDelivery,
  body: string,
  options: SendWebhookOptions = {},
): Promise<WebhookAttemptOutcome> {
  const started = performance.now();
  const failure = (error: string, statusCode?: number): WebhookAttemptOutcome => ({
    ok: false,
    error,
    latencyMs: performance.now() - started,
    ...(statusCode === undefined ? {} : { statusCode }),
  });
  const allowPrivate = options.allowPrivate ?? false;
  let url: URL;
  try {
    url = new URL(delivery.url);
  } catch {
    return Promise.resolve(failure('The subscription URL is not a valid URL.'));
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    return Promise.resolve(failure(`Webhooks are delivered over https only, not ${url.protocol}.`));
  }
  // An address written in the URL is connected to without a lookup, so it is checked here.
  const literal = allowPrivate ? undefined : specialUseLiteralAddress(url);
  if (literal !== undefined) return Promise.resolve(failure(refusedAddressMessage(literal, literal)));

  const sentAt = options.now?.() ?? new Date();
  const timeoutMs = options.timeoutMs ?? webhookTimeoutMs;
  return new Promise((resolve) => {
    let settled = false;
    let request: http.ClientRequest;
    /** Ends the attempt; `reusable` when the answer was read whole, so its connection may serve the next. */
    const finish = (outcome: WebhookAttemptOutcome, reusable = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // What is left of an answer cut short would be read as the start of the next one: the connection goes.
      if (!reusable) request.destroy();
      resolve(outcome);
    };
    /** Sends the POST; `mayRetry` while a kept-alive connection the receiver closed may still be blamed. */
    const post = (mayRetry: boolean) => {
      let answering = false;
      request = (url.protocol === 'https:' ? https : http).request(
        url,
        {
          method: 'POST',
          agent: receiverConnections(url.protocol, allowPrivate),
          headers: {
            'Content-Type': 'application/json',
            'Content-Length': Buffer.byteLength(body),
            'User-Agent': webhookUserAgent,
            'Webhook-Id': delivery.eventId,
            [webhookSignatureHeaderName]: signWebhook(
              delivery.secrets,
              Math.floor(sentAt.getTime() / 1000),
              body,
            ),
          },
        },
        (response) => {
          answering = true;
          const statusCode = response.statusCode ?? 0;
          const chunks: Buffer[] = [];
          let size = 0;
          const answered = (reusable: boolean) => {
            if (statusCode >= 200 && statusCode < 300) {
              finish({ ok: true, statusCode, latencyMs: performance.now() - started }, reusable);
            } else if (statusCode >= 300 && statusCode < 400) {
              finish(
                failure('The receiver answered with a redirect, which is not followed.', statusCode),
                reusable,
              );
            } else {
              const answer = Buffer.concat(chunks).toString('utf8').trim();
              const quoted =
                answer.length > quotedAnswerLength ? `${answer.slice(0, quotedAnswerLength - 1)}…` : answer;
              finish(
                failure(`The receiver did not answer 2xx${quoted === '' ? '.' : `: ${quoted}`}`, statusCode),
                reusable,
              );
            }
          };
          response.on('data', (chunk: Buffer) => {
            const room = maxWebhookAnswerBytes - size;
            chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
            size += Math.min(chunk.length, room);
            if (size >= maxWebhookAnswerBytes) answered(false);
          });
          // Read to its end: the connection is free for the next attempt, and the agent takes it back.
          response.on('end', () => answered(true));
          response.on('error', (error) => finish(failure(describeNetworkError(error), statusCode)));
        },
      );
      request.on('error', (error: NodeJS.ErrnoException) => {
        // Giving up destroys the request, which reports a reset like a stale connection: nothing more is sent.
        if (settled) return;
        // A receiver may close an idle connection just as it is reused; the request then never reached it,
        // so it is sent once more, on a connection the agent opens (and checks) or another kept one.
        if (mayRetry && !answering && request.reusedSocket && staleConnectionErrors.has(error.code ?? '')) {
          post(false);
          return;
        }
        finish(failure(describeNetworkError(error)));
      });
      request.end(body);
    };
    const timer = setTimeout(
      () => finish(failure(`The receiver did not answer within ${timeoutMs} ms.`)),
      timeoutMs,
    );
    post(true);
  });
}

/** How a kept-alive connection the receiver closed shows itself when it is used. */
const staleConnectionErrors = new Set(['ECONNRESET', 'EPIPE']);

/** Connections kept open to one receiver origin at most, per kind of agent; more attempts wait for one. */
const maxConnectionsPerOrigin = 32;

/**
 * How long an unused connection stays open: short, below the 5 s after which Node's own servers (and many
 * others) close an idle one, so a reused connection is rarely one the receiver is closing at that moment.
 */
const idleConnectionMs = 4_000;

/** One agent per protocol and `allowPrivate`, made when first needed. */
const agents = new Map<string, http.Agent>();

/**
 * The keep-alive agent attempts over `protocol` go through. Its `lookup` refuses special-use addresses (unless
 * `allowPrivate`), and the agent calls it for every new connection, after which the connection is only ever
 * reused for the same origin; a connection made for an `allowPrivate` call is never handed to one without
 * it, since each has its own agent.
 */
function receiverConnections(protocol: string, allowPrivate: boolean): http.Agent {
  const key = `${protocol}${allowPrivate ? 'private' : 'public'}`;
  const known = agents.get(key);
  if (known !== undefined) return known;
  const options: http.AgentOptions = {
    keepAlive: true,
    maxSockets: maxConnectionsPerOrigin,
    maxFreeSockets: maxConnectionsPerOrigin,
    // An idle connection's timeout: the agent closes a free connection when it runs out.
    timeout: idleConnectionMs,
    lookup: publicAddressLookup(allowPrivate, refusedAddressMessage),
  };
  const agent = protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
  agents.set(key, agent);
  return agent;
}

/** Why an address is refused; the host's log shows it, so it says what the host can change. */
function refusedAddressMessage(hostname: string, address: string): string {
  const resolved = hostname === address ? address : `${hostname} resolves to ${address}, which`;
  return `${resolved} is a loopback, private or otherwise special-use address; webhooks are delivered to public addresses only.`;
}

/** A network failure in words: Node's message (`connect ECONNREFUSED …`), which carries no secret. */
function describeNetworkError(error: Error): string {
  if (error instanceof RefusedAddressError) return error.message;
  return `The request failed: ${error.message}`;
}
