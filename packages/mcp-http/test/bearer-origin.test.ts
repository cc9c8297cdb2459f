import { describe, expect, it } from 'vitest';
import { bearerChallenge, bearerToken, rateLimitKey } from '../src/bearer.ts';
import { createOriginPolicy } from '../src/origin.ts';

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

describe('createOriginPolicy', () => {
  it('allows only BASE_URL’s origin and the extra ones on a public address', () => {
    const policy = createOriginPolicy('https://stays.example.com/innkeep', ['https://agent.example.org']);
    expect(policy.allows('https://stays.example.com')).toBe(true);
    expect(policy.allows('https://agent.example.org')).toBe(true);
    expect(policy.allows('https://stays.example.com:8443')).toBe(false);
    expect(policy.allows('http://stays.example.com')).toBe(false);
    expect(policy.allows('http://localhost:3000')).toBe(false);
    expect(policy.allows('null')).toBe(false);
  });

  it('allows every loopback origin when BASE_URL is on loopback, and nothing else', () => {
    const policy = createOriginPolicy('http://localhost:3000');
    for (const origin of [
      'http://localhost:3000',
      'http://127.0.0.1:6274',
      'https://[::1]:8443',
      'http://localhost',
    ]) {
      expect(policy.allows(origin)).toBe(true);
    }
    for (const origin of [
      'http://evil.example.com',
      'http://localhost.evil.example.com',
      'null',
      'file://',
      'http://localhost:3000/path',
    ]) {
      expect(policy.allows(origin)).toBe(false);
    }
  });
});
