import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type FetchCalendarFeedOptions,
  fetchCalendarFeed,
  maxCalendarFeedBytes,
  parseCalendarFeed,
} from '../src/index.ts';
import { type ChannelServer, startChannelServer } from './support/channel-server.ts';

const airbnb = readFileSync(new URL('fixtures/airbnb.ics', import.meta.url), 'utf8');
const etag = '"feed-v1"';
const lastModified = 'Fri, 27 Nov 2026 10:00:00 GMT';
const local: FetchCalendarFeedOptions = { allowPrivate: true };

describe('fetchCalendarFeed', () => {
  let channel: ChannelServer;

  beforeAll(async () => {
    channel = await startChannelServer();
  });
  beforeEach(() => {
    channel.received.length = 0;
    channel.serve('/feed.ics', (response, request) => {
      if (request.headers['if-none-match'] === etag) {
        response.writeHead(304, { ETag: etag }).end();
        return;
      }
      response
        .writeHead(200, { 'Content-Type': 'text/calendar', ETag: etag, 'Last-Modified': lastModified })
        .end(airbnb);
    });
  });
  afterAll(async () => {
    await channel.close();
  });

  it('GETs the feed with its headers and answers the body with its validators', async () => {
    expect(await fetchCalendarFeed(channel.url('/feed.ics?token=s3cret'), local)).toEqual({
      kind: 'fetched',
      body: airbnb,
      etag,
      lastModified,
    });
    const [request] = channel.received;
    expect(request?.path).toBe('/feed.ics?token=s3cret');
    expect(request?.headers).toMatchObject({
      'user-agent': 'Innkeep-Calendar/1',
      accept: 'text/calendar, */*;q=0.5',
      'accept-encoding': 'gzip',
    });
    expect(request?.headers).not.toHaveProperty('if-none-match');
    expect(request?.headers).not.toHaveProperty('if-modified-since');
  });

  it('sends the stored validators back, and a 304 is not_modified', async () => {
    expect(await fetchCalendarFeed(channel.url('/feed.ics'), { ...local, etag, lastModified })).toEqual({
      kind: 'not_modified',
    });
    expect(channel.received[0]?.headers).toMatchObject({
      'if-none-match': etag,
      'if-modified-since': lastModified,
    });
  });

  it('fetches the feed whole when the stored ETag no longer matches', async () => {
    const fetched = await fetchCalendarFeed(channel.url('/feed.ics'), { ...local, etag: '"feed-v0"' });
    expect(fetched).toMatchObject({ kind: 'fetched', body: airbnb, etag });
  });

  it('decompresses a gzip answer', async () => {
    channel.serve('/gzip.ics', (response) =>
      response.writeHead(200, { 'Content-Encoding': 'gzip' }).end(gzipSync(airbnb)),
    );
    expect(await fetchCalendarFeed(channel.url('/gzip.ics'), local)).toEqual({
      kind: 'fetched',
      body: airbnb,
      etag: null,
      lastModified: null,
    });
  });

  it('decodes the body as UTF-8', async () => {
    const accented = airbnb.replace('SUMMARY:Reserved', 'SUMMARY:Réservé – Zoë');
    channel.serve('/utf8.ics', (response) => response.writeHead(200).end(Buffer.from(accented, 'utf8')));
    expect(await fetchCalendarFeed(channel.url('/utf8.ics'), local)).toMatchObject({ body: accented });
  });

  it('hands an HTML page over as it is: the parser refuses it', async () => {
    channel.serve('/login', (response) =>
      response.writeHead(200, { 'Content-Type': 'text/html' }).end('<!DOCTYPE html><html>Log in</html>'),
    );
    const fetched = await fetchCalendarFeed(channel.url('/login'), local);
    expect(fetched).toMatchObject({ kind: 'fetched', body: '<!DOCTYPE html><html>Log in</html>' });
    if (fetched.kind !== 'fetched') throw new Error('not fetched');
    expect(parseCalendarFeed(fetched.body, { timeZone: 'Europe/Lisbon' })).toEqual({
      ok: false,
      reason: 'The address returned a web page, not a calendar.',
    });
  });

  it('stops reading a body larger than 2 MiB and fails, without waiting for its end', async () => {
    let written = 0;
    let closedEarly: Promise<boolean> = Promise.resolve(false);
    channel.serve('/huge.ics', (response) => {
      response.writeHead(200, { 'Content-Type': 'text/calendar' });
      closedEarly = new Promise((resolve) => response.on('close', () => resolve(!response.writableEnded)));
      // Streams 8 MiB: only cutting it off at the limit lets the fetch end early.
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const total = 8 * 1024 * 1024;
      const pump = () => {
        while (!response.destroyed && written < total) {
          written += chunk.length;
          if (!response.write(chunk)) break;
        }
        if (written >= total) response.end();
        else if (!response.destroyed) response.once('drain', pump);
      };
      pump();
    });
    expect(await fetchCalendarFeed(channel.url('/huge.ics'), local)).toEqual({
      kind: 'failed',
      error: `The calendar at ${new URL(channel.url('/')).host} is larger than 2 MiB, far more than one listing’s calendar.`,
    });
    expect(await closedEarly).toBe(true);
    expect(written).toBeLessThan(8 * 1024 * 1024);
  });

  it('applies the 2 MiB limit to the decompressed body, not only to what travels', async () => {
    const huge = gzipSync(Buffer.alloc(maxCalendarFeedBytes + 1, 'x'));
    expect(huge.length).toBeLessThan(maxCalendarFeedBytes / 100);
    channel.serve('/bomb.ics', (response) =>
      response.writeHead(200, { 'Content-Encoding': 'gzip' }).end(huge),
    );
    expect(await fetchCalendarFeed(channel.url('/bomb.ics'), local)).toMatchObject({
      kind: 'failed',
      error: expect.stringContaining('is larger than 2 MiB'),
    });
  });

  it('accepts a body of exactly 2 MiB', async () => {
    const exact = Buffer.alloc(maxCalendarFeedBytes, 'x');
    channel.serve('/exact.ics', (response) => response.writeHead(200).end(exact));
    const fetched = await fetchCalendarFeed(channel.url('/exact.ics'), local);
    expect(fetched.kind === 'fetched' && fetched.body.length).toBe(maxCalendarFeedBytes);
  });

  it('gives up on a channel that does not answer within the timeout', async () => {
    channel.serve('/silent.ics', () => {});
    const started = performance.now();
    expect(await fetchCalendarFeed(channel.url('/silent.ics'), { ...local, timeoutMs: 200 })).toEqual({
      kind: 'failed',
      error: `The calendar at ${new URL(channel.url('/')).host} did not answer within 200 ms.`,
    });
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('gives up on a body that trickles in past the timeout', async () => {
    channel.serve('/slow.ics', (response) => {
      response.writeHead(200);
      response.write('BEGIN:VCALENDAR\r\n');
      const timer = setInterval(() => response.write('X-PADDING:1\r\n'), 50);
      response.on('close', () => clearInterval(timer));
    });
    expect(await fetchCalendarFeed(channel.url('/slow.ics'), { ...local, timeoutMs: 300 })).toMatchObject({
      kind: 'failed',
      error: expect.stringMatching(/did not answer within 300 ms\.$/),
    });
  });

  it('reports a non-2xx answer with its status and the start of its body', async () => {
    channel.serve('/broken.ics', (response) => response.writeHead(500).end('Internal error\n\n  try later'));
    expect(await fetchCalendarFeed(channel.url('/broken.ics'), local)).toEqual({
      kind: 'failed',
      error: `The calendar at ${new URL(channel.url('/')).host} answered 500: Internal error try later`,
    });
    expect(await fetchCalendarFeed(channel.url('/gone.ics'), local)).toMatchObject({
      error: expect.stringMatching(/answered 404: No such calendar$/),
    });
    channel.serve('/empty.ics', (response) => response.writeHead(503).end());
    expect(await fetchCalendarFeed(channel.url('/empty.ics'), local)).toMatchObject({
      error: expect.stringMatching(/answered 503\.$/),
    });
  });

  it('follows up to 3 redirects, asking each target with the same headers', async () => {
    channel.serve('/r1', (response) => response.writeHead(301, { Location: '/feed.ics' }).end());
    channel.serve('/r2', (response) => response.writeHead(307, { Location: channel.url('/r1') }).end());
    channel.serve('/r3', (response) => response.writeHead(302, { Location: '/r2' }).end());
    expect(await fetchCalendarFeed(channel.url('/r3'), { ...local, etag: '"old"' })).toMatchObject({
      kind: 'fetched',
      body: airbnb,
    });
    expect(channel.received.map((request) => request.path)).toEqual(['/r3', '/r2', '/r1', '/feed.ics']);
    expect(channel.received.every((request) => request.headers['if-none-match'] === '"old"')).toBe(true);
  });

  it('refuses a fourth redirect, without asking its target', async () => {
    channel.serve('/r1', (response) => response.writeHead(308, { Location: '/feed.ics' }).end());
    channel.serve('/r2', (response) => response.writeHead(303, { Location: '/r1' }).end());
    channel.serve('/r3', (response) => response.writeHead(302, { Location: '/r2' }).end());
    channel.serve('/r4', (response) => response.writeHead(301, { Location: '/r3' }).end());
    expect(await fetchCalendarFeed(channel.url('/r4'), local)).toEqual({
      kind: 'failed',
      error: `The calendar address redirected more than 3 times (the last at ${new URL(channel.url('/')).host}); at most 3 redirects are followed.`,
    });
    expect(channel.received.map((request) => request.path)).toEqual(['/r4', '/r3', '/r2', '/r1']);
  });

  it('without allowPrivate, refuses http, and loopback by address and by name, asking nothing', async () => {
    const port = new URL(channel.url('/')).port;
    expect(await fetchCalendarFeed(channel.url('/feed.ics'))).toEqual({
      kind: 'failed',
      error: 'Calendars are fetched over https only, not http:.',
    });
    expect(await fetchCalendarFeed(`https://127.0.0.1:${port}/feed.ics`)).toEqual({
      kind: 'failed',
      error:
        'The calendar address points to 127.0.0.1, a loopback, private or otherwise special-use address; calendars are fetched from public addresses only.',
    });
    // A name is checked once resolved, when the connection is made.
    expect(await fetchCalendarFeed(`https://localhost:${port}/feed.ics`)).toMatchObject({
      kind: 'failed',
      error: expect.stringMatching(
        /^The calendar address points to localhost, which resolves to (127\.0\.0\.1|::1), a loopback, private or otherwise special-use address; calendars are fetched from public addresses only\.$/,
      ),
    });
    expect(channel.received).toEqual([]);
  });

  it('names the host but never the path or query of the URL in its errors', async () => {
    channel.serve('/private/s3cret.ics', (response) => response.writeHead(500).end());
    const fetched = await fetchCalendarFeed(channel.url('/private/s3cret.ics?key=t0ken'), local);
    expect(fetched).toMatchObject({ kind: 'failed' });
    const error = fetched.kind === 'failed' ? fetched.error : '';
    expect(error).toContain('127.0.0.1');
    expect(error).not.toMatch(/s3cret|t0ken/);
  });

  it('reports a refused connection and an invalid URL as failures', async () => {
    const closed = await startChannelServer();
    const url = closed.url('/feed.ics');
    await closed.close();
    expect(await fetchCalendarFeed(url, local)).toMatchObject({
      kind: 'failed',
      error: expect.stringContaining('could not be read: connect ECONNREFUSED'),
    });
    expect(await fetchCalendarFeed('not a url', local)).toEqual({
      kind: 'failed',
      error: 'The calendar address is not a valid URL.',
    });
  });
});
