import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateSigningKey } from '@innkeep/auth';
import { obtainAccessToken, openAuthTestDatabase } from '@innkeep/auth/testing';
import { systemClock } from '@innkeep/domain';
import { createOperatorUseCases } from '@innkeep/storage';
import type { TestDatabase } from '@innkeep/storage/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, isolatedEnv, runCli, serverDir, serverStartLimitMs } from './support/processes.ts';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const owner = {
  email: 'olivia@example.test',
  password: 'correct horse battery',
  firstName: 'Olivia',
  lastName: 'Owner',
  accountName: 'Harbour Stays',
  timeZone: 'Europe/Lisbon',
  currency: 'EUR' as const,
};

/** A server process and what it printed. */
interface Started {
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  output(): string;
  /** Resolves once the output has `count` lines containing every one of `texts`. */
  waitFor(texts: readonly string[], count?: number): Promise<void>;
}

function startProcess(command: string, args: readonly string[], cwd: string, env: Record<string, string>) {
  // Its own process group, so that a test can tell whether anything it started outlives it.
  const child = spawn(command, args, { cwd, env: isolatedEnv(env), detached: true });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const started: Started = {
    child,
    exited,
    output: () => output,
    async waitFor(texts, count = 1) {
      const deadline = Date.now() + serverStartLimitMs;
      const matches = () =>
        output.split('\n').filter((line) => texts.every((text) => line.includes(text))).length;
      while (matches() < count) {
        if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}:\n${output}`);
        if (Date.now() > deadline) throw new Error(`no ${count}× ${texts.join(' + ')} in:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
  return started;
}

/** True while some process of the group `pgid` runs. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

async function portIsFree(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A tools/call whose headers and first byte go out now, and the rest of the body on `finish()`. */
function slowToolCall(port: number, token: string) {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 7,
    method: 'tools/call',
    params: { name: 'get_user', arguments: {} },
  });
  const request = httpRequest({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: '/mcp',
    agent: false,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      authorization: `Bearer ${token}`,
      'content-length': String(Buffer.byteLength(body)),
    },
  });
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.on('error', reject);
    request.on('response', (incoming) => {
      let text = '';
      incoming.on('data', (chunk: Buffer) => {
        text += chunk.toString();
      });
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, body: text }));
    });
  });
  request.write(body.slice(0, 1));
  return { finish: () => request.end(body.slice(1)), response };
}

describe.each(['pglite', 'postgres'] as const)('SIGTERM to node src/main.ts on %s', (kind) => {
  let dataDir: string;
  let database: TestDatabase | undefined;
  let server: Started;
  let port: number;
  let metricsPort: number;
  let token: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'innkeep-shutdown-'));
    port = await freePort();
    metricsPort = await freePort();
    const env: Record<string, string> = {
      PORT: String(port),
      BASE_URL: `http://127.0.0.1:${port}`,
      DEMO_DATA: 'false',
      MESSAGE_RULES: 'off',
    };
    if (kind === 'pglite') {
      Object.assign(env, { DATA_DIR: dataDir });
      const created = await runCli(
        [
          'create-owner',
          ...Object.entries(owner).flatMap(([name, value]) => [
            `--${name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`,
            value,
          ]),
          '--status',
          'active',
        ],
        { DATA_DIR: dataDir },
      );
      expect(created.code, created.stderr).toBe(0);
    } else {
      database = await openAuthTestDatabase('postgres');
      await createOperatorUseCases({ db: database.db, clock: systemClock }).createOwnerAccount({
        ...owner,
        subscriptionStatus: 'active',
      });
      Object.assign(env, {
        DATABASE_URL: database.url ?? '',
        SECRET_KEYS: 'shutdown-test-key-0123456789abcdefghijkl',
        OIDC_SIGNING_KEY: JSON.stringify(generateSigningKey()),
        METRICS_PORT: String(metricsPort),
      });
    }
    server = startProcess(process.execPath, ['src/main.ts'], serverDir, env);
    await server.waitFor(['Innkeep is running at']);
    ({ accessToken: token } = await obtainAccessToken({
      baseUrl: `http://127.0.0.1:${port}`,
      email: owner.email,
      password: owner.password,
      scopes: ['user:read'],
    }));
  });

  afterAll(async () => {
    if (server?.child.exitCode === null) server.child.kill('SIGKILL');
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers /health/live and /health/ready while running', async () => {
    const live = await fetch(`http://127.0.0.1:${port}/health/live`);
    expect(await live.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`http://127.0.0.1:${port}/health/ready`);
    expect(ready.status).toBe(200);
  });

  if (kind === 'pglite') {
    it('serves no metrics without METRICS_PORT, on the public port or any other', async () => {
      expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(404);
      expect(server.output()).not.toContain('Serving Prometheus metrics');
      expect(await portIsFree(metricsPort)).toBe(true);
    });
  } else {
    it('serves the metrics on METRICS_PORT: tool calls and the pool', async () => {
      const call = slowToolCall(port, token);
      call.finish();
      expect((await call.response).status).toBe(200);
      const scraped = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      expect(scraped).toContain('mcp_tool_calls_total{tool="get_user",outcome="success"} 1');
      expect(scraped).toMatch(/^db_pool_connections [1-9]/m);
      expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(404);
    });
  }

  it('answers the requests in flight and those sent just before the signal, refuses new ones, closes the database and exits 0', async () => {
    const incomingBefore = server
      .output()
      .split('\n')
      .filter((line) => line.includes('"url":"/mcp"')).length;
    const calls = Array.from({ length: 8 }, () => slowToolCall(port, token));
    await server.waitFor(['incoming request', '"url":"/mcp"'], incomingBefore + 8);
    // Sent whole, right before the signal: the server may not have read them when it arrives.
    const lastMoment = Array.from({ length: 8 }, () => slowToolCall(port, token));
    for (const call of lastMoment) call.finish();

    server.child.kill('SIGTERM');
    await server.waitFor(['Stopped accepting connections']);
    await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
    for (const call of calls) call.finish();

    const responses = await Promise.all([...calls, ...lastMoment].map((call) => call.response));
    expect(responses.map((response) => response.status)).toEqual(Array(16).fill(200));
    for (const response of responses) {
      expect(JSON.parse(response.body)).toMatchObject({
        result: { structuredContent: { email: owner.email } },
      });
    }
    expect(await server.exited).toBe(0);
    expect(server.output()).not.toContain(token);
    if (kind === 'pglite') {
      expect(existsSync(join(dataDir, 'innkeep.pid'))).toBe(false);
      expect((await runCli(['migrate'], { DATA_DIR: dataDir })).code).toBe(0);
    }
  });
});

describe('SIGTERM to npm start', () => {
  it('reaches the server, which stops and frees its port, and npm exits 0 with nothing left behind', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'innkeep-npm-start-'));
    const port = await freePort();
    try {
      const npm = startProcess('npm', ['start'], repoRoot, {
        PORT: String(port),
        DATA_DIR: dataDir,
        DEMO_DATA: 'false',
      });
      await npm.waitFor(['Innkeep is running at']);
      const pgid = npm.child.pid ?? 0;
      npm.child.kill('SIGTERM');
      expect(await npm.exited).toBe(0);
      const deadline = Date.now() + 10_000;
      while (groupAlive(pgid) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
      const orphaned = groupAlive(pgid);
      if (orphaned) process.kill(-pgid, 'SIGKILL');
      expect(orphaned).toBe(false);
      expect(await portIsFree(port)).toBe(true);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
