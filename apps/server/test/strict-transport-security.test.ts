import { systemClock } from '@innkeep/domain';
import { prepareDatabase } from '@innkeep/service-host';
import { type DatabaseHandle, openDatabase } from '@innkeep/storage';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { testAuthDeps } from './support/app-deps.ts';

const hsts = 'max-age=31536000; includeSubDomains';

// Pages, the OAuth endpoints (answered by oidc-provider on the raw response), /mcp, the health check,
// errors and unknown paths: every response of the app.
const requests = [
  { method: 'GET', url: '/login' },
  { method: 'GET', url: '/settings' },
  { method: 'GET', url: '/.well-known/oauth-authorization-server' },
  { method: 'GET', url: '/oauth/jwks' },
  { method: 'POST', url: '/oauth/token', payload: 'grant_type=authorization_code&code=nope' },
  { method: 'POST', url: '/mcp', payload: '{}' },
  { method: 'GET', url: '/health' },
  { method: 'GET', url: '/no-such-page' },
] as const;

function contentTypeOf(request: (typeof requests)[number]): string {
  return request.url === '/mcp' ? 'application/json' : 'application/x-www-form-urlencoded';
}

describe('Strict-Transport-Security', () => {
  let database: DatabaseHandle;
  let secure: FastifyInstance;
  let plain: FastifyInstance;

  beforeAll(async () => {
    database = await openDatabase({ kind: 'pglite' });
    await prepareDatabase(database.db);
    const deps = { ...testAuthDeps, database, clock: systemClock, logLevel: 'silent' } as const;
    secure = buildApp({ ...deps, baseUrl: 'https://innkeep.example' });
    plain = buildApp({ ...deps, baseUrl: 'http://127.0.0.1:3000' });
  });

  afterAll(async () => {
    await secure?.close();
    await plain?.close();
    await database?.close();
  });

  it.each(requests)('is sent on $method $url when BASE_URL is https', async (request) => {
    const response = await secure.inject({ ...request, headers: { 'content-type': contentTypeOf(request) } });
    expect(response.headers['strict-transport-security']).toBe(hsts);
  });

  it.each(requests)('is not sent on $method $url when BASE_URL is http', async (request) => {
    const response = await plain.inject({ ...request, headers: { 'content-type': contentTypeOf(request) } });
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });
});
