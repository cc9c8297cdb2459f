import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { publicAddressLookup, RefusedAddressError, specialUseLiteralAddress } from '@innkeep/public-network';
import { maxCalendarFeedBytes } from './parse-calendar-feed.ts';

/** How long one fetch may take, every redirect and the whole body included, before it counts as failed. */
export const calendarFeedTimeoutMs = 20_000;

/** Redirects followed at most: channels move their exports once or twice, never through a chain. */
export const maxCalendarFeedRedirects = 3;

/** Sent as `User-Agent`, so channels and their firewalls can tell Innkeep's polls apart. */
export const calendarFeedUserAgent = 'Innkeep-Calendar/1';

/** How much of a failed answer is quoted in the error, for the host's view of the link. */
const quotedAnswerLength = 200;

/** Redirect statuses followed; every one is followed with a GET, the only method a poll uses. */
const redirectStatuses = new Set([301, 302, 303, 307, 308]);

/** How {@link fetchCalendarFeed} asks for a feed. */
export interface FetchCalendarFeedOptions {
  /** The `ETag` of the last feed read, sent as `If-None-Match`. */
  readonly etag?: string | null;
  /** The `Last-Modified` of the last feed read, sent as `If-Modified-Since`. */
  readonly lastModified?: string | null;
  /**
   * Also fetch over http and from loopback, private and link-local addresses: for tests and local
   * development only, since otherwise a calendar URL could reach the host's own network.
   */
  readonly allowPrivate?: boolean;
  /** Default {@link calendarFeedTimeoutMs}; shorter in tests. */
  readonly timeoutMs?: number;
}

/** What {@link fetchCalendarFeed} got: the feed has not changed, the feed itself, or why it could not. */
export type CalendarFeedFetchResult =
  | { readonly kind: 'not_modified' }
  | {
      readonly kind: 'fetched';
      /** The body decoded as UTF-8 (after gzip), at most `maxCalendarFeedBytes` octets. */
      readonly body: string;
      /** Validators of this answer, to send back on the next poll. */
      readonly etag: string | null;
      readonly lastModified: string | null;
    }
  | { readonly kind: 'failed'; readonly error: string };

/** One answer's body as far as it was read: all of it, or the first `limit` octets when `cut`. */
interface ReadBody {
  readonly bytes: Buffer;
  readonly cut: boolean;
}

/**
 * Fetches a channel's calendar feed at `url` with a conditional GET (`If-None-Match`, `If-Modified-Since`
 * from the last feed read), asking for `text/calendar` and gzip. Only https URLs whose addresses are all
 * public are reached (unless `allowPrivate`): the address is checked when each connection is made, after DNS.
 * Up to {@link maxCalendarFeedRedirects} redirects are followed, each checked the same way; the whole fetch
 * must end within the timeout, and a body (decompressed) over `maxCalendarFeedBytes` is not read further.
 * Never throws: every failure is a sentence a host can act on, naming the calendar's host but never its full
 * URL, whose path or query is often the channel's secret token.
 */
export async function fetchCalendarFeed(
  url: string,
  options: FetchCalendarFeedOptions = {},
): Promise<CalendarFeedFetchResult> {
  const allowPrivate = options.allowPrivate ?? false;
  const timeoutMs = options.timeoutMs ?? calendarFeedTimeoutMs;
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return failed('The calendar address is not a valid URL.');
  }
  const headers: Record<string, string> = {
    'User-Agent': calendarFeedUserAgent,
    Accept: 'text/calendar, */*;q=0.5',
    'Accept-Encoding': 'gzip',
  };
  if (options.etag) headers['If-None-Match'] = options.etag;
  if (options.lastModified) headers['If-Modified-Since'] = options.lastModified;
  const conditional = 'If-None-Match' in headers || 'If-Modified-Since' in headers;

  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), timeoutMs);
  let redirectedFrom: string | undefined;
  try {
    for (let redirects = 0; ; redirects += 1) {
      const refusal = refuseTarget(target, allowPrivate, redirectedFrom);
      if (refusal !== undefined) return failed(refusal);
      const host = target.host;
      try {
        const response = await get(target, headers, allowPrivate, redirectedFrom, timeout.signal);
        const status = response.statusCode ?? 0;

        if (redirectStatuses.has(status)) {
          response.destroy();
          const location = response.headers.location;
          if (location === undefined) {
            return failed(`The calendar at ${host} answered with a redirect (${status}) to no address.`);
          }
          if (redirects === maxCalendarFeedRedirects) {
            return failed(
              `The calendar address redirected more than ${maxCalendarFeedRedirects} times (the last at ${host}); at most ${maxCalendarFeedRedirects} redirects are followed.`,
            );
          }
          try {
            target = new URL(location, target);
          } catch {
            return failed(`The calendar at ${host} redirected to an address that is not a valid URL.`);
          }
          redirectedFrom = host;
          continue;
        }
        if (status === 304) {
          response.destroy();
          // Without validators sent there is nothing the answer could refer to.
          return conditional
            ? { kind: 'not_modified' }
            : failed(
                `The calendar at ${host} answered 304 Not Modified to a request that asked for the feed.`,
              );
        }
        const encoding = (response.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
        const gzip = encoding === 'gzip' || encoding === 'x-gzip';
        if (status < 200 || status >= 300) {
          // Only the start is quoted: a few hundred octets are enough, whatever the page's size.
          const answer = await readBody(response, quotedAnswerLength * 4, gzip);
          return failed(`The calendar at ${host} answered ${status}${quote(answer.bytes)}`);
        }
        if (!gzip && encoding !== 'identity') {
          response.destroy();
          return failed(`The calendar at ${host} was sent encoded as ${encoding}, which was not asked for.`);
        }
        const body = await readBody(response, maxCalendarFeedBytes, gzip);
        if (body.cut) {
          return failed(
            `The calendar at ${host} is larger than ${maxCalendarFeedBytes / 1024 / 1024} MiB, far more than one listing’s calendar.`,
          );
        }
        return {
          kind: 'fetched',
          body: body.bytes.toString('utf8'),
          etag: response.headers.etag ?? null,
          lastModified: response.headers['last-modified'] ?? null,
        };
      } catch (error) {
        if (timeout.signal.aborted) {
          return failed(`The calendar at ${host} did not answer within ${describeDuration(timeoutMs)}.`);
        }
        if (error instanceof RefusedAddressError) return failed(error.message);
        // Node's messages (`connect ECONNREFUSED 1.2.3.4:443`, a certificate's) name the host at most.
        const reason = (error as Error).message.replace(/\.$/, '');
        return failed(`The calendar at ${host} could not be read: ${reason}.`);
      }
    }
  } finally {
    clearTimeout(timer);
  }
}

