import { describe, expect, it } from 'vitest';
import { createOriginPolicy } from '../src/origin.ts';

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
