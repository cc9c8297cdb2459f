import { createServer, type Server } from 'node:http';
import { allScopes } from '@innkeep/domain';
import { testDatabaseKinds } from '@innkeep/storage/testing';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AccessTokenVerifier,
  createAccessTokenVerifier,
} from '../src/resource-server/access-token-verifier.ts';
import { SdkOauthClient } from '../src/testing.ts';
import {
  createOwner,
  freePort,
  type OauthWorld,
  openOauthWorld,
  type RunningServer,
  refresh,
  startServer,
  type TestUser,
} from './support/oauth-harness.ts';

/** A desktop MCP client's loopback listener: receives the browser's redirect after consent. */
async function startCallbackListener(): Promise<{
  server: Server;
  redirectUrl: string;
  /** Every URL the browser landed on, in order. */
  received: URL[];
}> {
  const port = await freePort();
  const received: URL[] = [];
  const server = createServer((request, response) => {
    received.push(new URL(request.url ?? '/', `http://127.0.0.1:${port}`));
    response.writeHead(200, { 'content-type': 'text/plain' }).end('You can close this window.');
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { server, redirectUrl: `http://127.0.0.1:${port}/callback`, received };
}

describe.each(testDatabaseKinds)('the MCP SDK client against the authorization server on %s', (kind) => {
  let world: OauthWorld;
  let server: RunningServer;
  let owner: TestUser;
  let verifier: AccessTokenVerifier;
  let listener: Awaited<ReturnType<typeof startCallbackListener>>;

  beforeAll(async () => {
    world = await openOauthWorld(kind);
    server = await startServer(world, { resourceServers: ['mcp'] });
    owner = await createOwner(world);
    verifier = createAccessTokenVerifier({
      db: world.db,
      resource: `${server.baseUrl}/mcp`,
      clock: world.clock,
    });
    listener = await startCallbackListener();
  }, 180_000);

  afterAll(async () => {
    listener?.server.close();
    await server?.app.close();
    await world?.close();
  });

  it('discovers, registers, authorizes, exchanges, refreshes with rotation, and revokes', async () => {
    // The client's "browser" is the person signing in and approving the consent page over HTTP, then
    // landing on the client's loopback listener.
    const client = new SdkOauthClient({
      person: owner,
      clientName: 'SDK end-to-end',
      redirectUrl: listener.redirectUrl,
      state: 'sdk-state-1',
      invalidatesCredentials: true,
      followsRedirect: true,
    });
    const serverUrl = `${server.baseUrl}/mcp`;

    // Discovery → dynamic registration → authorization in the browser → back on the loopback listener.
    expect(await auth(client, { serverUrl })).toBe('REDIRECT');
    expect(client.information?.client_id).toEqual(expect.any(String));
    expect(client.information).not.toHaveProperty('client_secret');
    const request = client.authorizations[0]?.url.searchParams;
    expect(request?.get('code_challenge_method')).toBe('S256');
    expect(request?.get('resource')).toBe(serverUrl);
    expect(request?.get('scope')).toBe(allScopes.join(' '));
    const callback = listener.received.at(-1)?.searchParams;
    expect(callback?.get('state')).toBe('sdk-state-1');
    expect(callback?.get('iss')).toBe(server.baseUrl);
    const code = callback?.get('code') ?? '';
    expect(code).not.toBe('');

    // Code → tokens.
    expect(await auth(client, { serverUrl, authorizationCode: code })).toBe('AUTHORIZED');
    const first = client.saved;
    expect(first).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect((await verifier.verify(first?.access_token ?? ''))?.userId).toBe(owner.userId);

    // With a refresh token stored, auth() refreshes; the refresh token rotates.
    expect(await auth(client, { serverUrl })).toBe('AUTHORIZED');
    const second = client.saved;
    expect(second?.refresh_token).toBeDefined();
    expect(second?.refresh_token).not.toBe(first?.refresh_token);
    expect(second?.access_token).not.toBe(first?.access_token);
    expect(await verifier.verify(second?.access_token ?? '')).not.toBeNull();

    // The old refresh token still works inside the grace window (a retried or parallel refresh)…
    const clientId = client.information?.client_id ?? '';
    const retried = await refresh(server.origin, clientId, first?.refresh_token ?? '');
    expect(retried.status).toBe(200);

    // …and is refused after it, which revokes the grant: every token of it stops working.
    world.clock.advance(61 * 1000);
    const late = await refresh(server.origin, clientId, first?.refresh_token ?? '');
    expect(late.status).toBe(400);
    expect(late.body.error).toBe('invalid_grant');
    expect(await verifier.verify(second?.access_token ?? '')).toBeNull();
    expect(await verifier.verify(String(retried.body.access_token))).toBeNull();

    // The SDK notices its refresh token is dead and starts over, keeping its registration.
    expect(await auth(client, { serverUrl })).toBe('REDIRECT');
    expect(client.information?.client_id).toBe(clientId);
    expect(listener.received).toHaveLength(2);
    const again = listener.received.at(-1)?.searchParams.get('code') ?? '';
    expect(await auth(client, { serverUrl, authorizationCode: again })).toBe('AUTHORIZED');
    const third = client.saved;
    expect(await verifier.verify(third?.access_token ?? '')).not.toBeNull();

    // Revocation (RFC 7009): the verifier refuses the token at once.
    const revoked = await fetch(`${server.origin}/oauth/token/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: third?.access_token ?? '', client_id: clientId }).toString(),
    });
    expect(revoked.status).toBe(200);
    expect(await verifier.verify(third?.access_token ?? '')).toBeNull();
  });
});
