import type { Clock, InnkeepDomain } from '@innkeep/domain';
import { afterAll, beforeAll } from 'vitest';
import type { DatabaseHandle } from '../../src/connection.ts';
import { createPostgresDomain } from '../../src/create-domain.ts';
import { openTestDatabase, type TestDatabaseKind } from '../../src/testing.ts';
import { buildGuestFixture, type GuestFixture } from './analytics-guest-fixture.ts';

/** The guest fixture on its own database, and a domain whose clock stands at the fixture's now. */
export interface GuestWorld {
  readonly handle: DatabaseHandle;
  readonly fixture: GuestFixture;
  readonly domain: InnkeepDomain;
}

/**
 * Opens a database of `kind` with the guest fixture before the enclosing suite's tests and closes it after
 * them. Call it inside `describe`; read the world's fields only inside tests and hooks, once it is built.
 */
export function useGuestWorld(kind: TestDatabaseKind): GuestWorld {
  let built: GuestWorld | undefined;
  beforeAll(async () => {
    const handle = await openTestDatabase(kind);
    const fixture = await buildGuestFixture(handle.db);
    const clock: Clock = { now: () => fixture.now };
    built = { handle, fixture, domain: createPostgresDomain({ db: handle.db, clock }) };
  }, 60_000);
  afterAll(async () => built?.handle.close());
  const world = () => {
    if (built === undefined) throw new Error('the guest world is read before its suite built it');
    return built;
  };
  return {
    get handle() {
      return world().handle;
    },
    get fixture() {
      return world().fixture;
    },
    get domain() {
      return world().domain;
    },
  };
}
