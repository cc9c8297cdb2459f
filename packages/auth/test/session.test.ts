import { createHash } from 'node:crypto';
import { testDatabaseKinds } from '@innkeep/storage/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebSessionStore, type WebSessionStore } from '../src/postgres/web-sessions.ts';
import { userAgentLabel } from '../src/web/user-agent-label.ts';
import {
  createHost,
  openPagesWorld,
  type PagesWorld,
  type TestHost,
} from './support/account-pages-harness.ts';

const minuteMs = 60 * 1000;
const hourMs = 60 * minuteMs;
const origin = { userAgent: 'Firefox on Windows', ipAddress: '203.0.113.5' };

describe.each(testDatabaseKinds)('web session store on %s', (kind) => {
  let world: PagesWorld;
  let store: WebSessionStore;
  let host: TestHost;

  beforeAll(async () => {
    world = await openPagesWorld(kind);
    store = createWebSessionStore(world.db, world.clock);
    host = await createHost(world);
  }, 180_000);

  afterAll(async () => {
    await world?.close();
  });

  async function storedRow(idHash: string) {
    return world.db.selectFrom('web_sessions').selectAll().where('id_hash', '=', idHash).executeTakeFirst();
  }

  it('keeps only the SHA-256 of the 256-bit random id the cookie carries', async () => {
    const { sessionId, session } = await store.start(host.userId, origin);
    expect(sessionId).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(sessionId, 'base64url')).toHaveLength(32);
    expect(session.idHash).toBe(createHash('sha256').update(sessionId).digest('base64url'));
    const rows = await world.db.selectFrom('web_sessions').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(sessionId);
    expect(await storedRow(session.idHash)).toMatchObject({
      user_id: host.userId,
      user_agent: 'Firefox on Windows',
      ip_address: '203.0.113.5',
    });
    expect((await store.find(sessionId))?.userId).toBe(host.userId);
  });

  it('gives a new id every time, and finds nothing for unknown, malformed or missing ids', async () => {
    const first = await store.start(host.userId, origin);
    const second = await store.start(host.userId, origin);
    expect(first.sessionId).not.toBe(second.sessionId);
    for (const id of [undefined, '', 'A'.repeat(43), `${first.sessionId}=`, first.session.idHash]) {
      expect(await store.find(id)).toBeNull();
    }
  });

  it('ends a session 12 hours after sign-in however active it is', async () => {
    const { sessionId } = await store.start(host.userId, origin);
    for (let hour = 1; hour < 12; hour += 1) {
      world.clock.advance(hourMs);
      expect(await store.find(sessionId)).not.toBeNull();
    }
    world.clock.advance(hourMs - 1000);
    expect(await store.find(sessionId)).not.toBeNull();
    world.clock.advance(1000);
    expect(await store.find(sessionId)).toBeNull();
  });

  it('ends a session left unused for 2 hours', async () => {
    const { sessionId } = await store.start(host.userId, origin);
    world.clock.advance(2 * hourMs - 1000);
    expect(await store.find(sessionId)).not.toBeNull();
    world.clock.advance(2 * hourMs - 1000);
    expect(await store.find(sessionId)).not.toBeNull();
    world.clock.advance(2 * hourMs);
    expect(await store.find(sessionId)).toBeNull();
  });

  it('records activity at most once a minute', async () => {
    const { sessionId, session } = await store.start(host.userId, origin);
    world.clock.advance(30 * 1000);
    await store.find(sessionId);
    expect((await storedRow(session.idHash))?.last_seen_at).toEqual(session.lastSeenAt);
    world.clock.advance(30 * 1000);
    const found = await store.find(sessionId);
    expect(found?.lastSeenAt).toEqual(world.clock.now());
    expect((await storedRow(session.idHash))?.last_seen_at).toEqual(world.clock.now());
  });

  it('ends one session, or every other one of the user, and lists the live ones newest first', async () => {
    const owner = await createHost(world);
    const someoneElse = await createHost(world);
    const laptop = await store.start(owner.userId, origin);
    world.clock.advance(2 * minuteMs);
    const phone = await store.start(owner.userId, { userAgent: 'Safari on iOS', ipAddress: '198.51.100.2' });
    world.clock.advance(2 * minuteMs);
    const tablet = await store.start(owner.userId, origin);
    const theirs = await store.start(someoneElse.userId, origin);

    const listed = await store.listForUser(owner.userId);
    expect(listed.map((session) => session.idHash)).toEqual([
      tablet.session.idHash,
      phone.session.idHash,
      laptop.session.idHash,
    ]);

    await store.end(tablet.sessionId);
    expect(await store.find(tablet.sessionId)).toBeNull();
    expect(await store.endOthers(owner.userId, phone.session.idHash)).toBe(1);
    expect(await store.find(laptop.sessionId)).toBeNull();
    expect(await store.find(phone.sessionId)).not.toBeNull();
    expect(await store.find(theirs.sessionId)).not.toBeNull();
  });

  it('ends the sessions of a deleted user with the user', async () => {
    const leaving = await createHost(world);
    const { sessionId } = await store.start(leaving.userId, origin);
    await world.db.deleteFrom('users').where('id', '=', leaving.userId).execute();
    expect(await store.find(sessionId)).toBeNull();
  });
});

describe('userAgentLabel', () => {
  it.each([
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0',
      'Firefox on Windows',
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
      'Safari on macOS',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0',
      'Edge on Windows',
    ],
    [
      'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
      'Chrome on Android',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      'Safari on iOS',
    ],
    ['curl/8.5.0', 'Other browser'],
    [undefined, 'Unknown browser'],
  ])('labels %s as %s', (header, label) => {
    expect(userAgentLabel(header)).toBe(label);
  });
});
