import { Browser, formOf } from '@innkeep/auth/testing';
import { systemClock } from '@innkeep/domain';
import type { DatabaseHandle } from '@innkeep/storage';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { openOwnerDatabase, testAuthDeps, testOwner } from './support/app-deps.ts';
import { messageRuleMadeByAssistant } from './support/assistant-change.ts';
import { freePort } from './support/processes.ts';

// The whole path a host follows to answer "what did my assistant do?": an assistant connects over OAuth,
// changes something through /mcp, and the host's dashboard names the assistant beside the change.
describe('the dashboard in the server app', () => {
  let database: DatabaseHandle;
  let app: FastifyInstance;
  let baseUrl: string;

  beforeAll(async () => {
    database = await openOwnerDatabase();
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    app = buildApp({ ...testAuthDeps, baseUrl, database, clock: systemClock, logLevel: 'silent' });
    await app.listen({ port, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('welcomes someone signed out with the /mcp address of BASE_URL and the REST reference', async () => {
    const response = await fetch(`${baseUrl}/`);
    expect(response.status).toBe(200);
    const page = await response.text();
    expect(page).toContain(`<code>${baseUrl}/mcp</code>`);
    expect(page).toContain(`<a href="${baseUrl}/api/docs">REST API reference</a>`);
    expect((await fetch(`${baseUrl}/api/docs`, { redirect: 'follow' })).status).toBe(200);
  });

  it('shows a change made through /mcp with the name of the assistant that made it', async () => {
    const { ruleId, clientId } = await messageRuleMadeByAssistant(baseUrl, 'Claude');

    const browser = new Browser();
    const signInUrl = `${baseUrl}/login?next=%2F`;
    const { csrf } = formOf(await (await browser.get(signInUrl)).text());
    const form = new URLSearchParams({ csrf, email: testOwner.email, password: testOwner.password });
    const { response, url } = await browser.follow(await browser.post(signInUrl, form), signInUrl);
    expect(url).toBe(`${baseUrl}/`);
    const dashboard = await response.text();
    expect(dashboard).toContain('<strong class="wrap">Claude</strong>');
    const newest = /<ol class="activity">\s*<li>([\s\S]*?)<\/li>/.exec(dashboard)?.[1] ?? '';
    expect(newest).toContain(`<code>message_rule.create</code> · Message rule <code>${ruleId}</code>`);
    expect(newest).toContain('By Olivia Owner through <strong>Claude</strong>, an assistant (MCP)');

    // The assistant's filter finds it too.
    const filtered = await browser.get(`${baseUrl}/?app=${encodeURIComponent(clientId)}&kind=message_rule`);
    const entries = (await filtered.text()).match(/<li>\s*<p class="when">/g) ?? [];
    expect(entries).toHaveLength(1);
  });
});
