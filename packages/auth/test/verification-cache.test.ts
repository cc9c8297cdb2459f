import { describe, expect, it } from 'vitest';
import { VerificationCache } from '../src/resource-server/verification-cache.ts';

const t0 = 1_000_000;

/** The facts `store` takes, for a token of grant `g`, user `u`, account `a`, expiring an hour after t0. */
function facts(cache: VerificationCache<string>, overrides: Partial<Parameters<typeof cache.store>[2]> = {}) {
  return {
    grantId: 'g',
    userId: 'u',
    accountId: 'a',
    nowMs: t0,
    expiresAtMs: t0 + 3_600_000,
    grantUsedAtMs: t0,
    epoch: cache.epoch,
    ...overrides,
  };
}

function enabledCache(limits = { maxEntries: 100, maxAgeMs: 30_000 }) {
  const cache = new VerificationCache<string>(limits);
  cache.enable();
  return cache;
}

describe('verification cache', () => {
  it('keeps nothing until enabled, and forgets everything when disabled', () => {
    const cache = new VerificationCache<string>({ maxEntries: 100, maxAgeMs: 30_000 });
    cache.store('d1', 'one', facts(cache));
    expect(cache.lookup('d1', t0)).toBeUndefined();
    cache.enable();
    cache.store('d1', 'one', facts(cache));
    expect(cache.lookup('d1', t0)).toBe('one');
    cache.disable();
    expect(cache.lookup('d1', t0)).toBeUndefined();
    cache.store('d1', 'one', facts(cache));
    expect(cache.size).toBe(0);
  });

  it('uses an entry for at most maxAgeMs, and never past the expiry it was given', () => {
    const cache = enabledCache();
    cache.store('long', 'long', facts(cache));
    cache.store('short', 'short', facts(cache, { expiresAtMs: t0 + 10_000 }));
    expect(cache.lookup('short', t0 + 9_999)).toBe('short');
    expect(cache.lookup('short', t0 + 10_000)).toBeUndefined();
    expect(cache.lookup('long', t0 + 29_999)).toBe('long');
    expect(cache.lookup('long', t0 + 30_000)).toBeUndefined();
    cache.store('expired', 'expired', facts(cache, { expiresAtMs: t0 }));
    expect(cache.lookup('expired', t0)).toBeUndefined();
  });

  it('refuses an answer whose query began before a notification or a listener change', () => {
    const cache = enabledCache();
    const before = cache.epoch;
    cache.invalidate({ kind: 'user', id: 'someone-else' });
    cache.store('d1', 'one', facts(cache, { epoch: before }));
    expect(cache.lookup('d1', t0)).toBeUndefined();
    const beforeRecovery = cache.epoch;
    cache.disable();
    cache.enable();
    cache.store('d1', 'one', facts(cache, { epoch: beforeRecovery }));
    expect(cache.lookup('d1', t0)).toBeUndefined();
  });

  it('drops exactly the entries of the grant, user or account a notification names', () => {
    const cache = enabledCache();
    cache.store('g1-token', 'a', facts(cache, { grantId: 'g1', userId: 'u1', accountId: 'a1' }));
    cache.store('g2-token', 'b', facts(cache, { grantId: 'g2', userId: 'u1', accountId: 'a1' }));
    cache.store('u2-token', 'c', facts(cache, { grantId: 'g3', userId: 'u2', accountId: 'a2' }));
    cache.store('a3-token', 'd', facts(cache, { grantId: 'g4', userId: 'u3', accountId: 'a3' }));
    cache.invalidate({ kind: 'grant', id: 'g1' });
    expect(cache.lookup('g1-token', t0)).toBeUndefined();
    expect(cache.lookup('g2-token', t0)).toBe('b');
    cache.invalidate({ kind: 'user', id: 'u2' });
    expect(cache.lookup('u2-token', t0)).toBeUndefined();
    cache.invalidate({ kind: 'account', id: 'a1' });
    expect(cache.lookup('g2-token', t0)).toBeUndefined();
    expect(cache.lookup('a3-token', t0)).toBe('d');
    cache.invalidate({ kind: 'everything' });
    expect(cache.size).toBe(0);
  });

  it('holds at most maxEntries, evicting the least recently used', () => {
    const cache = enabledCache({ maxEntries: 2, maxAgeMs: 30_000 });
    cache.store('a', 'a', facts(cache, { grantId: 'ga' }));
    cache.store('b', 'b', facts(cache, { grantId: 'gb' }));
    expect(cache.lookup('a', t0)).toBe('a');
    cache.store('c', 'c', facts(cache, { grantId: 'gc' }));
    expect(cache.size).toBe(2);
    expect(cache.lookup('b', t0)).toBeUndefined();
    expect(cache.lookup('a', t0)).toBe('a');
    expect(cache.lookup('c', t0)).toBe('c');
  });

  it('claims a grant use once per interval, from the last use it was told of', () => {
    const cache = enabledCache();
    cache.store('d1', 'one', facts(cache, { grantUsedAtMs: t0 - 50_000 }));
    expect(cache.claimGrantUse('g', t0 + 9_999, 60_000)).toBe(false);
    expect(cache.claimGrantUse('g', t0 + 10_000, 60_000)).toBe(true);
    expect(cache.claimGrantUse('g', t0 + 20_000, 60_000)).toBe(false);
    expect(cache.claimGrantUse('g', t0 + 70_000, 60_000)).toBe(true);
  });
});
