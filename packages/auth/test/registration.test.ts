import { testDatabaseKinds } from '@innkeep/storage/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkClientRegistration } from '../src/provider/client-registration.ts';
import {
  authorizeInBrowser,
  authorizeUrl,
  Browser,
  buildServerApp,
  createOwner,
  formOf,
  type OauthWorld,
  openOauthWorld,
  pkcePair,
  type RunningServer,
  registerClient,
  startServer,
  type TestUser,
} from './support/oauth-harness.ts';

async function register(origin: string, body: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${origin}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  };
}

describe.each(testDatabaseKinds)('dynamic client registration on %s', (kind) => {
  let world: OauthWorld;
  let server: RunningServer;
  let owner: TestUser;

  beforeAll(async () => {
    world = await openOauthWorld(kind);
    server = await startServer(world);
    owner = await createOwner(world);
  }, 180_000);

  afterAll(async () => {
    await server?.app.close();
    await world?.close();
  });

  it('registers a public client without a secret, with both grant types', async () => {
    const response = await register(
      server.origin,
      JSON.stringify({
        client_name: 'Claude Code',
        redirect_uris: ['http://localhost:53682/callback'],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
      }),
    );
    expect(response.status).toBe(201);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.body).toMatchObject({
      client_name: 'Claude Code',
      redirect_uris: ['http://localhost:53682/callback'],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
    });
    expect(response.body.client_secret).toBeUndefined();
    expect(typeof response.body.client_id).toBe('string');
    // The row is stored with its client id for the "connected apps" page.
    const row = await world.db
      .selectFrom('oidc_model')
      .select(['client_id', 'expires_at'])
      .where('model', '=', 'Client')
      .where('id', '=', String(response.body.client_id))
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ client_id: response.body.client_id, expires_at: null });
  });

  it('treats a client that names no auth method as public, and ignores a DCR scope', async () => {
    const response = await register(
      server.origin,
      JSON.stringify({ redirect_uris: ['http://127.0.0.1:8976/cb'], scope: 'listings:read made:up' }),
    );
    expect(response.status).toBe(201);
    expect(response.body.token_endpoint_auth_method).toBe('none');
    expect(response.body.client_secret).toBeUndefined();
    expect(response.body.grant_types).toEqual(['authorization_code', 'refresh_token']);
  });

  it('gives confidential clients a secret, for client_secret_post and client_secret_basic', async () => {
    for (const method of ['client_secret_post', 'client_secret_basic']) {
      const response = await register(
        server.origin,
        JSON.stringify({
          redirect_uris: ['https://claude.ai/api/mcp/auth_callback'],
          token_endpoint_auth_method: method,
        }),
      );
      expect(response.status).toBe(201);
      expect(response.body.token_endpoint_auth_method).toBe(method);
      expect(String(response.body.client_secret).length).toBeGreaterThanOrEqual(32);
    }
  });

  it('accepts loopback redirect URIs on any port and host spelling', async () => {
    const uris = ['http://127.0.0.1:1/cb', 'http://localhost:65535/callback', 'http://[::1]:33418/oauth'];
    const response = await register(server.origin, JSON.stringify({ redirect_uris: uris }));
    expect(response.status).toBe(201);
    expect(response.body.redirect_uris).toEqual(uris);
  });

  it('lets a loopback client come back on any port (RFC 8252 §7.3), but not to another host or path', async () => {
    for (const [registered, elsewhere] of [
      ['http://127.0.0.1:5000/callback', 'http://127.0.0.1:6000/callback'],
      ['http://[::1]:5000/callback', 'http://[::1]:6000/callback'],
      ['http://localhost:5000/callback', 'http://localhost:6000/callback'],
    ] as const) {
      const client = await registerClient(server.origin, { redirect_uris: [registered] });
      expect(client).toMatchObject({ application_type: 'native' });
      const start = (redirectUri: string) =>
        new Browser().get(
          authorizeUrl(
            server.baseUrl,
            { client_id: client.client_id, redirect_uri: redirectUri },
            pkcePair().challenge,
          ),
        );
      const otherPort = await start(elsewhere);
      expect(otherPort.status).toBe(303);
      expect(otherPort.headers.get('location')).toMatch(/\/oauth\/interaction\//);
      for (const refused of [
        registered.replace('/callback', '/elsewhere'),
        'http://127.0.0.2:5000/callback',
        'https://127.0.0.1:5000/callback',
      ]) {
        const response = await start(refused);
        expect(response.status).toBe(400);
        expect(await response.text()).toContain('invalid_redirect_uri');
      }
    }
  });

  it('keeps the loopback port exact for a client that registers as a web application', async () => {
    const web = await registerClient(server.origin, {
      application_type: 'web',
      redirect_uris: ['http://127.0.0.1:1234/callback'],
    });
    const response = await new Browser().get(
      authorizeUrl(
        server.baseUrl,
        { client_id: web.client_id, redirect_uri: 'http://127.0.0.1:5555/callback' },
        pkcePair().challenge,
      ),
    );
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('invalid_redirect_uri');
  });

  it('stores a confidential client’s secret so that no dump reveals it, and the client still authenticates', async () => {
    const client = await registerClient(server.origin, {
      redirect_uris: ['https://assistant.example.com/callback'],
      token_endpoint_auth_method: 'client_secret_post',
    });
    const secret = String(client.client_secret);
    expect(secret.length).toBeGreaterThanOrEqual(32);
    const rows = await world.db.selectFrom('oidc_model').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(secret);

    const revoke = (clientSecret: string) =>
      fetch(`${server.origin}/oauth/token/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          token: 'no-such-token',
          client_id: client.client_id,
          client_secret: clientSecret,
        }),
      });
    expect((await revoke(secret)).status).toBe(200);
    expect((await revoke(`${secret}x`)).status).toBe(401);
  });

  it('bounds what a client asks for by its registered scope, Host Tools names translated', async () => {
    const registered = [
      'listings:read',
      'reservations:read',
      'reservations:write',
      'calendar:read',
      'calendar:write',
      'messages:read',
      'messages:write',
      'reviews:read',
      'user:read',
      'webhooks:manage',
    ];
    const client = await registerClient(server.origin, {
      redirect_uris: ['https://assistant.example.com/callback'],
      scope:
        'openid listings:read reservations:read reservations:write calendar:read calendar:write ' +
        'messaging:read messaging:write reviews:read user:read webhooks:write no-such:scope',
    });
    expect(client).toMatchObject({ registered_scope: registered.join(' ') });
    const authorize = (extra: Record<string, string> = {}) =>
      authorizeInBrowser(
        new Browser(),
        authorizeUrl(
          server.baseUrl,
          { client_id: client.client_id, redirect_uri: 'https://assistant.example.com/callback' },
          pkcePair().challenge,
          extra,
        ),
        owner,
      );

    // The page lists reads before writes, not in registration order.
    expect([...((await authorize()).offered ?? [])].sort()).toEqual([...registered].sort());
    expect((await authorize({ scope: 'listings:read locks:write' })).offered).toEqual(['listings:read']);
    const outside = await authorize({ scope: 'locks:write' });
    expect(outside.redirect.searchParams.get('error')).toBe('invalid_scope');
  });

  it('lets a client widen its registered scope for /mcp alone (MCP step-up), never for /api or every resource', async () => {
    const client = await registerClient(server.origin, {
      redirect_uris: ['https://assistant.example.com/callback'],
      scope: 'listings:read',
    });
    const authorize = (resource?: string) =>
      authorizeInBrowser(
        new Browser(),
        authorizeUrl(
          server.baseUrl,
          { client_id: client.client_id, redirect_uri: 'https://assistant.example.com/callback' },
          pkcePair().challenge,
          { scope: 'listings:read calendar:write', ...(resource === undefined ? {} : { resource }) },
        ),
        owner,
      );

    expect((await authorize(`${server.baseUrl}/mcp`)).offered).toEqual(['listings:read', 'calendar:write']);
    expect((await authorize(`${server.baseUrl}/api`)).offered).toEqual(['listings:read']);
    expect((await authorize()).offered).toEqual(['listings:read']);
  });

  it('accepts custom-scheme redirects and makes such a client native', async () => {
    const response = await register(
      server.origin,
      JSON.stringify({
        client_name: 'Cursor',
        redirect_uris: ['cursor://anysphere.cursor-retrieval/oauth/user-innkeep/callback'],
      }),
    );
    expect(response.status).toBe(201);
    expect(response.body.application_type).toBe('native');
    expect(response.body.client_secret).toBeUndefined();
  });

  it.each([
    ['a javascript: URI', { redirect_uris: ['javascript:alert(1)'] }, 'javascript:'],
    ['a data: URI', { redirect_uris: ['data:text/html,<script>alert(1)</script>'] }, 'data:'],
    ['a file: URI', { redirect_uris: ['file:///etc/passwd'] }, 'file:'],
    ['plain http to another host', { redirect_uris: ['http://evil.example/cb'] }, 'use https'],
    ['a fragment', { redirect_uris: ['https://app.example.com/cb#frag'] }, 'fragment'],
    ['a relative URI', { redirect_uris: ['/callback'] }, 'absolute'],
    ['no redirect URIs', { client_name: 'Nothing' }, 'redirect_uris is required'],
    ['an empty list', { redirect_uris: [] }, 'redirect_uris is required'],
    [
      'more than ten',
      { redirect_uris: Array.from({ length: 11 }, (_, index) => `https://app.example.com/cb${index}`) },
      'at most 10',
    ],
    ['an absurdly long URI', { redirect_uris: [`https://app.example.com/${'a'.repeat(3000)}`] }, '2000'],
    ['a non-string URI', { redirect_uris: [42] }, 'string'],
  ])('refuses %s with invalid_redirect_uri', async (_case, metadata, hint) => {
    const response = await register(server.origin, JSON.stringify(metadata));
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('invalid_redirect_uri');
    expect(String(response.body.error_description)).toContain(hint);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });

  const good = { redirect_uris: ['https://app.example.com/cb'] };
  it.each([
    ['a JSON array', JSON.stringify([good]), 'JSON object'],
    ['invalid JSON', '{"redirect_uris": [', 'not valid JSON'],
    [
      'an absurdly long client_name',
      JSON.stringify({ ...good, client_name: 'n'.repeat(500) }),
      'client_name',
    ],
    [
      'a client_name with control characters',
      JSON.stringify({ ...good, client_name: 'Evil\u0000App' }),
      'control',
    ],
    ['a javascript: logo_uri', JSON.stringify({ ...good, logo_uri: 'javascript:alert(1)' }), 'logo_uri'],
    ['contacts that are not a list', JSON.stringify({ ...good, contacts: 'me@example.com' }), 'contacts'],
    [
      'too many fields',
      JSON.stringify({ ...good, ...Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`x_${i}`, i])) }),
      'at most 40',
    ],
  ])('refuses %s with invalid_client_metadata', async (_case, body, hint) => {
    const response = await register(server.origin, body);
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('invalid_client_metadata');
    expect(String(response.body.error_description)).toContain(hint);
  });

  it('refuses a body over 16 KiB with 413 and invalid_client_metadata', async () => {
    const response = await register(
      server.origin,
      JSON.stringify({ ...good, padding: 'p'.repeat(17 * 1024) }),
    );
    expect(response.status).toBe(413);
    expect(response.body.error).toBe('invalid_client_metadata');
  });

  it('answers CORS preflights and responses for browser-based clients', async () => {
    const preflight = await fetch(`${server.origin}/oauth/register`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:6274',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toBe('POST');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('content-type');
    const response = await register(server.origin, JSON.stringify(good), { origin: 'http://localhost:6274' });
    expect(response.status).toBe(201);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('lets a registered public client start an authorization that shows the sign-in page', async () => {
    const client = await registerClient(server.origin, {
      client_name: 'Starter',
      redirect_uris: ['http://127.0.0.1:7777/cb'],
    });
    const { challenge } = pkcePair();
    const browser = new Browser();
    const start = authorizeUrl(
      server.baseUrl,
      { client_id: client.client_id, redirect_uri: 'http://127.0.0.1:7777/cb' },
      challenge,
    );
    const { response } = await browser.follow(await browser.get(start), start);
    const page = await response.text();
    expect(page).toContain('Sign in to connect Starter to your Innkeep account.');
    expect(formOf(page).action).toMatch(/^\/oauth\/interaction\/[^/]+\/login$/);
    expect(owner.email).toContain('@');
  });
});

describe('registration rate limit', () => {
  let world: OauthWorld;

  beforeAll(async () => {
    world = await openOauthWorld('pglite');
  }, 180_000);

  afterAll(async () => {
    await world?.close();
  });

  async function registerTwiceThenOnceMore(origins: readonly string[]) {
    const statuses: number[] = [];
    for (const origin of origins) {
      statuses.push(
        (await register(origin, JSON.stringify({ redirect_uris: ['http://127.0.0.1:9/cb'] }))).status,
      );
    }
    return statuses;
  }

  it('answers 429 too_many_requests with Retry-After once an address passes the limit', async () => {
    const server = await startServer(world, { registrationRateLimit: { max: 2, timeWindowMs: 60_000 } });
    try {
      expect(await registerTwiceThenOnceMore([server.origin, server.origin])).toEqual([201, 201]);
      const refused = await register(
        server.origin,
        JSON.stringify({ redirect_uris: ['http://127.0.0.1:9/cb'] }),
      );
      expect(refused.status).toBe(429);
      expect(refused.body.error).toBe('too_many_requests');
      expect(String(refused.body.error_description)).toContain('try again in');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    } finally {
      await server.app.close();
    }
  });

  it('admits a hosted assistant registering 1,000 clients from one address within the window by default', async () => {
    // Behind a load balancer not trusted for X-Forwarded-For, every client has the balancer's address.
    const app = await buildServerApp(world, {
      baseUrl: 'http://127.0.0.1:9',
      registrationRateLimit: 'default',
    });
    try {
      const statuses = new Map<number, number>();
      for (let user = 1; user <= 1_000; user += 1) {
        const response = await app.inject({
          method: 'POST',
          url: '/oauth/register',
          remoteAddress: '10.0.0.2',
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify({
            client_name: `Hosted assistant for user ${user}`,
            redirect_uris: ['https://assistant.example/oauth/callback'],
          }),
        });
        statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
      }
      expect(Object.fromEntries(statuses)).toEqual({ 201: 1_000 });
    } finally {
      await app.close();
    }
  }, 120_000);

  it('refuses the 3,001st registration from one address within 10 minutes by default', async () => {
    const redis = new Redis({ host: '127.0.0.1', port: 6379, maxRetriesPerRequest: 1 });
    // 2,999 registrations already counted for this address, as the shared counter holds them, 30 s in.
    const counter = 'innkeep:oauth-register:POST/oauth/register-10.0.0.3';
    await redis.set(counter, 2_999, 'PX', 10 * 60_000 - 30_000);
    const app = await buildServerApp(world, {
      baseUrl: 'http://127.0.0.1:9',
      registrationRateLimit: 'default',
      redis,
    });
    const registerOnce = () =>
      app.inject({
        method: 'POST',
        url: '/oauth/register',
        remoteAddress: '10.0.0.3',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ redirect_uris: ['https://flood.example/cb'] }),
      });
    try {
      expect((await registerOnce()).statusCode).toBe(201);
      const refused = await registerOnce();
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ error: 'too_many_requests' });
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(9 * 60);
      expect(retryAfter).toBeLessThanOrEqual(10 * 60);
    } finally {
      await app.close();
      await redis.del(counter);
      redis.disconnect();
    }
  });

  it('counts across instances when they share Redis', async () => {
    const redis = new Redis({ host: '127.0.0.1', port: 6379, maxRetriesPerRequest: 1 });
    // The store's key for this route and address; cleared so an earlier run cannot count here.
    await redis.del('innkeep:oauth-register:POST/oauth/register-127.0.0.1');
    const limit = { max: 3, timeWindowMs: 60_000 };
    const a = await startServer(world, { registrationRateLimit: limit, redis });
    const b = await startServer(world, { registrationRateLimit: limit, redis });
    try {
      expect(await registerTwiceThenOnceMore([a.origin, b.origin, a.origin, b.origin])).toEqual([
        201, 201, 201, 429,
      ]);
    } finally {
      await a.app.close();
      await b.app.close();
      await redis.del('innkeep:oauth-register:POST/oauth/register-127.0.0.1');
      redis.disconnect();
    }
  });
});

describe('checkClientRegistration', () => {
  it('defaults the auth method to none, keeps Innkeep scopes apart, drops fetched metadata, and keeps the rest', () => {
    const check = checkClientRegistration({
      client_name: 'VS Code',
      redirect_uris: ['http://127.0.0.1:33418', 'https://vscode.dev/redirect'],
      scope: 'listings:read',
      jwks_uri: 'https://169.254.169.254/latest',
      sector_identifier_uri: 'https://internal.example/sectors',
    });
    expect(check).toEqual({
      ok: true,
      metadata: {
        client_name: 'VS Code',
        redirect_uris: ['http://127.0.0.1:33418', 'https://vscode.dev/redirect'],
        registered_scope: 'listings:read',
        // A loopback redirect makes it native, so VS Code may fall back to another port.
        application_type: 'native',
        token_endpoint_auth_method: 'none',
      },
    });
  });

  it('keeps an explicit application_type, even with a custom scheme', () => {
    const check = checkClientRegistration({ application_type: 'web', redirect_uris: ['myapp://cb'] });
    expect(check.ok && check.metadata.application_type).toBe('web');
  });
});
