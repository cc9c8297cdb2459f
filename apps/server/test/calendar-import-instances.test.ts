import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authMigrations } from '@innkeep/auth';
import { domainMigrations } from '@innkeep/storage';
import { openTestDatabase, type TestDatabase } from '@innkeep/storage/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seedOwner } from './support/seed-owner.ts';
import { type ServerProcess, startServerProcess } from './support/server-process.ts';

// The import queue's leases and the feed's application are unit-tested in @innkeep/storage and
// @innkeep/calendar-feeds; here real server processes (src/main.ts) poll channel calendars served by a local
// server playing the channel, to show end to end what the schedule promises: two instances poll each link
// once, and a restart in the middle of polls (both instances killed while feeds are in flight) loses nothing.

const owner = {
  email: 'calendars@example.test',
  password: 'correct horse battery',
  accountName: 'Calendar Stays',
  listingIdPrefix: 'lst_ical_',
} as const;
// No more than one instance fetches at once (4), so that every link's fetch is in flight when both are killed.
const listingCount = 4;
const channelAccountId = 'cha_ical_airbnb';

/** The environment of every server process here: a loopback channel, polled every minute. */
const serverEnv = {
  CALENDAR_IMPORT_ALLOW_PRIVATE: 'true',
  CALENDAR_IMPORT_INTERVAL_MINUTES: '1',
  // Only the poller works here.
  MESSAGE_RULES: 'off',
  WEBHOOKS: 'off',
};

/** One all-day stay of a listing's feed. */
interface FeedStay {
  readonly uid: string;
  readonly start: string;
  readonly end: string;
}

/** A channel's calendar of `stays`, as Airbnb shapes it. */
function feedOf(stays: readonly FeedStay[]): string {
  const events = stays.map((stay) =>
    [
      'BEGIN:VEVENT',
      `DTSTAMP:20261128T000000Z`,
      `DTSTART;VALUE=DATE:${stay.start.replaceAll('-', '')}`,
      `DTEND;VALUE=DATE:${stay.end.replaceAll('-', '')}`,
      `UID:${stay.uid}`,
      'SUMMARY:Reserved',
      'END:VEVENT',
    ].join('\r\n'),
  );
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Test Channel//EN',
    ...events,
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}

/** A local server playing the channel: one feed per listing at `/<listingId>.ics`, each request counted. */
class ChannelCalendars {
  readonly requests: string[] = [];
  readonly feeds = new Map<string, FeedStay[]>();
  /** Milliseconds every answer waits before it is sent. */
  delayMs = 0;
  #server: Server | undefined;
  readonly #answers = new Set<NodeJS.Timeout>();

