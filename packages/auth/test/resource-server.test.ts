import { allScopes } from '@innkeep/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccessTokenVerifier } from '../src/resource-server/access-token-verifier.ts';
import { resourceServer } from '../src/resource-server/resource-server.ts';
import {
  authorizedCode,
  buildServerApp,
  createOwner,
  freePort,
  issueTokens,
  type OauthWorld,
  openOauthWorld,
  type RunningServer,
  type TestUser,
  tokenRequest,
} from './support/oauth-harness.ts';

// The resource server guarding a stand-in for /api, next to the authorization server that issues its
// tokens, as the app that mounts /api will: the audience rules of PRODUCT.md ("Bearer tokens and
// audiences"), the challenge, the metadata document, the subscription check and the per-token limit.

const limit = 3;

describe('the resource server of /api', () => {
  let world: OauthWorld;
  let server: RunningServer;
  let owner: TestUser;
  let apiMetadataUrl: string;

  beforeAll(async () => {
    world = await openOauthWorld('pglite');
    owner = await createOwner(world);
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const app = await buildServerApp(world, { baseUrl: origin });
    // Both resources on one app, each in a scope of its own, as the full server will mount them.
    for (const resource of ['api', 'mcp'] as const) {
      await app.register(async (scope: FastifyInstance) => {
        await scope.register(resourceServer, {
          baseUrl: origin,
          resource,
          verifier: createAccessTokenVerifier({
            db: world.db,
            resource: `${origin}/${resource}`,
            clock: world.clock,
          }),
          rateLimit: { max: limit, timeWindow: 60_000 },
          metadataAtWellKnownRoot: resource === 'mcp',
          refuse: (_request, reply, refusal) =>
            reply.send({ message: refusal.message, code: refusal.code, details: refusal.details }),
        });
        scope.get(`/${resource}/whoami`, { preHandler: scope.requireAccessToken }, async (request) => ({
          accountId: request.verifiedAccessToken?.accountId,
        }));
      });
    }
    await app.listen({ port, host: '127.0.0.1' });
    server = { app, origin, baseUrl: origin };
    apiMetadataUrl = `${origin}/.well-known/oauth-protected-resource/api`;
  }, 120_000);

  afterAll(async () => {
    await server?.app.close();
    await world?.close();
  });

  const whoami = (token?: string, resource: 'api' | 'mcp' = 'api') =>
    fetch(`${server.origin}/${resource}/whoami`, {
      headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    });

  /** An access token of `user` asked for with `resource` (a path of BASE_URL), or with none. */
  async function tokenFor(user: TestUser, resource?: '/api' | '/mcp'): Promise<string> {
    const extra: Record<string, string> =
      resource === undefined ? {} : { resource: `${server.baseUrl}${resource}` };
    return (await issueTokens(server, user, { extra })).accessToken;
  }

  it('answers a request without a token with 401 and the challenge naming /api’s metadata', async () => {
    const response = await whoami();
    expect(response.status).toBe(401);
    const challenge = response.headers.get('www-authenticate') ?? '';
    expect(challenge).toContain(`resource_metadata="${apiMetadataUrl}"`);
    expect(challenge).not.toContain('error=');
    expect(await response.json()).toMatchObject({ code: 'unauthenticated' });
  });

  it.each([
    ['/.well-known/oauth-protected-resource/api', 'api'],
    ['/.well-known/oauth-protected-resource/mcp', 'mcp'],
    ['/.well-known/oauth-protected-resource', 'mcp'],
  ])('serves at %s the protected resource metadata of /%s, CORS open', async (path, resource) => {
    const response = await fetch(`${server.origin}${path}`, { headers: { origin: 'http://localhost:6274' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.json()).toEqual({
      resource: `${server.baseUrl}/${resource}`,
      authorization_servers: [server.baseUrl],
      scopes_supported: allScopes,
      bearer_methods_supported: ['header'],
      resource_name: 'Innkeep',
    });
    const preflight = await fetch(`${server.origin}${path}`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:6274', 'access-control-request-method': 'GET' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('accepts a token asked for with resource=/api and says whose it is', async () => {
    const response = await whoami(await tokenFor(owner, '/api'));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ accountId: owner.accountId });
  });

  it('refuses a token asked for with resource=/mcp as invalid_token, which /mcp accepts', async () => {
    const token = await tokenFor(owner, '/mcp');
    const response = await whoami(token);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(response.headers.get('www-authenticate')).toContain(`resource_metadata="${apiMetadataUrl}"`);
    expect((await whoami(token, 'mcp')).status).toBe(200);
  });

  it('refuses on /mcp a token asked for with resource=/api', async () => {
    const response = await whoami(await tokenFor(owner, '/api'), 'mcp');
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain(
      `resource_metadata="${server.baseUrl}/.well-known/oauth-protected-resource/mcp"`,
    );
  });

  it('accepts a token asked for with no resource indicator, on /api and on /mcp', async () => {
    const token = await tokenFor(owner);
    expect((await whoami(token)).status).toBe(200);
    expect((await whoami(token, 'mcp')).status).toBe(200);
  });

  it('refuses an account whose subscription is not in good standing with 403', async () => {
    const lapsed = await createOwner(world);
    const token = await tokenFor(lapsed, '/api');
    await world.db
      .updateTable('subscriptions')
      .set({ status: 'past_due' })
      .where('account_id', '=', lapsed.accountId)
      .execute();
    const response = await whoami(token);
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({
      code: 'subscription_inactive',
      details: { status: 'past_due' },
    });
  });

  it('answers the request over the per-token limit with 429 and Retry-After', async () => {
    const token = await tokenFor(owner, '/api');
    for (let request = 1; request <= limit; request += 1) expect((await whoami(token)).status).toBe(200);
    const over = await whoami(token);
    expect(over.status).toBe(429);
    const retryAfter = Number(over.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(await over.json()).toMatchObject({
      code: 'rate_limited',
      details: { retryAfterSeconds: retryAfter },
    });
  });

  it('narrows a code issued with no resource to the one resource its exchange names', async () => {
    const { client, redirectUri, code, verifier } = await authorizedCode(server, owner);
    const exchange = await tokenRequest(server.origin, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
      client_id: client.client_id,
      resource: `${server.baseUrl}/mcp`,
    });
    expect(exchange.status).toBe(200);
    const token = String(exchange.body.access_token);
    expect((await whoami(token, 'mcp')).status).toBe(200);
    expect((await whoami(token, 'api')).status).toBe(401);
  });
});
