import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@innkeep/auth/testing';
import { openTestDatabase, type TestDatabase, testServerUrl } from '@innkeep/storage/testing';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

const servicePath = new URL('./support/minimal-service.ts', import.meta.url).pathname;

interface RunningService {
  readonly child: ChildProcessWithoutNullStreams;
  output(): string;
  readonly exited: Promise<number | null>;
}

const running: RunningService[] = [];

/** Starts the minimal service with only `env` (and PATH) in its environment. */
function runService(env: Record<string, string>): RunningService {
  const child = spawn(process.execPath, [servicePath], { env: { PATH: process.env.PATH ?? '', ...env } });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const service = { child, output: () => output, exited };
  running.push(service);
  return service;
}

async function announced(service: RunningService, port: number): Promise<void> {
  await vi.waitFor(
    () => {
      if (service.child.exitCode !== null) throw new Error(`exited early:\n${service.output()}`);
      expect(service.output()).toContain(`The minimal service is running on port ${port}\n`);
    },
    { timeout: 150_000, interval: 100 },
  );
}

afterEach(async () => {
  for (const service of running.splice(0)) {
    if (service.child.exitCode === null && service.child.signalCode === null) service.child.kill('SIGKILL');
    await service.exited;
  }
});

describe('startService on the embedded database', () => {
  let dataDir: string;

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'innkeep-service-host-'));
  });

  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('serves health and its routes, keeps DATA_DIR to itself, and stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    const service = runService({ PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
    await announced(service, port);
    const ready = await fetch(`http://127.0.0.1:${port}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await (await fetch(`http://127.0.0.1:${port}/hello`)).json()).toEqual({ hello: 'world' });

    const second = runService({ PORT: String(await freePort()), DATA_DIR: dataDir });
    expect(await second.exited).toBe(1);
    expect(second.output()).toBe(
      `The minimal service could not start: The embedded database in ${dataDir} is in use by process ` +
        `${service.child.pid} (a running Innkeep server or command). It serves one process at a time: stop ` +
        'that process first, or use PostgreSQL through DATABASE_URL.\n',
    );

    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
    expect(existsSync(join(dataDir, 'innkeep.pid'))).toBe(false);
  });

  it('says in one line that the port is taken, and exits 1', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const address = taken.address();
    if (address === null || typeof address === 'string') throw new Error('no TCP address');
    try {
      const service = runService({ PORT: String(address.port), DATA_DIR: dataDir });
      expect(await service.exited).toBe(1);
      expect(service.output()).toBe(
        `The minimal service could not start: port ${address.port} on 127.0.0.1 is already in use; ` +
          'stop the other process or set PORT.\n',
      );
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('says in one line that Redis does not answer, and exits 1', async () => {
    const service = runService({
      PORT: String(await freePort()),
      DATA_DIR: dataDir,
      REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
    });
    expect(await service.exited).toBe(1);
    expect(service.output()).toMatch(
      /^The minimal service could not start: the Redis server in REDIS_URL did not answer \(.+\); is it running, on that host and port\?\n$/,
    );
  });

  it('names every bad variable of the shared configuration and exits 1 without starting', async () => {
    const service = runService({ PORT: 'eighty', LOG_LEVEL: 'loud', REDIS_URL: 'http://user:hunter2@cache' });
    expect(await service.exited).toBe(1);
    const output = service.output();
    expect(output).toContain("The minimal service's configuration is invalid:\n");
    expect(output).toContain('PORT: must be a port number from 1 to 65535 (got "eighty")');
    expect(output).toContain('LOG_LEVEL: must be one of');
    expect(output).toContain('REDIS_URL: must be a redis:// or rediss:// URL\n');
    expect(output).not.toContain('hunter2');
  });
});

describe('startService on PostgreSQL', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await openTestDatabase('postgres', {});
  }, 180_000);

  afterAll(async () => {
    await database?.close();
  });

  it('logs each lost pooled connection once, at warn, without the connection string', async () => {
    // Trust authentication ignores the password, so it can mark the URL: it must never reach the log.
    const url = new URL(database.url ?? testServerUrl);
    url.password = 'never-log-this-password';
    const databaseName = url.pathname.slice(1);
    // This test's own connections to the database, which only the service's are terminated beside.
    const { rows: ours } = await sql<{ pid: number }>`
      select pid from pg_stat_activity where datname = ${databaseName}`.execute(database.db);
    const port = await freePort();
    const service = runService({ PORT: String(port), DATABASE_URL: url.href, LOG_LEVEL: 'warn' });
    await announced(service, port);
    // Several requests at once, so the pool holds several connections.
    const checks = await Promise.all(
      Array.from({ length: 4 }, () => fetch(`http://127.0.0.1:${port}/health/ready`)),
    );
    expect(checks.map((check) => check.status)).toEqual([200, 200, 200, 200]);

    const { rows } = await sql<{ ended: boolean }>`
      select pg_terminate_backend(pid) as ended from pg_stat_activity
      where datname = ${databaseName} and pid <> pg_backend_pid()
        and pid <> all(${ours.map((row) => row.pid)}::int[])`.execute(database.db);
    const terminated = rows.filter((row) => row.ended).length;
    expect(terminated).toBeGreaterThan(0);

    const warnings = () =>
      service
        .output()
        .split('\n')
        .filter((line) => line.includes('Lost a connection to PostgreSQL'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    await vi.waitFor(() => expect(warnings()).toHaveLength(terminated), { timeout: 5_000, interval: 50 });
    expect(warnings()[0]).toMatchObject({ level: 40, code: '57P01' });
    expect(service.output()).not.toContain('never-log-this-password');

    // The pool opens new connections: the service goes on answering.
    expect((await fetch(`http://127.0.0.1:${port}/health/ready`)).status).toBe(200);
    expect(warnings()).toHaveLength(terminated);
  });
});