  async start(): Promise<void> {
    this.#server = createServer((request, response) => {
      const path = request.url ?? '';
      this.requests.push(path);
      const stays = this.feeds.get(path.replace(/^\/(.*)\.ics$/, '$1'));
      const answer = setTimeout(() => {
        this.#answers.delete(answer);
        if (stays === undefined) response.writeHead(404).end();
        else response.writeHead(200, { 'Content-Type': 'text/calendar' }).end(feedOf(stays));
      }, this.delayMs);
      this.#answers.add(answer);
    });
    await new Promise<void>((resolve) => this.#server?.listen(0, '127.0.0.1', resolve));
  }

  url(listingId: string): string {
    const { port } = (this.#server as Server).address() as AddressInfo;
    return `http://127.0.0.1:${port}/${listingId}.ics`;
  }

  requestsFor(listingId: string): number {
    return this.requests.filter((path) => path === `/${listingId}.ics`).length;
  }

  async close(): Promise<void> {
    for (const answer of this.#answers) clearTimeout(answer);
    this.#server?.closeAllConnections();
    await new Promise((resolve) => this.#server?.close(resolve));
  }
}

/** The nights each listing's channel holds here, as `start/end` ranges by listing. */
async function channelHolds(database: TestDatabase): Promise<Record<string, string[]>> {
  const { rows } = await sql<{ listing_id: string; nights: string }>`
    select listing_id, lower(nights)::text || '/' || upper(nights)::text as nights from calendar_holds
    where block_reason = 'channel' order by listing_id, lower(nights)`.execute(database.db);
  const holds: Record<string, string[]> = {};
  for (const row of rows) holds[row.listing_id] = [...(holds[row.listing_id] ?? []), row.nights];
  return holds;
}

async function importStatuses(database: TestDatabase): Promise<string[]> {
  const { rows } = await sql<{ import_status: string | null }>`
    select import_status from listing_channel_links order by listing_id`.execute(database.db);
  return rows.map((row) => row.import_status ?? 'none');
}

describe('channel calendars polled by server instances on one PostgreSQL database', () => {
  let database: TestDatabase;
  let channel: ChannelCalendars;
  let authToken: string;
  let listingIds: string[];
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    database = await openTestDatabase('postgres', { ...domainMigrations, ...authMigrations });
    let accountId: string;
    ({ accountId, authToken, listingIds } = await seedOwner(database, owner, listingCount));
    await database.db
      .insertInto('channel_accounts')
      .values({
        id: channelAccountId,
        account_id: accountId,
        channel: 'airbnb',
        display_name: 'Airbnb',
        connection_type: 'ical',
        status: 'connected',
      })
      .execute();
    await database.db
      .insertInto('listing_channel_links')
      .values(
        listingIds.map((listingId) => ({
          listing_id: listingId,
          channel_account_id: channelAccountId,
          external_listing_id: `airbnb-${listingId}`,
        })),
      )
      .execute();
    channel = new ChannelCalendars();
    await channel.start();
    listingIds.forEach((listingId, index) => {
      channel.feeds.set(listingId, [
        { uid: `${listingId}-a@airbnb.test`, start: `2031-01-${10 + index}`, end: `2031-01-${13 + index}` },
      ]);
    });
  });

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.kill()));
    await channel?.close();
    await database?.close();
  });

  it('polls each link once with two instances, then resumes after both are killed mid-poll', async () => {
    servers.push(await startServerProcess(database.url ?? '', serverEnv));
    servers.push(await startServerProcess(database.url ?? '', serverEnv));
    const [first] = servers as [ServerProcess, ServerProcess];

    for (const listingId of listingIds) {
      const response = await fetch(
        `${first.baseUrl}/api/setCalendarImportUrl/${listingId}/${channelAccountId}`,
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', authToken },
          body: JSON.stringify({ url: channel.url(listingId) }),
        },
      );
      expect(response.status, await response.clone().text()).toBe(200);
      expect(await response.json()).toMatchObject({ calendarImport: { status: 'pending', heldStays: 0 } });
    }

    // Both instances tick every 10 s; the links are due at once, and each is fetched by one of them.
    await vi.waitFor(
      async () => expect(await importStatuses(database)).toEqual(listingIds.map(() => 'connected')),
      { timeout: 45_000, interval: 250 },
    );
    expect(listingIds.map((listingId) => channel.requestsFor(listingId))).toEqual(listingIds.map(() => 1));
    expect(await channelHolds(database)).toEqual(
      Object.fromEntries(
        listingIds.map((listingId, index) => [listingId, [`2031-01-${10 + index}/2031-01-${13 + index}`]]),
      ),
    );

    // Mid-schedule: the next polls come due (time passes: the minute is up), the channel is slow, and both
    // instances are killed while its answers are in flight, holding the links' leases.
    channel.delayMs = 60_000;
    const before = channel.requests.length;
    await sql`update listing_channel_links set import_next_poll_at = now()`.execute(database.db);
    await vi.waitFor(() => expect(channel.requests.length).toBe(before + listingCount), {
      timeout: 45_000,
      interval: 100,
    });
    await Promise.all(servers.map((server) => server.kill()));
    const { rows: leased } = await sql<{ leased: number }>`
      select count(*)::integer as leased from listing_channel_links
      where import_lease_until > now()`.execute(database.db);
    expect(leased[0]?.leased).toBe(listingCount);

    // The channel moves one stay and cancels another; the dead instances' leases run out (time passes again).
    channel.delayMs = 0;
    const [moved, cancelled] = listingIds as [string, string];
    channel.feeds.set(moved, [{ uid: `${moved}-a@airbnb.test`, start: '2031-02-01', end: '2031-02-05' }]);
    channel.feeds.set(cancelled, []);
    await sql`update listing_channel_links set import_lease_until = now()`.execute(database.db);

    servers.push(await startServerProcess(database.url ?? '', serverEnv));
    await vi.waitFor(
      async () => {
        const holds = await channelHolds(database);
        expect(holds[moved]).toEqual(['2031-02-01/2031-02-05']);
        expect(holds[cancelled]).toBeUndefined();
      },
      { timeout: 45_000, interval: 250 },
    );
    // Every link was polled again, once, by the new instance: nothing waited for its next minute.
    await vi.waitFor(
      () =>
        expect(listingIds.map((listingId) => channel.requestsFor(listingId))).toEqual(
          listingIds.map(() => 3),
        ),
      { timeout: 45_000, interval: 250 },
    );
    expect(await importStatuses(database)).toEqual(listingIds.map(() => 'connected'));
    for (const server of servers.slice(2)) {
      expect(server.child.exitCode, server.output()).toBeNull();
      expect(server.output()).not.toMatch(/Polling channel calendars failed/);
    }
  });
});
