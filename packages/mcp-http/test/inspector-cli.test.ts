import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { toolCatalogue } from '@innkeep/mcp-tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  demoOwner,
  type McpWorld,
  openMcpWorld,
  type Person,
  type RunningApp,
  startApp,
  tokenFor,
} from './support/mcp-world.ts';

// The MCP Inspector's command line (2.12.0), through its launcher as `npx @modelcontextprotocol/inspector --cli`.
const inspector = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector/package.json')),
  'clients/launcher/build/index.js',
);

/** What one Inspector run printed, and how it ended. */
interface InspectorRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

describe('the MCP Inspector CLI (2.12.0) against /mcp with a bearer header', () => {
  let world: McpWorld;
  let server: RunningApp;
  let owner: Person;
  let token: string;
  let home: string;

  beforeAll(async () => {
    world = await openMcpWorld('pglite');
    server = await startApp(world);
    owner = await demoOwner(world);
    token = await tokenFor(server, owner);
    // The Inspector keeps state under $HOME/.mcp-inspector; give it a throwaway home.
    home = await mkdtemp(join(tmpdir(), 'innkeep-inspector-'));
  }, 120_000);

  afterAll(async () => {
    await server?.app.close();
    await world?.close();
    if (home !== undefined) await rm(home, { recursive: true, force: true });
  });

  /**
   * Runs the Inspector CLI on /mcp with `args` and the header `Authorization: Bearer <bearer>`.
   * `--stored-auth-only` keeps it from starting an OAuth flow of its own when the server answers 401.
   */
  function inspect(args: readonly string[], bearer: string): Promise<InspectorRun> {
    const argv = [inspector, '--cli', server.mcpUrl, '--transport', 'http', '--stored-auth-only'];
    argv.push(...args, '--header', `Authorization: Bearer ${bearer}`);
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        argv,
        { cwd: home, env: { ...process.env, HOME: home }, timeout: 30_000 },
        (error, stdout, stderr) => {
          const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
          resolve({ code, stdout, stderr });
        },
      );
    });
  }

  it('lists every tool with its schema and annotations', async () => {
    const run = await inspect(['--method', 'tools/list'], token);
    expect(run.code, run.stderr).toBe(0);
    const { tools } = JSON.parse(run.stdout) as {
      tools: {
        name: string;
        inputSchema: { required?: string[] };
        annotations?: { readOnlyHint?: boolean };
      }[];
    };
    expect(tools.map((tool) => tool.name).sort()).toEqual(toolCatalogue.map((tool) => tool.name).sort());
    const getListing = tools.find((tool) => tool.name === 'get_listing');
    expect(getListing?.inputSchema.required).toEqual(['listingId']);
    expect(getListing?.annotations?.readOnlyHint).toBe(true);
  });

  it('finds no schema portability problem in the catalogue with --strict: 0 errors, 0 warnings', async () => {
    // In JSON format, --strict adds `schemaFindings` beside the result when its schema lint finds anything
    // (type arrays, untyped schemas, remote $refs, …), and prints each finding on stderr.
    const run = await inspect(['--method', 'tools/list', '--strict', '--format', 'json'], token);
    expect(run.code, run.stderr).toBe(0);
    const envelope = JSON.parse(run.stdout) as { result: { tools: unknown[] }; schemaFindings?: unknown };
    expect(envelope.result.tools).toHaveLength(toolCatalogue.length);
    expect(envelope.schemaFindings).toBeUndefined();
    expect(run.stderr).not.toMatch(/warning|error/i);
  });

  it('pages listings with list_listings and reads one with get_listing', async () => {
    const page = await inspect(
      ['--method', 'tools/call', '--tool-name', 'list_listings', '--tool-arg', 'limit=2'],
      token,
    );
    expect(page.code, page.stderr).toBe(0);
    const listed = JSON.parse(page.stdout) as {
      isError?: boolean;
      structuredContent: { items: { id: string; name: string }[]; nextCursor: string | null };
    };
    expect(listed.isError).toBeUndefined();
    // The demo account has more than two listings, so a second page exists.
    expect(listed.structuredContent.items).toHaveLength(2);
    expect(listed.structuredContent.nextCursor).toEqual(expect.any(String));

    const [first] = listed.structuredContent.items;
    const one = await inspect(
      ['--method', 'tools/call', '--tool-name', 'get_listing', '--tool-arg', `listingId=${first?.id}`],
      token,
    );
    expect(one.code, one.stderr).toBe(0);
    const got = JSON.parse(one.stdout) as { structuredContent: { id: string; name: string } };
    expect(got.structuredContent).toMatchObject({ id: first?.id, name: first?.name });
  });

  it('reports a tool outside the grant as insufficient scope, naming the scope to ask for', async () => {
    const listingsOnly = await tokenFor(server, owner, ['listings:read']);
    const run = await inspect(['--method', 'tools/call', '--tool-name', 'get_user'], listingsOnly);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('Insufficient scope');
    expect(run.stderr).toContain('user:read');
  });

  it('reports a token the server does not know as unauthenticated', async () => {
    const run = await inspect(['--method', 'tools/list'], 'not-a-token');
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('auth_required');
    expect(run.stderr).toContain('-32001');
  });
});
