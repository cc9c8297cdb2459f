import { createServer, type Server, type Socket } from 'node:net';
import type { Clock } from '@innkeep/domain';
import { type DatabaseHandle, openDatabase } from '@innkeep/storage';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppDeps, buildApp } from '../src/app.ts';
import { testAuthDeps } from './support/app-deps.ts';

const testServerUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

function fakeClock(start: string): Clock & { advance(ms: number): void } {
  let now = new Date(start).getTime();
  return {
    now: () => new Date(now),
    advance(ms) {
      now += ms;
    },
  };
}

function build(deps: Pick<AppDeps, 'database' | 'clock'>) {
  return buildApp({ ...deps, ...testAuthDeps, logLevel: 'silent' });
}

describe.each(['pglite', 'postgres'] as const)('GET /health on %s', (kind) => {
  let database: DatabaseHandle;

  beforeAll(async () => {
    database = await openDatabase(kind === 'pglite' ? { kind } : { kind, url: testServerUrl, poolSize: 2 });
  });

  afterAll(async () => {
    await database?.close();
  });

  it('answers 200 with the database kind and whole seconds since the app was built', async () => {
    const clock = fakeClock('2026-11-21T10:00:00Z');
    const app = build({ database, clock });
    clock.advance(90_700);
    const response = await app.inject({ method: 'GET', url: '/health' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toEqual({ status: 'ok', database: kind, uptimeSeconds: 90 });
    await app.close();
  });
});

describe('GET /health when the database is gone', () => {
  it('answers 503 with no driver text when the database is closed', async () => {
    const database = await openDatabase({ kind: 'pglite' });
    // Kysely only really closes a database it has used, so use it once first.
    await sql`select 1`.execute(database.db);
    await database.close();
    const app = build({ database, clock: fakeClock('2026-11-21T10:00:00Z') });
    const response = await app.inject({ method: 'GET', url: '/health' });
    expect(response.statusCode).toBe(503);
    expect(response.body).toBe('{"status":"unavailable"}');
    await app.close();
  });

  describe('and a server accepts connections but never answers', () => {
    let silentServer: Server;
    const sockets: Socket[] = [];
    let port = 0;

    beforeAll(async () => {
      silentServer = createServer((socket) => sockets.push(socket));
      await new Promise<void>((resolve) => silentServer.listen(0, '127.0.0.1', resolve));
      const address = silentServer.address();
      if (address === null || typeof address === 'string') throw new Error('no TCP address');
      port = address.port;
    });

    afterAll(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silentServer.close(resolve));
    });

    it('answers 503 within about three seconds instead of hanging', async () => {
      const database = await openDatabase({
        kind: 'postgres',
        url: `postgres://innkeep@127.0.0.1:${port}/innkeep`,
      });
      const app = build({ database, clock: fakeClock('2026-11-21T10:00:00Z') });
      const startedAt = performance.now();
      const response = await app.inject({ method: 'GET', url: '/health' });
      const elapsed = performance.now() - startedAt;
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ status: 'unavailable' });
      expect(elapsed).toBeGreaterThanOrEqual(2900);
      expect(elapsed).toBeLessThan(5000);
      await app.close();
      for (const socket of sockets) socket.destroy();
      await database.close();
    });
  });
});