/** Why `target` is not fetched before any connection is made (scheme, an address in the URL), or undefined. */
function refuseTarget(
  target: URL,
  allowPrivate: boolean,
  redirectedFrom: string | undefined,
): string | undefined {
  if (target.protocol !== 'https:' && !(allowPrivate && target.protocol === 'http:')) {
    return redirectedFrom === undefined
      ? `Calendars are fetched over https only, not ${target.protocol}.`
      : `The calendar at ${redirectedFrom} redirected to an ${target.protocol.replace(/:$/, '')} address at ${target.host}; calendars are fetched over https only.`;
  }
  // An address written in the URL is connected to without a lookup, so it is checked here.
  const literal = allowPrivate ? undefined : specialUseLiteralAddress(target);
  return literal === undefined ? undefined : refusedAddressMessage(literal, literal, redirectedFrom);
}

/**
 * Sends the GET and waits for the answer's head. `agent: false` gives each fetch its own connection: polls of
 * one feed are minutes apart, and a connection made under `allowPrivate` can then never serve another fetch.
 */
function get(
  target: URL,
  headers: Record<string, string>,
  allowPrivate: boolean,
  redirectedFrom: string | undefined,
  signal: AbortSignal,
): Promise<http.IncomingMessage> {
  const lookup = publicAddressLookup(allowPrivate, (hostname, address) =>
    refusedAddressMessage(hostname, address, redirectedFrom),
  );
  return new Promise((resolve, reject) => {
    const request = (target.protocol === 'https:' ? https : http).request(
      target,
      { method: 'GET', headers, agent: false, lookup, signal },
      resolve,
    );
    request.on('error', reject);
    request.end();
  });
}

/**
 * Reads `response` (gunzipped when `gzip`) up to `limit` octets; past it, stops reading and closes the
 * connection, so a huge or endless answer costs no more than the limit. Rejects when the answer breaks off,
 * which includes the fetch's timeout destroying the request.
 */
async function readBody(response: http.IncomingMessage, limit: number, gzip = false): Promise<ReadBody> {
  let source: Readable = response;
  if (gzip) {
    const gunzip = createGunzip();
    // A pipe does not pass errors on: the answer breaking off must end the read of its decompressed bytes.
    response.once('error', (error) => gunzip.destroy(error));
    source = response.pipe(gunzip);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      if (size + chunk.length > limit) {
        chunks.push(chunk.subarray(0, limit - size));
        return { bytes: Buffer.concat(chunks), cut: true };
      }
      chunks.push(chunk);
      size += chunk.length;
    }
    return { bytes: Buffer.concat(chunks), cut: false };
  } finally {
    response.destroy();
  }
}

/** The start of a failed answer's body for the error, or a full stop when it has none. */
function quote(bytes: Buffer): string {
  const answer = bytes.toString('utf8').replace(/\s+/g, ' ').trim();
  if (answer === '') return '.';
  return `: ${answer.length > quotedAnswerLength ? `${answer.slice(0, quotedAnswerLength - 1)}…` : answer}`;
}

/** `20 s`, or `200 ms` for a timeout under a second or not a whole number of seconds (tests). */
function describeDuration(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** Why an address is refused, in the words the host sees on the link, saying which redirect led there. */
function refusedAddressMessage(
  hostname: string,
  address: string,
  redirectedFrom: string | undefined,
): string {
  const where = hostname === address ? `${address},` : `${hostname}, which resolves to ${address},`;
  const start =
    redirectedFrom === undefined
      ? `The calendar address points to ${where}`
      : `The calendar at ${redirectedFrom} redirected to ${where}`;
  return `${start} a loopback, private or otherwise special-use address; calendars are fetched from public addresses only.`;
}

/** A failed fetch. */
function failed(error: string): CalendarFeedFetchResult {
  return { kind: 'failed', error };
}
