import { allScopes } from '@innkeep/domain';
import { testDatabaseKinds } from '@innkeep/storage/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalTokenBody, normalisedAuthorizationUrl } from '../src/provider/authorization-server.ts';
import { protectedResourceMetadataUrl } from '../src/provider/protected-resource.ts';
import { authorizationScope, canonicalResource, mcpResourceUrl } from '../src/provider/resource.ts';
import { generateSigningKey, parseSigningKey } from '../src/provider/signing-keys.ts';
import { buildServerApp, type OauthWorld, openOauthWorld } from './support/oauth-harness.ts';

const baseUrl = 'https://innkeep.example.com';

describe.each(testDatabaseKinds)('discovery on %s', (kind) => {
  let world: OauthWorld;
  let app: FastifyInstance;

  beforeAll(async () => {
    world = await openOauthWorld(kind);
    app = await buildServerApp(world, { baseUrl });
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    await world?.close();
  });

  it.each(['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration'])(
    'serves authorization server metadata at %s, naming BASE_URL whatever host was asked',
    async (url) => {
      const response = await app.inject({
        method: 'GET',
        url,
        headers: { host: '10.0.0.7:3000', origin: 'https://x.example' },
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['access-control-allow-origin']).toBe('https://x.example');
      const metadata = response.json();
      expect(metadata).toMatchObject({
        issuer: baseUrl,
        authorization_endpoint: `${baseUrl}/oauth/authorize`,
        token_endpoint: `${baseUrl}/oauth/token`,
        registration_endpoint: `${baseUrl}/oauth/register`,
        revocation_endpoint: `${baseUrl}/oauth/token/revoke`,
        jwks_uri: `${baseUrl}/oauth/jwks`,
        code_challenge_methods_supported: ['S256'],
        response_types_supported: ['code'],
        grant_types_supported: expect.arrayContaining(['authorization_code', 'refresh_token']),
        token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
        authorization_response_iss_parameter_supported: true,
      });
      expect(metadata.scopes_supported).toEqual(['openid', 'offline_access', ...allScopes]);
      // Disabled on purpose: no userinfo, introspection, device flow, PAR or logout endpoints to attack.
      expect(metadata.userinfo_endpoint).toBeUndefined();
      expect(metadata.introspection_endpoint).toBeUndefined();
      expect(metadata.pushed_authorization_request_endpoint).toBeUndefined();
      expect(metadata.end_session_endpoint).toBeUndefined();
    },
  );

  it('publishes the public half of the signing key only', async () => {
    const response = await app.inject({ method: 'GET', url: '/oauth/jwks' });
    expect(response.statusCode).toBe(200);
    const { keys } = response.json() as { keys: Record<string, unknown>[] };
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(keys[0]?.d).toBeUndefined();
    expect(keys[0]?.p).toBeUndefined();
  });

  it('has no development login: the provider’s built-in interaction pages are off', async () => {
    const response = await app.inject({ method: 'GET', url: '/interaction/anything' });
    expect(response.statusCode).toBe(404);
  });
});

describe('resource and scope helpers', () => {
  it('builds the MCP resource from BASE_URL', () => {
    expect(mcpResourceUrl('https://innkeep.example.com')).toBe('https://innkeep.example.com/mcp');
    expect(mcpResourceUrl('https://innkeep.example.com/')).toBe('https://innkeep.example.com/mcp');
    expect(protectedResourceMetadataUrl('https://innkeep.example.com')).toBe(
      'https://innkeep.example.com/.well-known/oauth-protected-resource/mcp',
    );
    expect(protectedResourceMetadataUrl('https://stays.example.com/innkeep')).toBe(
      'https://stays.example.com/.well-known/oauth-protected-resource/innkeep/mcp',
    );
  });

  it.each([
    ['https://innkeep.example.com/mcp/', 'https://innkeep.example.com/mcp'],
    ['HTTPS://Innkeep.Example.com:443/mcp', 'https://innkeep.example.com/mcp'],
    ['https://innkeep.example.com/mcp', 'https://innkeep.example.com/mcp'],
    ['https://innkeep.example.com/', 'https://innkeep.example.com'],
    ['not a url', 'not a url'],
  ])('canonicalises %s to %s', (input, expected) => {
    expect(canonicalResource(input)).toBe(expected);
  });

  it('asks for every scope when none, or only OpenID scopes, are requested', () => {
    expect(authorizationScope(null)).toBe(allScopes.join(' '));
    expect(authorizationScope('')).toBe(allScopes.join(' '));
    expect(authorizationScope('offline_access')).toBe(['offline_access', ...allScopes].join(' '));
    expect(authorizationScope('listings:read  offline_access')).toBe('listings:read offline_access');
    expect(authorizationScope('made:up')).toBe('made:up');
  });

  it('normalises an authorization URL and a token body', () => {
    const url = normalisedAuthorizationUrl(
      '/oauth/authorize?client_id=c&resource=https%3A%2F%2Fa.example%2Fmcp%2F',
    );
    const params = new URL(url, 'https://x.example').searchParams;
    expect(params.get('resource')).toBe('https://a.example/mcp');
    expect(params.get('scope')).toBe(allScopes.join(' '));
    expect(params.get('client_id')).toBe('c');
    expect(canonicalTokenBody('grant_type=refresh_token&resource=https%3A%2F%2Fa.example%2Fmcp%2F')).toBe(
      'grant_type=refresh_token&resource=https%3A%2F%2Fa.example%2Fmcp',
    );
    expect(canonicalTokenBody('grant_type=refresh_token&refresh_token=abc')).toBe(
      'grant_type=refresh_token&refresh_token=abc',
    );
  });
});

describe('signing keys', () => {
  it('generates a private RS256 key whose kid is its thumbprint, and reads it back', () => {
    const key = generateSigningKey();
    expect(key).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(key.kid).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const { kid: _kid, ...withoutKid } = key;
    expect(parseSigningKey(JSON.parse(JSON.stringify(withoutKid)))).toEqual(key);
  });

  it('refuses public keys, other key types and broken keys without echoing key material', () => {
    const key = generateSigningKey();
    const { d: _d, ...publicOnly } = key;
    expect(() => parseSigningKey(publicOnly)).toThrow('not a private RSA JWK (check d)');
    expect(() => parseSigningKey({ kty: 'EC', crv: 'P-256', x: 'a', y: 'b', d: 'c' })).toThrow(
      /not a private RSA JWK/,
    );
    expect(() => parseSigningKey('{"kty":"RSA"}')).toThrow(/not a private RSA JWK/);
    const other = generateSigningKey();
    try {
      parseSigningKey({ ...key, d: other.d });
      expect.unreachable('a key with a foreign private exponent must be refused');
    } catch (error) {
      expect(String(error)).not.toContain(other.d.slice(0, 20));
    }
  });
});
