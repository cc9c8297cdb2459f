import { toolCatalogue } from '@innkeep/mcp-tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restRoutes } from '../src/route-catalogue.ts';
import type { RestRoute } from '../src/route-definition.ts';
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

// What every route of the catalogue must do before its operation runs, checked route by route: credentials,
// audience, scopes, roles and subscription are decided first, so no valid input is needed to test them.

/** The route's path with every parameter filled by a value no account has. */
function concretePath(route: RestRoute, lowerCase = false): string {
  const path = route.path.replace(/:(\w+)/g, 'none_$1');
  if (!lowerCase) return path;
  const [, name = '', ...rest] = path.split('/');
  return ['', name.toLowerCase(), ...rest].join('/');
}

const label = (route: RestRoute) => `${route.method} ${route.path}`;
const body = (route: RestRoute) => (route.method === 'POST' ? {} : undefined);
const writes = restRoutes.filter((route) => route.access === 'write');
const scoped = restRoutes.filter((route) => route.scopeAlternatives.every((scopes) => scopes.length > 0));

describe('the route catalogue', () => {
  it('declares each path once, whatever the letter case', () => {
    const keys = restRoutes.map((route) => `${route.method} ${route.path.toLowerCase()}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('serves the 19 Host Tools operations at their exact paths', () => {
    const hostTools = [
      'GET /getUser',
      'GET /getListings',
      'GET /getListing/:listingId',
      'POST /setListing/:listingId',
      'GET /getCalendar/:listingId/:startDate/:endDate',
      'POST /setPrices/:listingId',
      'GET /listingGroups',
      'GET /getListingGroup/:groupId',
      'GET /getReservations/:listingId/:startDate/:endDate',
      'GET /getReservation/:reservationId',
      'POST /createReservation',
      'POST /setReservation/:reservationId',
      'POST /cancelReservation/:reservationId',
      'POST /getQuote/:listingId',
      'POST /sendMessage/:reservationId',
      'GET /getReviews/:listingId',
      'GET /getWebhook',
      'POST /setWebhook',
      'DELETE /deleteWebhook',
    ];
    expect(restRoutes.map(label)).toEqual(expect.arrayContaining(hostTools));
  });

  it('serves every operation of the MCP tools in Innkeep’s own fields, not only in a Host Tools shape', () => {
    // A tool is named after its operation. A Host Tools route maps its operation's answer onto Host Tools'
    // fields and drops what has no place there (a night's status, a quote's nights), so it does not count.
    const native = new Set(
      restRoutes.filter((route) => route.tag !== 'Host Tools').map((route) => route.operationId),
    );
    const withoutRoute = toolCatalogue
      .map((tool) => tool.name)
      .filter((operationId) => !native.has(operationId));
    expect(toolCatalogue).toHaveLength(49);
    expect(withoutRoute).toEqual([]);
  });
});

describe('every route, before its operation runs', () => {
  let world: RestWorld;
  let running: RunningRestApp;
  let viewerToken: string;
  let lapsedToken: string;
  let managerToken: string;
  let partnerKey: string;
  let mcpBearer: string;
  let helpOnlyBearer: string;

  beforeAll(async () => {
    world = await openRestWorld('pglite');
    running = await startRestApp(world);
    viewerToken = (await demoViewer(world)).authToken;
    lapsedToken = await authTokenOf(world, demoUsers.lapsedOwner);
    managerToken = await authTokenOf(world, demoUsers.manager);
    partnerKey = (await world.operator.issuePartnerApiKey({ partnerName: 'Catalogue partner' })).apiKey;
    mcpBearer = await bearerTokenOf(running, { resource: 'mcp' });
    helpOnlyBearer = await bearerTokenOf(running, { scopes: ['help:read'] });
  }, 300_000);

  afterAll(async () => {
    await running?.close();
    await world?.close();
  });

  it('refuses a request without credentials with 401 JSON and a challenge', async () => {
    for (const route of restRoutes) {
      const answer = await callApi(running, route.method, concretePath(route), { body: body(route) });
      expect(answer.status, label(route)).toBe(401);
      expect(answer.body, label(route)).toMatchObject({ code: 'unauthenticated' });
      expect(answer.headers.get('www-authenticate'), label(route)).toContain('resource_metadata=');
    }
  });

  it('refuses a Bearer token bound to /mcp', async () => {
    for (const route of restRoutes) {
      const answer = await callApi(running, route.method, concretePath(route), {
        headers: { authorization: `Bearer ${mcpBearer}` },
        body: body(route),
      });
      expect(answer.status, label(route)).toBe(401);
    }
  });

  it('refuses a Bearer token without the route’s scopes with 403 insufficient_scope', async () => {
    const needingMore = scoped.filter(
      (route) => !route.scopeAlternatives.some((scopes) => scopes.every((scope) => scope === 'help:read')),
    );
    expect(needingMore.length).toBeGreaterThan(40);
    for (const route of needingMore) {
      const answer = await callApi(running, route.method, concretePath(route), {
        headers: { authorization: `Bearer ${helpOnlyBearer}` },
        body: body(route),
      });
      expect(answer.status, label(route)).toBe(403);
      expect(answer.body, label(route)).toMatchObject({ code: 'insufficient_scope' });
    }
  });

  it('refuses every write of a viewer with 403 permission_denied', async () => {
    expect(writes.length).toBeGreaterThan(20);
    for (const route of writes) {
      const answer = await callApi(running, route.method, concretePath(route), {
        headers: { authToken: viewerToken },
        body: body(route),
      });
      expect(answer.status, label(route)).toBe(403);
      expect(answer.body, label(route)).toMatchObject({ code: 'permission_denied' });
    }
  });

  it('refuses an account whose subscription lapsed with 403 subscription_inactive', async () => {
    for (const route of restRoutes) {
      const answer = await callApi(running, route.method, concretePath(route), {
        headers: { authToken: lapsedToken },
        body: body(route),
      });
      expect(answer.status, label(route)).toBe(403);
      expect(answer.body, label(route)).toMatchObject({ code: 'subscription_inactive' });
    }
  });

  it('lets a manager’s authToken with an apiKey through to the operation, on lower-case paths', async () => {
    for (const route of restRoutes) {
      const answer = await callApi(running, route.method, concretePath(route, true), {
        headers: { authToken: managerToken, apiKey: partnerKey },
        body: body(route),
      });
      // The operation ran (or validated its input): never a refusal of the credential, a scope or a role.
      expect([200, 201, 400, 404, 409, 422], label(route)).toContain(answer.status);
      expect(answer.headers.get('ratelimit-limit'), label(route)).toBe('1200');
    }
    expect(world.reported).toEqual([]);
  });
});
