import {
  defineOperation,
  getReservationsOperation,
  getUserOperation,
  updateListingOperation,
} from '@innkeep/operations';
import { testDatabaseKinds } from '@innkeep/storage/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineRoute } from '../src/route-definition.ts';
import {
  authTokenOf,
  bearerTokenOf,
  callApi,
  demoUsers,
  demoViewer,
  openRestWorld,
  type RestWorld,
  type RunningRestApp,
  startRestApp,
} from './support/rest-world.ts';

/** What a driver says when a statement fails: SQL and a stack that must never reach a caller. */
const driverFailure = Object.assign(
  new Error('relation "listings" does not exist: select secret_column from listings where id = $1'),
  { code: '42P01' },
);

// Three routes of the shapes every REST route has (a read, a write, a whole-unless-asked list), declared
// here so that the plugin's behaviour is tested apart from the catalogue; and one whose storage fails.
const routes = [
  defineRoute({
    operation: defineOperation({
      id: 'failing_read',
      scopes: ['listings:read'],
      access: 'read',
      input: z.object({}),
      output: z.object({}),
      run: async () => {
        throw driverFailure;
      },
    }),
    method: 'GET',
    path: '/failingRead',
    summary: 'Fails in storage.',
    tag: 'T',
  }),
  defineRoute({
    operation: getUserOperation,
    method: 'GET',
    path: '/getUser',
    summary: 'The user.',
    tag: 'T',
  }),
  defineRoute({
    operation: updateListingOperation,
    method: 'POST',
    path: '/updateListing/:listingId',
    summary: 'Changes a listing.',
    tag: 'T',
  }),
  defineRoute({
    operation: getReservationsOperation,
    method: 'GET',
    path: '/getReservations',
    summary: 'Reservations.',
    tag: 'T',
    paging: 'whole-unless-asked',
  }),
];

