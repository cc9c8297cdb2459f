import { testDatabaseKinds } from '@innkeep/storage/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildPagesApp,
  CookieJar,
  createHost,
  openPagesWorld,
  type PagesWorld,
  signIn,
} from './support/account-pages-harness.ts';

const attackerAddress = '203.0.113.66';
const ownerAddress = '198.51.100.20';

// Someone who knows the owner's email must be stopped from guessing the password, and must not be able to
// keep the owner out by failing on purpose.
describe.each(testDatabaseKinds)('sign-in lock-out on %s', (kind) => {
  let world: PagesWorld;
  let app: FastifyInstance;

  beforeAll(async () => {
    world = await openPagesWorld(kind);
    app = await buildPagesApp(world);
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    await world?.close();
  });

  async function failFrom(address: string, email: string, times: number): Promise<number[]> {
    const statuses: number[] = [];
    for (let attempt = 1; attempt <= times; attempt += 1) {
      const jar = new CookieJar();
      const response = await signIn(app, jar, { email, password: `guess ${attempt}` }, undefined, address);
      statuses.push(response.statusCode);
    }
    return statuses;
  }

  it('locks the guesser’s address out of the email while the owner signs in from elsewhere', async () => {
    const owner = await createHost(world);
    expect(await failFrom(attackerAddress, owner.email, 6)).toEqual([401, 401, 401, 401, 401, 429]);

    const fromHome = await signIn(app, new CookieJar(), owner, undefined, ownerAddress);
    expect(fromHome.statusCode).toBe(303);
    expect(fromHome.headers.location).toBe('/settings');

    // The owner's success forgets nothing of the attacker's: even the right password is refused there.
    const attackerAgain = await signIn(app, new CookieJar(), owner, undefined, attackerAddress);
    expect(attackerAgain.statusCode).toBe(429);
    expect(attackerAgain.headers['retry-after']).toBe('900');
  });

  it('lets the owner’s known browsers in when guesses from many addresses lock the email', async () => {
    const owner = await createHost(world);
    const ownBrowser = new CookieJar();
    expect((await signIn(app, ownBrowser, owner, undefined, ownerAddress)).statusCode).toBe(303);
    expect(ownBrowser.values.has('ik_device')).toBe(true);

    // Five guesses from each of four addresses: 20, the email-wide limit for browsers it never used.
    for (const address of ['192.0.2.1', '192.0.2.2', '192.0.2.3', '192.0.2.4']) {
      expect(await failFrom(address, owner.email, 5)).toEqual([401, 401, 401, 401, 401]);
    }
    const newBrowser = await signIn(app, new CookieJar(), owner, undefined, ownerAddress);
    expect(newBrowser.statusCode).toBe(429);

    ownBrowser.values.delete('ik_session');
    const knownBrowser = await signIn(app, ownBrowser, owner, undefined, ownerAddress);
    expect(knownBrowser.statusCode).toBe(303);
  });

  it('does not take a known-device cookie of one email for another', async () => {
    const owner = await createHost(world);
    const other = await createHost(world);
    const browser = new CookieJar();
    expect((await signIn(app, browser, other, undefined, ownerAddress)).statusCode).toBe(303);
    browser.values.delete('ik_session');
    for (const address of ['192.0.2.11', '192.0.2.12', '192.0.2.13', '192.0.2.14']) {
      await failFrom(address, owner.email, 5);
    }
    expect((await signIn(app, browser, owner, undefined, ownerAddress)).statusCode).toBe(429);
  });
});
