import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, isolatedEnv, runCli, serverDir, serverStartLimitMs } from './support/processes.ts';

describe('node src/main.ts', () => {
  let root: string;
  let port: number;
  let child: ChildProcessWithoutNullStreams;
  let stdout = '';
  let stderr = '';
  let exited: Promise<number | null>;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'innkeep-main-'));
    port = await freePort();
    child = spawn(process.execPath, ['src/main.ts'], {
      cwd: serverDir,
      env: isolatedEnv({ PORT: String(port), DATA_DIR: root, DEMO_DATA: 'false' }),
    });
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  });

  afterAll(async () => {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  });

  it('migrates a fresh data directory, listens, and prints its address', async () => {
    const banner = `Innkeep is running at http://localhost:${port}\n`;
    const deadline = Date.now() + serverStartLimitMs;
    while (!stdout.includes(banner)) {
      if (child.exitCode !== null) throw new Error(`main.ts exited with ${child.exitCode}:\n${stderr}`);
      if (Date.now() > deadline)
        throw new Error(`no banner within ${serverStartLimitMs / 1000} s:\n${stdout}\n${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(stdout).not.toContain('Demo login');
  });

  it('serves /health', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'ok', database: 'pglite' });
  });

  it('generated the secret keys into the data directory, readable only by its owner, and said so', () => {
    expect(statSync(join(root, 'secret-keys.json')).mode & 0o777).toBe(0o600);
    expect(stdout).toContain('SECRET_KEYS is not set: generated keys');
  });

  it('generated the ID-token signing key beside them, and said so', () => {
    expect(statSync(join(root, 'oidc-signing-key.json')).mode & 0o777).toBe(0o600);
    expect(stdout).toContain('OIDC_SIGNING_KEY is not set: generated the ID-token signing key');
  });

  it('serves OAuth discovery for BASE_URL, the protected resource metadata and the sign-in page', async () => {
    const base = `http://localhost:${port}`;
    const metadata = await fetch(`http://127.0.0.1:${port}/.well-known/oauth-authorization-server`);
    expect(metadata.status).toBe(200);
    expect(await metadata.json()).toMatchObject({
      issuer: base,
      token_endpoint: `${base}/oauth/token`,
      registration_endpoint: `${base}/oauth/register`,
      code_challenge_methods_supported: ['S256'],
    });
    const resource = await fetch(`http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp`);
    expect(await resource.json()).toMatchObject({ resource: `${base}/mcp`, authorization_servers: [base] });
    const login = await fetch(`http://127.0.0.1:${port}/login`);
    expect(login.status).toBe(200);
    expect(await login.text()).toContain('name="password"');
  });

  it('keeps CLI commands off its embedded database while it runs', async () => {
    const result = await runCli(['migrate'], { DATA_DIR: root });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`is in use by process ${child.pid}`);
  });

  it('shuts down cleanly on SIGTERM', async () => {
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('left a database the CLI can use', async () => {
    const result = await runCli(['migrate'], { DATA_DIR: root });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^The database schema was already up to date\.\n/);
  });
});

describe('node src/main.ts with a bad environment', () => {
  it('names every bad variable and exits 1 without starting', async () => {
    const child = spawn(process.execPath, ['src/main.ts'], {
      cwd: serverDir,
      env: isolatedEnv({ PORT: 'eighty', DATABASE_URL: 'postgres://db/innkeep' }),
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain('PORT: must be a port number from 1 to 65535 (got "eighty")');
    expect(stderr).toContain('SECRET_KEYS: required when DATABASE_URL is set');
    expect(stderr).toContain('OIDC_SIGNING_KEY: required when DATABASE_URL is set');
  });
});
