import { describe, expect, it } from 'vitest';
import { bearerChallenge, bearerToken, rateLimitKey } from '../src/resource-server/bearer.ts';

describe('bearerToken', () => {
  it('reads the token of a Bearer header, whatever the scheme’s case', () => {
    expect(bearerToken('Bearer abc.DEF-123_')).toBe('abc.DEF-123_');
    expect(bearerToken('bearer abc')).toBe('abc');
    expect(bearerToken('BEARER   abc  ')).toBe('abc');
  });

  it('finds no token in other schemes, an empty Bearer or none', () => {
    expect(bearerToken(undefined)).toBeUndefined();
    expect(bearerToken('Basic dXNlcjpwYXNz')).toBeUndefined();
    expect(bearerToken('Bearer')).toBeUndefined();
    expect(bearerToken('Bearer a b')).toBeUndefined();
    expect(bearerToken('tok_123')).toBeUndefined();
  });
});

describe('rateLimitKey', () => {
  it('is the token’s SHA-256, never the token', () => {
    // sha256("abc") in base64url.
    expect(rateLimitKey('abc')).toBe('ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0');
  });
});

describe('bearerChallenge', () => {
  it('lists error, description, scope and metadata as quoted parameters', () => {
    expect(
      bearerChallenge({
        error: 'insufficient_scope',
        errorDescription: 'needs "listings:read" \\ now',
        scope: 'user:read listings:read',
        resourceMetadata: 'https://x.example/.well-known/oauth-protected-resource/mcp',
      }),
    ).toBe(
      'Bearer error="insufficient_scope", error_description="needs listings:read  now", ' +
        'scope="user:read listings:read", resource_metadata="https://x.example/.well-known/oauth-protected-resource/mcp"',
    );
  });

  it('leaves out the error when there is none', () => {
    expect(bearerChallenge({ scope: 'a b', resourceMetadata: 'https://m' })).toBe(
      'Bearer scope="a b", resource_metadata="https://m"',
    );
  });
});
