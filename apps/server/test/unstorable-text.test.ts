import {
  authorizeUrl,
  Browser,
  formOf,
  pkcePair,
  type RegisteredClient,
  registerClient,
  tokenRequest,
} from '@innkeep/auth/testing';
import { systemClock } from '@innkeep/domain';
import { prepareDatabase } from '@innkeep/service-host';
import { type DatabaseHandle, openDatabase } from '@innkeep/storage';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { testAuthDeps } from './support/app-deps.ts';
import { freePort } from './support/processes.ts';

// Each of these once answered 500: PostgreSQL cannot store U+0000, and the value reached a query.
describe('requests holding U+0000 in the server app', () => {
  let database: DatabaseHandle;
  let app: FastifyInstance;
  let baseUrl: string;
  let client: RegisteredClient;
  const redirectUri = 'http://127.0.0.1:48123/callback';

  beforeAll(async () => {
    database = await openDatabase({ kind: 'pglite' });
    await prepareDatabase(database.db);
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    app = buildApp({ ...testAuthDeps, baseUrl, database, clock: systemClock, logLevel: 'silent' });
    await app.listen({ port, host: '127.0.0.1' });
    client = await registerClient(baseUrl, { redirect_uris: [redirectUri] });
  });

  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('answers 400 naming the parameter for an authorization request whose state holds one', async () => {
    const url = authorizeUrl(
      baseUrl,
      { client_id: client.client_id, redirect_uri: redirectUri },
      pkcePair().challenge,
      {
        state: 'a\u0000b',
      },
    );
    expect(url).toContain('state=a%00b');
    const response = await new Browser().get(url);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: 'invalid_request',
      error_description: expect.stringContaining(
        'The query parameter state must not contain the NUL character',
      ),
    });
  });

  it('answers 400 naming the field for a sign-in whose email holds one', async () => {
    const browser = new Browser();
    const page = await browser.get(`${baseUrl}/login`);
    const { action, csrf } = formOf(await page.text());
    const response = await browser.post(
      new URL(action, `${baseUrl}/login`).href,
      new URLSearchParams({ csrf, email: 'olivia\u0000@example.test', password: 'correct horse battery' }),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      code: 'invalid_argument',
      message: expect.stringContaining('The field email must not contain the NUL character'),
    });
  });

  it('answers 400 invalid_request for a token request holding one', async () => {
    const response = await tokenRequest(baseUrl, {
      grant_type: 'authorization_code',
      code: 'some-code',
      redirect_uri: redirectUri,
      code_verifier: pkcePair().verifier,
      client_id: `${client.client_id}\u0000`,
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      error: 'invalid_request',
      error_description: expect.stringContaining('client_id'),
    });
  });

  it('answers 400 invalid_client_metadata for a registration holding one', async () => {
    const response = await fetch(`${baseUrl}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [redirectUri], software_id: 'tool\u0000' }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: 'invalid_client_metadata',
      error_description: expect.stringContaining('software_id'),
    });
  });

  it('answers 400 invalid_request for a revocation holding one', async () => {
    const response = await fetch(`${baseUrl}/oauth/token/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: 'whatever', client_id: `${client.client_id}\u0000` }),
    });
    expect(response.status).toBe(400);
  });
});
