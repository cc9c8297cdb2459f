import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { testDatabaseKinds } from '@innkeep/storage/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authorizeInBrowser,
  Browser,
  createOwner,
  freePort,
  type OauthWorld,
  openOauthWorld,
  type RunningServer,
  registerClient,
  startServer,
  type TestUser,
} from './support/oauth-harness.ts';

// The conformance suite's own CLI (0.2.0-alpha.12 has the `authorization` command), run with this Node.
const require = createRequire(import.meta.url);
const conformanceBin = join(
  dirname(require.resolve('@modelcontextprotocol/conformance/package.json')),
  'dist/index.js',
);

describe.each(testDatabaseKinds)('MCP conformance suite: authorization server scenarios on %s', (kind) => {
  let world: OauthWorld;
  let server: RunningServer;
  let owner: TestUser;
  let outputDir: string;

  beforeAll(async () => {
    world = await openOauthWorld(kind);
    server = await startServer(world);
    owner = await createOwner(world);
    outputDir = mkdtempSync(join(tmpdir(), 'innkeep-conformance-'));
  }, 180_000);

  afterAll(async () => {
    await server?.app.close();
    await world?.close();
    if (outputDir !== undefined) rmSync(outputDir, { recursive: true, force: true });
  });

  it('passes the metadata and authorization-code-grant scenarios and exits 0', async () => {
    const port = await freePort();
    const client = await registerClient(server.origin, {
      client_name: 'Conformance',
      redirect_uris: [`http://127.0.0.1:${port}/callback`],
      token_endpoint_auth_method: 'none',
    });
    const child = spawn(
      process.execPath,
      [
        conformanceBin,
        'authorization',
        '--url',
        server.baseUrl,
        '--client-id',
        client.client_id,
        '--resource',
        `${server.baseUrl}/mcp`,
        '--port',
        String(port),
        '-o',
        outputDir,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));

    try {
      // The suite prints the authorization URL for a person to open, then waits for its callback.
      const prefix = `${server.baseUrl}/oauth/authorize?`;
      const deadline = Date.now() + 30_000;
      while (!stdout.includes(prefix)) {
        if (child.exitCode !== null) throw new Error(`conformance exited early:\n${stdout}\n${stderr}`);
        if (Date.now() > deadline) throw new Error(`no authorization URL within 30 s:\n${stdout}\n${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const url = stdout.slice(stdout.indexOf(prefix)).split('\n', 1)[0] ?? '';
      const browser = new Browser();
      const outcome = await authorizeInBrowser(browser, url, owner);
      expect(outcome.redirect.origin).toBe(`http://127.0.0.1:${port}`);
      // The browser lands on the suite's callback listener, which then redeems the code itself.
      await browser.get(outcome.redirect.href);

      const code = await exited;
      expect({ code, stdout, stderr }).toMatchObject({ code: 0 });
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    const results = readdirSync(outputDir, { recursive: true })
      .map(String)
      .filter((file) => file.endsWith('checks.json'))
      .flatMap(
        (file) => JSON.parse(readFileSync(join(outputDir, file), 'utf8')) as { id: string; status: string }[],
      );
    const statuses = Object.fromEntries(results.map((check) => [check.id, check.status]));
    expect(statuses).toEqual({
      'authorization-server-metadata': 'SUCCESS',
      'authorization-code-grant': 'SUCCESS',
      // The metadata says Client ID Metadata Documents are supported (client_id_metadata_document_supported).
      'authorization-server-metadata-cimd': 'SUCCESS',
    });
  }, 180_000);
});
