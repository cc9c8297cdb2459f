import type { Scope } from '@innkeep/domain';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizationServer } from '../src/provider/authorization-server.ts';
import { type ResourceName, resourceUrl } from '../src/provider/resource.ts';
import { createAccessTokenVerifier } from '../src/resource-server/access-token-verifier.ts';
import {
  authorizeInBrowser,
  authorizeUrl,
  Browser,
  createOwner,
  freePort,
  type OauthWorld,
  oauthSecretKeys,
  openOauthWorld,
  pkcePair,
  type RegisteredClient,
  registerClient,
  type TestUser,
  testSigningKey,
  tokenRequest,
} from './support/oauth-harness.ts';

// What each resource of this deployment uses: webhooks:manage only /api, messages:write only /mcp, and
// locks:write neither. The filter does not depend on the database, so one kind is enough.
const mcpScopes: readonly Scope[] = ['listings:read', 'reservations:read', 'messages:write'];
const apiScopes: readonly Scope[] = ['listings:read', 'webhooks:manage'];

describe('consent offers, and tokens carry, only the scopes the requested resource uses', () => {
  let world: OauthWorld;
  let app: FastifyInstance;
  let origin: string;
  let owner: TestUser;

  beforeAll(async () => {
    world = await openOauthWorld('pglite');
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    app = Fastify({ logger: false });
    await app.register(authorizationServer, {
      db: world.db,
      baseUrl: origin,
      secretKeys: oauthSecretKeys,
      signingKeys: [testSigningKey()],
      identity: world.identity,
      clock: world.clock,
      resourceScopes: { mcp: mcpScopes, api: apiScopes },
    });
    await app.listen({ port, host: '127.0.0.1' });
    owner = await createOwner(world);
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    await world?.close();
  });

  /**
   * Asks for `scope` on `resource` (none: BASE_URL, valid on every resource), ticks `ticked` (default: all
   * offered) whether offered or not, and exchanges the code for the same resource.
   */
  async function connect(options: {
    resource?: ResourceName;
    scope?: string;
    ticked?: readonly string[];
    client?: RegisteredClient;
    remember?: boolean;
  }) {
    const client =
      options.client ??
      (await registerClient(origin, {
        client_name: 'Scope filter check',
        redirect_uris: ['http://127.0.0.1:48123/callback'],
      }));
    const redirectUri = client.redirect_uris[0] ?? '';
    const resource = options.resource === undefined ? undefined : resourceUrl(origin, options.resource);
    const { verifier, challenge } = pkcePair();
    const outcome = await authorizeInBrowser(
      new Browser(),
      authorizeUrl(origin, { client_id: client.client_id, redirect_uri: redirectUri }, challenge, {
        ...(resource === undefined ? {} : { resource }),
        ...(options.scope === undefined ? {} : { scope: options.scope }),
      }),
      owner,
      {
        decision: 'allow',
        remember: options.remember === true,
        ...(options.ticked === undefined ? {} : { scopes: options.ticked }),
      },
    );
    const code = outcome.redirect.searchParams.get('code');
    if (code === null) return { outcome, token: undefined };
    const token = await tokenRequest(origin, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
      client_id: client.client_id,
      ...(resource === undefined ? {} : { resource }),
    });
    expect(token.status).toBe(200);
    return { outcome, token: token.body };
  }

  it('leaves out of the page and of the token a scope /mcp does not use, even when the form sends it', async () => {
    const { outcome, token } = await connect({
      resource: 'mcp',
      scope: 'listings:read messages:write webhooks:manage locks:write',
      ticked: ['listings:read', 'messages:write', 'webhooks:manage', 'locks:write'],
    });
    expect(outcome.offered).toEqual(['listings:read', 'messages:write']);
    expect(outcome.consentPage).not.toContain('webhooks:manage');
    expect(outcome.consentPage).not.toContain('Manage smart lock settings');
    expect(String(token?.scope).split(' ').sort()).toEqual(['listings:read', 'messages:write']);
    const verified = await createAccessTokenVerifier({
      db: world.db,
      resource: resourceUrl(origin, 'mcp'),
    }).verify(String(token?.access_token));
    expect(verified?.scopes).toEqual(['listings:read', 'messages:write']);
  });

  it('offers, for a request naming no scope, every scope the resource uses and no other', async () => {
    const { outcome, token } = await connect({ resource: 'mcp' });
    expect(outcome.offered).toEqual(mcpScopes);
    expect(String(token?.scope).split(' ').sort()).toEqual([...mcpScopes].sort());
  });

  it('offers on /api the scope /mcp does not use, since /api does', async () => {
    const { outcome, token } = await connect({
      resource: 'api',
      scope: 'listings:read messages:write webhooks:manage',
    });
    expect(outcome.offered).toEqual(['listings:read', 'webhooks:manage']);
    expect(String(token?.scope).split(' ').sort()).toEqual(['listings:read', 'webhooks:manage']);
  });

  it('offers, with no resource named, what some resource uses: never a scope none of them uses', async () => {
    const { outcome, token } = await connect({});
    expect(outcome.offered).toEqual([
      'listings:read',
      'reservations:read',
      'messages:write',
      'webhooks:manage',
    ]);
    expect(String(token?.scope).split(' ')).not.toContain('locks:write');
  });

  it('shows as already held only what the grant holds on the requested resource, which uses it', async () => {
    // A custom-scheme client is asked again after a remembered decision, showing what it holds.
    const client = await registerClient(origin, {
      client_name: 'Native assistant',
      redirect_uris: ['cursor://anysphere.cursor-retrieval/oauth/callback'],
    });
    const everywhere = await connect({ client, remember: true });
    expect(everywhere.outcome.offered).toContain('webhooks:manage');
    const mcpOnly = await connect({ client, resource: 'mcp' });
    expect(mcpOnly.outcome.offered).toEqual([]);
    expect(mcpOnly.outcome.consentPage).toContain('It already may:');
    const held = [...(mcpOnly.outcome.consentPage ?? '').matchAll(/<code>([^<]+)<\/code>/g)].map(
      (match) => match[1],
    );
    expect(held).toEqual(mcpScopes);
  });

  it('refuses with invalid_scope a request for nothing but scopes the resource does not use', async () => {
    const { outcome, token } = await connect({ resource: 'mcp', scope: 'webhooks:manage' });
    expect(outcome.redirect.searchParams.get('error')).toBe('invalid_scope');
    expect(outcome.offered).toBeUndefined();
    expect(token).toBeUndefined();
  });

  it('lists in discovery the scopes some resource uses, as their metadata does', async () => {
    const discovery = (await (
      await fetch(`${origin}/.well-known/oauth-authorization-server`)
    ).json()) as Record<string, unknown>;
    expect(discovery.scopes_supported).toEqual([
      'openid',
      'offline_access',
      'listings:read',
      'reservations:read',
      'messages:write',
      'webhooks:manage',
    ]);
  });
});
