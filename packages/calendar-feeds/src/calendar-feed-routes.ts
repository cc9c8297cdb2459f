import { createHash } from 'node:crypto';
import { type CalendarFeedReader, calendarFeedFileExtension, calendarFeedPathPrefix } from '@innkeep/domain';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { renderCalendarFeed } from './render-calendar-feed.ts';

/** What {@link calendarFeedRoutes} serves feeds from. */
export interface CalendarFeedRoutesOptions {
  /** Finds a channel link's feed by the token in its URL. */
  readonly feeds: CalendarFeedReader;
}

/** Export tokens are 64 lowercase hex digits; anything else is refused without asking the database. */
const fileNamePattern = new RegExp(`^([0-9a-f]{64})${calendarFeedFileExtension.replace('.', '\\.')}$`);

/**
 * Serves each channel link's calendar export at `GET` and `HEAD /ical/<token>.ics`, for channels polling
 * without credentials: the token is the secret, so there is no authentication, and an unknown, reissued or
 * malformed token gets the same plain 404 (nothing tells which). Answers carry a strong ETag (a hash of the
 * body) and Last-Modified, and 304 when `If-None-Match` matches or, without it, when `If-Modified-Since` is
 * not older than Last-Modified; `Cache-Control: private, max-age=0` makes shared caches keep no copy of the
 * secret calendar and clients revalidate, and `X-Robots-Tag: noindex` keeps a leaked URL out of search engines.
 */
export const calendarFeedRoutes: FastifyPluginAsync<CalendarFeedRoutesOptions> = async (app, options) => {
  // A failure's message (a database error's, say) is logged, never sent to a poller.
  app.setErrorHandler((error, request, reply) => {
    request.log.error({ err: error }, 'serving a calendar export failed');
    return reply.code(500).type('text/plain; charset=utf-8').send('Internal error');
  });
  // Fastify answers HEAD from this GET route, with the same headers and no body.
  app.get<{ Params: { file: string } }>(`${calendarFeedPathPrefix}:file`, async (request, reply) => {
    reply.header('cache-control', 'private, max-age=0').header('x-robots-tag', 'noindex');
    const token = fileNamePattern.exec(request.params.file)?.[1];
    const feed = token === undefined ? undefined : await options.feeds.findByToken(token);
    if (feed === undefined) return notFound(reply);

    const body = renderCalendarFeed(feed);
    const etag = `"${createHash('sha256').update(body).digest('base64url')}"`;
    reply.header('etag', etag).header('last-modified', feed.lastModified.toUTCString());
    if (isNotModified(request.headers, etag, feed.lastModified)) return reply.code(304).send();
    return reply.type('text/calendar; charset=utf-8').send(body);
  });
};

function notFound(reply: FastifyReply): FastifyReply {
  return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
}

/**
 * Whether the client's copy is current (RFC 9110, section 13.2.2): `If-None-Match` decides when sent (weak
 * comparison, as for GET and HEAD); otherwise `If-Modified-Since`, compared at whole seconds, as HTTP dates are.
 */
function isNotModified(
  headers: {
    readonly 'if-none-match'?: string | undefined;
    readonly 'if-modified-since'?: string | undefined;
  },
  etag: string,
  lastModified: Date,
): boolean {
  const ifNoneMatch = headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    return ifNoneMatch
      .split(',')
      .map((tag) => tag.trim().replace(/^W\//, ''))
      .some((tag) => tag === '*' || tag === etag);
  }
  const ifModifiedSince = headers['if-modified-since'];
  if (ifModifiedSince === undefined) return false;
  const since = Date.parse(ifModifiedSince);
  return !Number.isNaN(since) && Math.floor(lastModified.getTime() / 1000) * 1000 <= since;
}
