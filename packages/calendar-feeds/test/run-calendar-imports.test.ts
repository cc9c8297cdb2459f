import { readFileSync } from 'node:fs';
import type { DueCalendarImport } from '@innkeep/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunCalendarImportsOptions, runCalendarImports } from '../src/index.ts';
import { type ChannelServer, startChannelServer } from './support/channel-server.ts';
import { fakeCalendarImportQueue } from './support/fake-calendar-import-queue.ts';

const airbnb = readFileSync(new URL('fixtures/airbnb.ics', import.meta.url), 'utf8');
const etag = '"airbnb-v1"';
const lastModified = 'Fri, 27 Nov 2026 10:00:00 GMT';
const now = new Date('2026-11-28T09:00:00.000Z');
const inFifteenMinutes = new Date('2026-11-28T09:15:00.000Z');

describe('runCalendarImports', () => {
  let channel: ChannelServer;
  const options: RunCalendarImportsOptions = { allowPrivate: true, now: () => now, timeoutMs: 2_000 };

  /** A due link of listing `listingId` polling `path` of the channel, never read before. */
  function link(listingId: string, path: string): DueCalendarImport {
    return {
      accountId: 'acc_1',
      listingId,
      channelAccountId: 'cha_airbnb',
      channel: 'airbnb',
      url: channel.url(path),
      timeZone: 'Europe/Lisbon',
      today: '2026-11-28',
      etag: null,
      lastModified: null,
    };
  }

  beforeAll(async () => {
    channel = await startChannelServer();
    channel.serve('/airbnb.ics', (response, request) => {
      if (request.headers['if-none-match'] === etag) response.writeHead(304).end();
      else response.writeHead(200, { ETag: etag, 'Last-Modified': lastModified }).end(airbnb);
    });
    channel.serve('/login', (response) => response.writeHead(200).end('<html><body>Log in</body></html>'));
    channel.serve('/broken.ics', (response) => response.writeHead(500).end('oops'));
  });
  afterAll(async () => {
    await channel.close();
  });

  it('records a fetched feed’s stays and validators, then a 304 as unchanged on the next tick', async () => {
    const queue = fakeCalendarImportQueue([link('lst_a', '/airbnb.ics')]);
    expect(await runCalendarImports(queue, options)).toEqual({
      claimed: 1,
      imported: 1,
      unchanged: 0,
      failed: 0,
      errors: 0,
    });
    expect(queue.claims).toEqual([{ now, limit: 8, leaseMs: 120_000 }]);
    const key = { listingId: 'lst_a', channelAccountId: 'cha_airbnb', url: channel.url('/airbnb.ics') };
    expect(queue.calls).toEqual([
      {
        method: 'recordFeed',
        key,
        // The October stay ended before the listing's today: it holds no night to come.
        stays: [
          {
            uid: '1418fb94e984-6a0b2c4d8e1f3a5b7c9d0e2f4a6b8c0d@airbnb.com',
            startDate: '2026-12-03',
            endDate: '2026-12-06',
            summary: 'Reserved',
          },
          {
            uid: '1418fb94e984-0f1e2d3c4b5a69788796a5b4c3d2e1f0@airbnb.com',
            startDate: '2026-12-15',
            endDate: '2026-12-20',
            summary: 'Airbnb (Not available)',
          },
        ],
        validators: { etag, lastModified },
        now,
        nextPollAt: inFifteenMinutes,
      },
    ]);

    // The fake stored the validators as the store would; the next poll sends them and is told nothing changed.
    queue.calls.length = 0;
    expect(await runCalendarImports(queue, { ...options, intervalMs: 60_000 })).toEqual({
      claimed: 1,
      imported: 0,
      unchanged: 1,
      failed: 0,
      errors: 0,
    });
    expect(queue.calls).toEqual([
      { method: 'recordUnchanged', key, now, nextPollAt: new Date('2026-11-28T09:01:00.000Z') },
    ]);
    expect(channel.received.at(-1)?.headers).toMatchObject({
      'if-none-match': etag,
      'if-modified-since': lastModified,
    });
  });

  it('records a refused feed with the parser’s reason, and a failed fetch with its error', async () => {
    const queue = fakeCalendarImportQueue([link('lst_b', '/login'), link('lst_c', '/broken.ics')]);
    expect(await runCalendarImports(queue, options)).toEqual({
      claimed: 2,
      imported: 0,
      unchanged: 0,
      failed: 2,
      errors: 0,
    });
    const host = new URL(channel.url('/')).host;
    expect(
      queue.calls.map((call) => call.method === 'recordFailure' && [call.key.listingId, call.error]).sort(),
    ).toEqual([
      ['lst_b', 'The address returned a web page, not a calendar.'],
      ['lst_c', `The calendar at ${host} answered 500: oops`],
    ]);
    expect(queue.calls.every((call) => call.nextPollAt.getTime() === inFifteenMinutes.getTime())).toBe(true);
  });

  it('goes on with the other links when recording one throws, and counts it', async () => {
    const queue = fakeCalendarImportQueue([
      link('lst_down', '/airbnb.ics'),
      link('lst_b', '/login'),
      link('lst_a', '/airbnb.ics'),
    ]);
    queue.failFor('lst_down');
    expect(await runCalendarImports(queue, { ...options, concurrency: 1 })).toEqual({
      claimed: 3,
      imported: 1,
      unchanged: 0,
      failed: 1,
      errors: 1,
    });
    expect(queue.calls.map((call) => [call.method, call.key.listingId])).toEqual([
      ['recordFailure', 'lst_b'],
      ['recordFeed', 'lst_a'],
    ]);
  });

  it('passes each link’s validators to the fetch, claims with the options given, and counts a changed URL as claimed only', async () => {
    const queue = fakeCalendarImportQueue([
      { ...link('lst_a', '/airbnb.ics'), etag: '"e"', lastModified: 'then' },
    ]);
    const asked: unknown[] = [];
    const tick = await runCalendarImports(queue, {
      now: () => now,
      claimLimit: 5,
      leaseMs: 30_000,
      allowPrivate: true,
      timeoutMs: 1_234,
      fetchFeed: async (url, fetchOptions) => {
        asked.push({ url, ...fetchOptions });
        // The link's URL changes while it is polled: the store records nothing.
        queue.links.length = 0;
        return { kind: 'fetched', body: airbnb, etag: null, lastModified: null };
      },
    });
    expect(asked).toEqual([
      {
        url: channel.url('/airbnb.ics'),
        etag: '"e"',
        lastModified: 'then',
        allowPrivate: true,
        timeoutMs: 1_234,
      },
    ]);
    expect(queue.claims).toEqual([{ now, limit: 5, leaseMs: 30_000 }]);
    expect(tick).toEqual({ claimed: 1, imported: 0, unchanged: 0, failed: 0, errors: 0 });
  });

  it('does nothing when no link is due', async () => {
    const queue = fakeCalendarImportQueue([]);
    expect(await runCalendarImports(queue, options)).toEqual({
      claimed: 0,
      imported: 0,
      unchanged: 0,
      failed: 0,
      errors: 0,
    });
    expect(queue.calls).toEqual([]);
  });
});