describe.each(testDatabaseKinds)('the REST API plugin on %s', (kind) => {
  let world: RestWorld;
  let running: RunningRestApp;
  let ownerToken: string;
  let listingId: string;

  beforeAll(async () => {
    world = await openRestWorld(kind);
    running = await startRestApp(world, { routes, rateLimits: { perCredential: 40, withApiKey: 400 } });
    ownerToken = await authTokenOf(world, demoUsers.owner);
    const owner = await world.operator.findUserByEmail(demoUsers.owner);
    const actor = {
      accountId: owner?.accountId ?? '',
      userId: owner?.userId ?? '',
      role: 'owner',
      via: 'cli',
      clientId: null,
    } as const;
    listingId = (await world.domain.listings.list(actor, { limit: 1 })).items[0]?.id ?? '';
  }, 300_000);

  afterAll(async () => {
    await running?.close();
    await world?.close();
  });

  it('answers an authToken with the operation’s output and RateLimit headers', async () => {
    const answer = await callApi(running, 'GET', '/getUser', { headers: { authToken: ownerToken } });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ email: demoUsers.owner });
    expect(answer.headers.get('ratelimit-limit')).toBe('40');
    expect(Number(answer.headers.get('ratelimit-remaining'))).toBeLessThan(40);
  });

  it('matches operation names in any letter case and with a trailing slash', async () => {
    for (const path of ['/getuser', '/GETUSER/', '/getUser/']) {
      const answer = await callApi(running, 'GET', path, { headers: { authToken: ownerToken } });
      expect(answer.status, path).toBe(200);
    }
  });

  it('refuses missing, unknown and lone credentials with 401 JSON', async () => {
    const none = await callApi(running, 'GET', '/getUser');
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({
      code: 'unauthenticated',
      message: expect.stringContaining('authToken'),
    });
    expect(none.headers.get('www-authenticate')).toContain('resource_metadata=');
    const unknown = await callApi(running, 'GET', '/getUser', { headers: { authToken: 'not-a-token' } });
    expect(unknown.status).toBe(401);
    const apiKeyAlone = await callApi(running, 'GET', '/getUser', { headers: { apiKey: 'whatever' } });
    expect(apiKeyAlone.status).toBe(401);
    expect(apiKeyAlone.body).toMatchObject({ message: expect.stringContaining('together with') });
  });

  it('refuses an unknown apiKey and raises the limit for a valid one', async () => {
    const unknown = await callApi(running, 'GET', '/getUser', {
      headers: { authToken: ownerToken, apiKey: 'ik_key_unknown' },
    });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toMatchObject({ message: expect.stringContaining('apiKey') });
    const { apiKey } = await world.operator.issuePartnerApiKey({ partnerName: 'Channel Co' });
    const partner = await callApi(running, 'GET', '/getUser', { headers: { authToken: ownerToken, apiKey } });
    expect(partner.status).toBe(200);
    expect(partner.headers.get('ratelimit-limit')).toBe('400');
  });

  it('lets a viewer read but not write, and changes nothing', async () => {
    const viewer = await demoViewer(world);
    const read = await callApi(running, 'GET', '/getUser', { headers: { authToken: viewer.authToken } });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ email: viewer.email });
    const write = await callApi(running, 'POST', `/updateListing/${listingId}`, {
      headers: { authToken: viewer.authToken },
      body: { nickname: 'viewer-was-here' },
    });
    expect(write.status).toBe(403);
    expect(write.body).toMatchObject({ code: 'permission_denied' });
    const after = await callApi(running, 'GET', '/getUser', { headers: { authToken: ownerToken } });
    expect(after.status).toBe(200);
  });

  it('refuses a lapsed subscription with 403 subscription_inactive', async () => {
    const token = await authTokenOf(world, demoUsers.lapsedOwner);
    const answer = await callApi(running, 'GET', '/getUser', { headers: { authToken: token } });
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ code: 'subscription_inactive', details: { status: 'past_due' } });
  });

  it('answers unknown paths, malformed JSON, other content types and huge bodies with JSON errors', async () => {
    const unknown = await callApi(running, 'GET', '/noSuchOperation', { headers: { authToken: ownerToken } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'not_found' });
    const malformed = await callApi(running, 'POST', `/updateListing/${listingId}`, {
      headers: { authToken: ownerToken },
      rawBody: '{"nickname": ',
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({
      code: 'invalid_argument',
      message: expect.stringContaining('JSON'),
    });
    const form = await callApi(running, 'POST', `/updateListing/${listingId}`, {
      headers: { authToken: ownerToken, 'content-type': 'application/x-www-form-urlencoded' },
      rawBody: 'nickname=x',
    });
    expect(form.status).toBe(415);
    expect(form.body).toMatchObject({ code: 'invalid_argument' });
    const huge = await callApi(running, 'POST', `/updateListing/${listingId}`, {
      headers: { authToken: ownerToken },
      rawBody: JSON.stringify({ nickname: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(huge.status).toBe(413);
    expect(huge.body).toMatchObject({ code: 'invalid_argument' });
  });

  it('answers a storage failure with 500 internal and a reference, never its SQL, code or stack', async () => {
    const failed = await callApi(running, 'GET', '/failingRead', { headers: { authToken: ownerToken } });
    expect(failed.status).toBe(500);
    expect(failed.body).toEqual({
      code: 'internal',
      message: expect.any(String),
      details: { reference: expect.any(String) },
    });
    const text = JSON.stringify(failed.body);
    for (const leak of ['select', 'secret_column', 'relation', '42P01', 'at ', '.ts']) {
      expect(text).not.toContain(leak);
    }
    const reference = (failed.body as { details: { reference: string } }).details.reference;
    expect(world.reported).toEqual([{ reference, cause: driverFailure }]);
    world.reported.length = 0;
  });

  it('validates input with the operation’s schema and names each problem', async () => {
    const answer = await callApi(running, 'POST', `/updateListing/${listingId}`, {
      headers: { authToken: ownerToken },
      body: { basePrice: -5 },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      code: 'invalid_argument',
      details: { issues: [{ path: 'basePrice' }] },
    });
  });

  it('reads another account’s id as 404', async () => {
    const answer = await callApi(running, 'POST', '/updateListing/lst_not_ours', {
      headers: { authToken: ownerToken },
      body: { nickname: 'x' },
    });
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ code: 'not_found' });
  });

  it('runs a write once per Idempotency-Key and refuses the key with another body', async () => {
    const headers = { authToken: ownerToken, 'idempotency-key': `key-${kind}-1` };
    const first = await callApi(running, 'POST', `/updateListing/${listingId}`, {
      headers,
      body: { nickname: 'Idem-1', minNights: 2 },
    });
    expect(first.status).toBe(200);
    const again = await callApi(running, 'POST', `/UPDATELISTING/${listingId}/`, {
      headers,
      body: { minNights: 2, nickname: 'Idem-1' },
    });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const other = await callApi(running, 'POST', `/updateListing/${listingId}`, {
      headers,
      body: { nickname: 'Idem-2' },
    });
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ code: 'conflict' });
  });

  it('returns the whole list unless limit or cursor is sent', async () => {
    const whole = await callApi(running, 'GET', '/getReservations', { headers: { authToken: ownerToken } });
    expect(whole.status).toBe(200);
    const all = whole.body as { items: { id: string }[]; hasMore: boolean };
    expect(all.hasMore).toBe(false);
    expect(all.items.length).toBeGreaterThan(500);
    expect(new Set(all.items.map((item) => item.id)).size).toBe(all.items.length);
    const page = await callApi(running, 'GET', '/getReservations?limit=7', {
      headers: { authToken: ownerToken },
    });
    const first = page.body as { items: { id: string }[]; hasMore: boolean; nextCursor: string };
    expect(first.items).toHaveLength(7);
    expect(first.hasMore).toBe(true);
    const next = await callApi(running, 'GET', `/getReservations?limit=7&cursor=${first.nextCursor}`, {
      headers: { authToken: ownerToken },
    });
    expect((next.body as { items: { id: string }[] }).items[0]?.id).toBe(all.items[7]?.id);
    const tooMany = await callApi(running, 'GET', '/getReservations?limit=501', {
      headers: { authToken: ownerToken },
    });
    expect(tooMany.status).toBe(400);
  });

  it('takes Bearer tokens for /api and for no resource, refuses /mcp tokens, and checks scopes', async () => {
    const apiToken = await bearerTokenOf(running, { scopes: ['user:read'] });
    const ok = await callApi(running, 'GET', '/getUser', {
      headers: { authorization: `Bearer ${apiToken}` },
    });
    expect(ok.status).toBe(200);
    const denied = await callApi(running, 'GET', '/getReservations?limit=1', {
      headers: { authorization: `Bearer ${apiToken}` },
    });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ code: 'insufficient_scope' });
    expect(denied.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    expect(denied.headers.get('www-authenticate')).toContain('reservations:read');
    const anyResource = await bearerTokenOf(running, { resource: null, scopes: ['user:read'] });
    expect(
      (await callApi(running, 'GET', '/getUser', { headers: { authorization: `Bearer ${anyResource}` } }))
        .status,
    ).toBe(200);
    const mcpToken = await bearerTokenOf(running, { resource: 'mcp', scopes: ['user:read'] });
    const refused = await callApi(running, 'GET', '/getUser', {
      headers: { authorization: `Bearer ${mcpToken}` },
    });
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ code: 'unauthenticated' });
  });

  it('answers over the limit with 429, Retry-After and the RateLimit headers', async () => {
    const token = await authTokenOf(world, demoUsers.manager);
    let last = await callApi(running, 'GET', '/getUser', { headers: { authToken: token } });
    for (let sent = 1; sent <= 40 && last.status === 200; sent += 1) {
      last = await callApi(running, 'GET', '/getUser', { headers: { authToken: token } });
    }
    expect(last.status).toBe(429);
    expect(last.body).toMatchObject({ code: 'rate_limited' });
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(last.headers.get('ratelimit-remaining')).toBe('0');
    expect(world.reported).toEqual([]);
  });
});
