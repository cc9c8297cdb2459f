import { DomainError } from '@innkeep/domain';
import { testDatabaseKinds } from '@innkeep/storage/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLoginThrottle, loginThrottleKeys, signInResetKeys } from '../src/postgres/login-throttle.ts';
import { openPagesWorld, type PagesWorld } from './support/account-pages-harness.ts';

const minuteMs = 60 * 1000;

async function refusal(work: Promise<void>): Promise<DomainError | undefined> {
  try {
    await work;
    return undefined;
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
}

describe.each(testDatabaseKinds)('login throttle on %s', (kind) => {
  let world: PagesWorld;

  beforeAll(async () => {
    world = await openPagesWorld(kind);
  }, 180_000);

  afterAll(async () => {
    await world?.close();
  });

  it('builds lower-case email keys and address keys; a known device has no email-wide key', () => {
    expect(
      loginThrottleKeys({ email: '  Ana@Example.TEST ', ip: '203.0.113.9', knownDevice: false }),
    ).toEqual(['email:ana@example.test', 'email-ip:ana@example.test 203.0.113.9', 'ip:203.0.113.9']);
    expect(loginThrottleKeys({ email: 'Ana@Example.TEST', ip: '203.0.113.9', knownDevice: true })).toEqual([
      'email-ip:ana@example.test 203.0.113.9',
      'ip:203.0.113.9',
    ]);
  });

  it('a successful sign-in forgets the email keys, never the address key', () => {
    const keys = loginThrottleKeys({ email: 'ana@example.test', ip: '203.0.113.9', knownDevice: false });
    expect(signInResetKeys(keys)).toEqual([
      'email:ana@example.test',
      'email-ip:ana@example.test 203.0.113.9',
    ]);
  });

  it('locks an email from one address after 5 failures within 15 minutes, for 15 minutes', async () => {
    const throttle = createLoginThrottle(world.db, world.clock);
    const keys = ['email-ip:lock@example.test 192.0.2.1'];
    for (let failure = 1; failure <= 4; failure += 1) {
      await throttle.recordFailure(keys);
      world.clock.advance(minuteMs);
      await expect(throttle.assertAllowed(keys)).resolves.toBeUndefined();
    }
    await throttle.recordFailure(keys);
    const locked = await refusal(throttle.assertAllowed(keys));
    expect(locked?.code).toBe('rate_limited');
    expect(locked?.details).toEqual({ retryAfterSeconds: 900 });
    // The same email from another address, and a list naming the locked key among others.
    await expect(throttle.assertAllowed(['email-ip:lock@example.test 192.0.2.2'])).resolves.toBeUndefined();
    await expect(throttle.assertAllowed(['email:lock@example.test', ...keys])).rejects.toMatchObject({
      code: 'rate_limited',
    });

    world.clock.advance(10 * minuteMs);
    expect((await refusal(throttle.assertAllowed(keys)))?.details).toEqual({ retryAfterSeconds: 300 });
    world.clock.advance(5 * minuteMs);
    await expect(throttle.assertAllowed(keys)).resolves.toBeUndefined();

    // After the lock the count starts again: four failures do not lock, the fifth does.
    for (let failure = 1; failure <= 4; failure += 1) await throttle.recordFailure(keys);
    await expect(throttle.assertAllowed(keys)).resolves.toBeUndefined();
    await throttle.recordFailure(keys);
    await expect(throttle.assertAllowed(keys)).rejects.toMatchObject({ code: 'rate_limited' });
  });

  it('locks an email from everywhere only after 20 failures', async () => {
    const throttle = createLoginThrottle(world.db, world.clock);
    const keys = ['email:spread@example.test'];
    for (let failure = 1; failure <= 19; failure += 1) await throttle.recordFailure(keys);
    await expect(throttle.assertAllowed(keys)).resolves.toBeUndefined();
    await throttle.recordFailure(keys);
    await expect(throttle.assertAllowed(keys)).rejects.toMatchObject({
      code: 'rate_limited',
      details: { retryAfterSeconds: 900 },
    });
  });

  it('forgets failures older than the 15-minute window', async () => {
    const throttle = createLoginThrottle(world.db, world.clock);
    const keys = ['email:slow@example.test'];
    for (let failure = 1; failure <= 4; failure += 1) await throttle.recordFailure(keys);
    world.clock.advance(15 * minuteMs);
    for (let failure = 1; failure <= 4; failure += 1) await throttle.recordFailure(keys);
    await expect(throttle.assertAllowed(keys)).resolves.toBeUndefined();
    const row = await world.db
      .selectFrom('login_throttle')
      .selectAll()
      .where('key', '=', keys[0] ?? '')
      .executeTakeFirstOrThrow();
    expect(row.failures).toBe(4);
    expect(row.locked_until).toBeNull();
  });

  it('locks an address after 50 failures, whatever the emails', async () => {
    const throttle = createLoginThrottle(world.db, world.clock);
    const address = 'ip:198.51.100.7';
    for (let failure = 1; failure <= 49; failure += 1) {
      await throttle.recordFailure([`email:spray${failure}@example.test`, address]);
    }
    await expect(throttle.assertAllowed([address])).resolves.toBeUndefined();
    await throttle.recordFailure(['email:spray50@example.test', address]);
    await expect(throttle.assertAllowed(['email:fresh@example.test', address])).rejects.toMatchObject({
      code: 'rate_limited',
      details: { retryAfterSeconds: 900 },
    });
    await expect(
      throttle.assertAllowed(['email:fresh@example.test', 'ip:198.51.100.8']),
    ).resolves.toBeUndefined();
  });

  it('reset forgets only the keys it names', async () => {
    const throttle = createLoginThrottle(world.db, world.clock);
    const keys = ['email-ip:reset@example.test 192.0.2.44', 'ip:192.0.2.44'];
    for (let failure = 1; failure <= 5; failure += 1) await throttle.recordFailure(keys);
    await expect(throttle.assertAllowed(keys.slice(0, 1))).rejects.toMatchObject({ code: 'rate_limited' });
    await throttle.reset(keys.slice(0, 1));
    await expect(throttle.assertAllowed(keys)).resolves.toBeUndefined();
    const remaining = await world.db
      .selectFrom('login_throttle')
      .select(['key', 'failures'])
      .where('key', 'in', keys)
      .execute();
    expect(remaining).toEqual([{ key: 'ip:192.0.2.44', failures: 5 }]);
  });

  it('counts every one of many concurrent failures exactly once, across throttle instances', async () => {
    const key = 'email:race@example.test';
    await Promise.all(
      Array.from({ length: 30 }, () => createLoginThrottle(world.db, world.clock).recordFailure([key])),
    );
    const row = await world.db
      .selectFrom('login_throttle')
      .select(['failures', 'locked_until'])
      .where('key', '=', key)
      .executeTakeFirstOrThrow();
    expect(row.failures).toBe(30);
    expect(row.locked_until?.toISOString()).toBe(
      new Date(world.clock.now().getTime() + 15 * minuteMs).toISOString(),
    );
  });

  it('refuses keys of an unknown kind and accepts empty lists', async () => {
    const throttle = createLoginThrottle(world.db, world.clock);
    await expect(throttle.recordFailure(['user:someone'])).rejects.toThrow(/email-ip:.*email:.*ip:/);
    await expect(throttle.assertAllowed([])).resolves.toBeUndefined();
    await expect(throttle.reset([])).resolves.toBeUndefined();
  });
});
