import { Browser, formOf, obtainAccessToken } from '@innkeep/auth/testing';
import { demoExtraLogins, demoLogin, seedDemoData } from '@innkeep/demo';
import { systemClock } from '@innkeep/domain';
import { prepareDatabase } from '@innkeep/service-host';
import { createServiceMetrics, type ServiceMetrics } from '@innkeep/service-runtime';
import { createOperatorUseCases, type DatabaseHandle, openDatabase } from '@innkeep/storage';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { testAuthDeps } from './support/app-deps.ts';
import { freePort } from './support/processes.ts';

// A small demo (three listings, a month either side of today) is enough to tell a served list from an
// empty one, and seeds in seconds rather than minutes.
const demoListings = 3;
const restRateLimits = { perCredential: 20, withApiKey: 200 };

describe('/api in the server app', () => {
  let database: DatabaseHandle;
  let app: FastifyInstance;
  let metrics: ServiceMetrics;
  let baseUrl: string;
  let ownerToken: string;

  beforeAll(async () => {
    database = await openDatabase({ kind: 'pglite' });
    await prepareDatabase(database.db);
    await seedDemoData(database.db, {
      today: new Date().toISOString().slice(0, 10),
      listings: demoListings,
      historyYears: 0,
      forwardMonths: 1,
    });
    ownerToken = (
      await createOperatorUseCases({ db: database.db, clock: systemClock }).issueAuthToken({
        email: demoLogin.email,
      })
    ).authToken;
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    metrics = createServiceMetrics();
    app = buildApp({
      ...testAuthDeps,
      baseUrl,
      database,
      clock: systemClock,
      logLevel: 'silent',
      metrics,
      restRateLimits,
    });
    await app.listen({ port, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  const get = (path: string, headers: Record<string, string>) =>
    fetch(`${baseUrl}${path}`, { headers: { accept: 'application/json', ...headers } });

  it('serves GET /api/getUser to an authToken, with the configured limit in RateLimit headers', async () => {
    const response = await get('/api/getUser', { authToken: ownerToken });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ email: demoLogin.email });
    expect(response.headers.get('ratelimit-limit')).toBe(String(restRateLimits.perCredential));
  });

  it('matches operation names in lower case: /api/getlistings lists the account’s listings', async () => {
    const response = await get('/api/getlistings', { authToken: ownerToken });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { listings: { _id: string }[]; userID: string };
    expect(body.listings).toHaveLength(demoListings);
    expect(body.userID).toEqual(expect.any(String));
  });

  it('answers an unknown /api path with a JSON 404, credentials or not', async () => {
    for (const headers of [{}, { authToken: ownerToken }] as Record<string, string>[]) {
      const response = await get('/api/nope', headers);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await response.json()).toMatchObject({ code: 'not_found', message: expect.any(String) });
    }
  });

  it('serves the OpenAPI document and the reference page without credentials', async () => {
    const document = await get('/api/openapi.json', {});
    expect(document.status).toBe(200);
    expect(await document.json()).toMatchObject({ openapi: '3.1.0', servers: [{ url: baseUrl }] });
    const page = await fetch(`${baseUrl}/api/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('compresses an answer over 1 KB for a client that accepts it, and only then', async () => {
    // fetch asks for gzip, deflate and br, and decodes what comes back.
    const compressed = await get('/api/openapi.json', {});
    expect(compressed.headers.get('content-encoding')).toMatch(/^(br|gzip|deflate)$/);
    expect(await compressed.json()).toMatchObject({ openapi: '3.1.0' });
    const plain = await get('/api/openapi.json', { 'accept-encoding': 'identity' });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.json()).toMatchObject({ openapi: '3.1.0' });
  });

  it('accepts an access token bound to BASE_URL/api, which /mcp refuses', async () => {
    const { accessToken } = await obtainAccessToken({
      baseUrl,
      ...demoLogin,
      resource: 'api',
      scopes: ['user:read'],
    });
    const served = await get('/api/getUser', { authorization: `Bearer ${accessToken}` });
    expect(served.status).toBe(200);
    expect(await served.json()).toMatchObject({ email: demoLogin.email });
    const refused = await postMcp(accessToken, toolCall('get_user'));
    expect(refused.status).toBe(401);
  });

  it('still serves /mcp beside /api', async () => {
    const { accessToken } = await obtainAccessToken({ baseUrl, ...demoLogin, scopes: ['user:read'] });
    const response = await postMcp(accessToken, toolCall('get_user'));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      result: { structuredContent: { email: demoLogin.email } },
    });
  });

  it('counts an /api request refused for its rate limit in the metrics', async () => {
    const managerToken = (
      await createOperatorUseCases({ db: database.db, clock: systemClock }).issueAuthToken({
        email: demoExtraLogins.manager,
      })
    ).authToken;
    const statuses: number[] = [];
    for (let sent = 0; sent <= restRateLimits.perCredential; sent += 1) {
      statuses.push((await get('/api/getUser', { authToken: managerToken })).status);
    }
    expect(statuses.slice(0, -1).every((status) => status === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    expect(await metrics.registry.metrics()).toMatch(/rate_limit_refusals_total\{route="\/api\/getUser"\} 1/);
  });

  // Last: the token the page generates replaces the owner's, which the tests above use.
  it('answers the curl command the settings page prints, run exactly as printed', async () => {
    const browser = new Browser();
    const login = await browser.get(`${baseUrl}/login`);
    const { action, csrf } = formOf(await login.text());
    const signedIn = await browser.post(
      new URL(action, baseUrl).href,
      new URLSearchParams({ csrf, ...demoLogin }),
    );
    expect(signedIn.status).toBe(303);
    // The demo owner has a token already, so making a new one goes through the page that confirms it.
    const confirm = await (await browser.get(`${baseUrl}/settings/auth-token/replace`)).text();
    const tokenForm =
      /<form method="post" action="\/settings\/auth-token">[\s\S]*?name="csrf" value="([^"]+)"/.exec(confirm);
    const generated = await browser.post(
      `${baseUrl}/settings/auth-token`,
      new URLSearchParams({ csrf: tokenForm?.[1] ?? '', replace: 'yes' }),
    );
    expect(generated.status).toBe(200);
    const command = /<code>curl -H "authToken: ([^"]+)" (\S+)<\/code>/.exec(await generated.text());
    expect(command).not.toBeNull();
    const [, authToken = '', url = ''] = command ?? [];
    expect(url).toBe(`${baseUrl}/api/getListings`);

    // What curl sends: the one header given, and curl's default Accept.
    const response = await fetch(url, { headers: { authToken, accept: '*/*' } });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { listings: unknown[] }).listings).toHaveLength(demoListings);
  });

  function postMcp(token: string, message: unknown): Promise<Response> {
    return fetch(`${baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${token}`,
      },
      body: JSON.stringify(message),
    });
  }
});

function toolCall(name: string) {
  return { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: {} } };
}
