import { authorizeInBrowser, authorizeUrl, Browser, pkcePair, registerClient } from '@innkeep/auth/testing';
import { allScopes, systemClock } from '@innkeep/domain';
import type { DatabaseHandle } from '@innkeep/storage';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { openOwnerDatabase, testAuthDeps, testOwner } from './support/app-deps.ts';
import { freePort } from './support/processes.ts';

// Each route tells the authorization server the scopes it uses, so an app asking for everything is offered,
// and granted, only what the route it connects to can use: the list its protected resource metadata gives.
describe('the scopes each route of the server app offers', () => {
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

  it.each([
    ['mcp', ['webhooks:manage', 'locks:write', 'listingGroups:write']],
    ['api', ['locks:write']],
  ])('/%s: consent offers exactly its metadata scopes, not %j', async (resource, unused) => {
    const metadata = (await (
      await fetch(`${baseUrl}/.well-known/oauth-protected-resource/${resource}`)
    ).json()) as { scopes_supported: string[] };
    for (const scope of unused) expect(metadata.scopes_supported).not.toContain(scope);

    const redirectUri = 'http://127.0.0.1:48123/callback';
    const client = await registerClient(baseUrl, {
      client_name: 'Everything',
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: 'none',
      scope: allScopes.join(' '),
    });
    const url = authorizeUrl(
      baseUrl,
      { client_id: client.client_id, redirect_uri: redirectUri },
      pkcePair().challenge,
      { scope: allScopes.join(' '), resource: `${baseUrl}/${resource}` },
    );
    const { offered, redirect } = await authorizeInBrowser(new Browser(), url, testOwner);
    expect(redirect.searchParams.get('code')).not.toBeNull();
    expect([...(offered ?? [])].sort()).toEqual([...metadata.scopes_supported].sort());
  });
});
