import { Browser, formOf, obtainAccessToken } from '@innkeep/auth/testing';
import { systemClock } from '@innkeep/domain';
import { createServiceMetrics, type ServiceMetrics } from '@innkeep/service-runtime';
import type { DatabaseHandle } from '@innkeep/storage';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { openOwnerDatabase, testAuthDeps, testOwner } from './support/app-deps.ts';
import { freePort } from './support/processes.ts';

describe('metrics and request logs of the server app', () => {
  let database: DatabaseHandle;
  let app: FastifyInstance;
  let metrics: ServiceMetrics;
  let baseUrl: string;
  const logLines: string[] = [];
  const owner = testOwner;

  beforeAll(async () => {
    database = await openOwnerDatabase();
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    metrics = createServiceMetrics();
    app = buildApp({
      ...testAuthDeps,
      baseUrl,
      database,
      clock: systemClock,
      logLevel: 'info',
      logDestination: { write: (line) => logLines.push(line) },
      metrics,
      mcpRateLimit: 2,
    });
    await app.listen({ port, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  const callGetUser = (token: string, extraHeaders: Record<string, string> = {}) =>
    fetch(`${baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        authorization: `Bearer ${token}`,
        ...extraHeaders,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'get_user', arguments: {} },
      }),
    });

  it('counts tool calls and rate-limit refusals, logs whose request it was, and never logs a secret', async () => {
    const { accessToken } = await obtainAccessToken({ baseUrl, ...owner, scopes: ['user:read'] });
    const secrets = [accessToken, 'legacy-auth-token-1234567890', 'innkeep_session=cookie-value-0987654321'];
    expect((await callGetUser(accessToken)).status).toBe(200);
    const second = await callGetUser(accessToken, {
      authtoken: 'legacy-auth-token-1234567890',
      cookie: 'innkeep_session=cookie-value-0987654321',
    });
    expect(second.status).toBe(200);
    expect((await callGetUser(accessToken)).status).toBe(429);

    const text = await metrics.registry.metrics();
    expect(text).toContain('mcp_tool_calls_total{tool="get_user",outcome="success"} 2');
    expect(text).toContain('rate_limit_refusals_total{route="/mcp"} 1');
    expect(text).toContain('http_requests_total{method="POST",route="/mcp",status="429"} 1');
    expect(text).toContain('http_requests_total{method="POST",route="/mcp",status="200"} 2');

    const completed = logLines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry.msg === 'request completed' && entry.accountId !== undefined);
    // Both answered calls and the refused one say whose they were.
    expect(completed).toHaveLength(3);
    expect(completed[0]).toMatchObject({
      accountId: expect.stringMatching(/^acc_/),
      userId: expect.stringMatching(/^usr_/),
      clientId: expect.any(String),
    });
    const everything = logLines.join('\n');
    for (const secret of secrets) expect(everything).not.toContain(secret);
  });

  it('logs whose request a signed-in account page was', async () => {
    const browser = new Browser();
    const login = await browser.get(`${baseUrl}/login`);
    const { action, csrf } = formOf(await login.text());
    const signIn = await browser.post(new URL(action, baseUrl).href, new URLSearchParams({ csrf, ...owner }));
    expect(signIn.status).toBe(303);
    expect((await browser.get(`${baseUrl}/settings`)).status).toBe(200);

    const settingsCompleted = logLines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry.msg === 'request completed' && entry.reqId === settingsRequestId());
    expect(settingsCompleted).toEqual([
      expect.objectContaining({
        accountId: expect.stringMatching(/^acc_/),
        userId: expect.stringMatching(/^usr_/),
      }),
    ]);
  });

  // The id of the last GET /settings, from its "incoming request" line.
  function settingsRequestId(): unknown {
    const incoming = logLines
      .map(
        (line) =>
          JSON.parse(line) as { msg?: string; reqId?: unknown; req?: { method?: string; url?: string } },
      )
      .filter(
        (entry) =>
          entry.msg === 'incoming request' && entry.req?.method === 'GET' && entry.req.url === '/settings',
      );
    return incoming.at(-1)?.reqId;
  }

  it('serves no metrics on the public port', async () => {
    expect((await fetch(`${baseUrl}/metrics`)).status).toBe(404);
  });
});
