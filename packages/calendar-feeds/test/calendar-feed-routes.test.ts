import type { CalendarFeed, CalendarFeedReader } from '@innkeep/domain';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { calendarFeedRoutes, renderCalendarFeed } from '../src/index.ts';

const token = 'a'.repeat(64);
const feed: CalendarFeed = {
  listingId: 'lst_1',
  listingName: 'Seaside loft',
  timeZone: 'Europe/Lisbon',
  channel: 'vrbo',
  stays: [{ uid: 'res_1', startDate: '2026-12-03', endDate: '2026-12-06', kind: 'reservation' }],
  lastModified: new Date('2026-11-28T09:15:42.500Z'),
};

let app: FastifyInstance;
let lookedUp: string[];

beforeEach(async () => {
  lookedUp = [];
  const feeds: CalendarFeedReader = {
    findByToken: async (asked) => {
      lookedUp.push(asked);
      return asked === token ? feed : undefined;
    },
  };
  app = Fastify();
  await app.register(calendarFeedRoutes, { feeds });
});

afterEach(() => app.close());

describe('GET /ical/<token>.ics', () => {
  it('serves the feed with validators, no caching by shared caches, and no indexing', async () => {
    const response = await app.inject({ method: 'GET', url: `/ical/${token}.ics` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(response.body).toBe(renderCalendarFeed(feed));
    expect(response.headers.etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(response.headers['last-modified']).toBe('Sat, 28 Nov 2026 09:15:42 GMT');
    expect(response.headers['cache-control']).toBe('private, max-age=0');
    expect(response.headers['x-robots-tag']).toBe('noindex');
  });

  it('answers HEAD with the same headers and no body', async () => {
    const get = await app.inject({ method: 'GET', url: `/ical/${token}.ics` });
    const head = await app.inject({ method: 'HEAD', url: `/ical/${token}.ics` });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers.etag).toBe(get.headers.etag);
    expect(head.headers['last-modified']).toBe(get.headers['last-modified']);
    expect(head.headers['content-type']).toBe('text/calendar; charset=utf-8');
  });

  it('answers 304 to a matching If-None-Match, which wins over If-Modified-Since', async () => {
    const { headers } = await app.inject({ method: 'GET', url: `/ical/${token}.ics` });
    const etag = String(headers.etag);
    const matching = await app.inject({
      method: 'GET',
      url: `/ical/${token}.ics`,
      headers: {
        'if-none-match': `"other", W/${etag}`,
        'if-modified-since': 'Thu, 01 Jan 2026 00:00:00 GMT',
      },
    });
    expect(matching.statusCode).toBe(304);
    expect(matching.body).toBe('');
    expect(matching.headers.etag).toBe(etag);
    const stale = await app.inject({
      method: 'GET',
      url: `/ical/${token}.ics`,
      headers: { 'if-none-match': '"other"', 'if-modified-since': String(headers['last-modified']) },
    });
    expect(stale.statusCode).toBe(200);
    expect(stale.body).toBe(renderCalendarFeed(feed));
  });

  it('answers 304 to If-Modified-Since not older than Last-Modified, and 200 to an older one', async () => {
    const ask = (since: string) =>
      app.inject({ method: 'GET', url: `/ical/${token}.ics`, headers: { 'if-modified-since': since } });
    expect((await ask('Sat, 28 Nov 2026 09:15:42 GMT')).statusCode).toBe(304);
    expect((await ask('Sat, 28 Nov 2026 10:00:00 GMT')).statusCode).toBe(304);
    expect((await ask('Sat, 28 Nov 2026 09:15:41 GMT')).statusCode).toBe(200);
    expect((await ask('not a date')).statusCode).toBe(200);
  });

  it('answers the same plain 404 to unknown and malformed tokens, asking the reader only about well-formed ones', async () => {
    const unknown = await app.inject({ method: 'GET', url: `/ical/${'b'.repeat(64)}.ics` });
    const malformed = await app.inject({ method: 'GET', url: `/ical/${token}.txt` });
    for (const response of [unknown, malformed]) {
      expect(response.statusCode).toBe(404);
      expect(response.body).toBe('Not found');
      expect(response.headers.etag).toBeUndefined();
    }
    expect(lookedUp).toEqual(['b'.repeat(64)]);
    expect((await app.inject({ method: 'HEAD', url: `/ical/${'b'.repeat(64)}.ics` })).statusCode).toBe(404);
  });

  it('answers a failing read with a bare 500 that keeps the cause to the log', async () => {
    const failing = Fastify();
    await failing.register(calendarFeedRoutes, {
      feeds: {
        findByToken: async () => {
          throw new Error('connection to 10.0.0.7 refused');
        },
      },
    });
    const response = await failing.inject({ method: 'GET', url: `/ical/${token}.ics` });
    expect(response.statusCode).toBe(500);
    expect(response.body).toBe('Internal error');
    await failing.close();
  });
});
