import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

// The rules of the house are lint rules in the repository's biome.json (noRestrictedImports per package,
// noReExportAll everywhere). This test runs that very configuration on probe files, so a rule that is
// loosened or loses its path shows up here and not only as a violation nobody was warned about.

const repositoryRoot = join(import.meta.dirname, '../../..');
const biomeBinary = join(repositoryRoot, 'node_modules/.bin/biome');
const runFile = promisify(execFile);

/** One finding of the linter: which rule, on which probe file. */
interface Finding {
  readonly rule: string;
  readonly file: string;
}

/** Lints the given files (path relative to the repository root → source) under the repository's biome.json. */
async function lintProbes(probes: Readonly<Record<string, string>>): Promise<readonly Finding[]> {
  const workspace = await mkdtemp(join(tmpdir(), 'innkeep-house-rules-'));
  try {
    await writeFile(join(workspace, 'biome.json'), await readFile(join(repositoryRoot, 'biome.json')));
    for (const [path, source] of Object.entries(probes)) {
      await mkdir(dirname(join(workspace, path)), { recursive: true });
      await writeFile(join(workspace, path), source);
    }
    const output = await runFile(biomeBinary, ['lint', '--reporter=github', '--vcs-enabled=false', '.'], {
      cwd: workspace,
    }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    return [...output.stdout.matchAll(/^::error title=([^,]+),file=([^,]+),/gm)].map(([, rule, file]) => ({
      rule: rule ?? '',
      file: relative(workspace, file ?? ''),
    }));
  } finally {
    await rm(workspace, { recursive: true, force: true });
  }
}

const restrictedImport = 'lint/style/noRestrictedImports';

/** A module that imports `specifier` and uses it, so only the import rule can object. */
const importing = (specifier: string): string =>
  `import * as imported from '${specifier}';\n\nexport const used = imported;\n`;

describe('the house rules', () => {
  const probes: Record<string, string> = {
    'packages/domain/src/database-probe.ts': importing('kysely'),
    'packages/domain/src/driver-probe.ts': importing('pg'),
    'packages/domain/src/pglite-probe.ts': importing('@electric-sql/pglite'),
    'packages/domain/src/http-probe.ts': importing('fastify'),
    'packages/domain/src/mcp-probe.ts': importing('@modelcontextprotocol/sdk/server/mcp.js'),
    'packages/domain/src/oauth-probe.ts': importing('oidc-provider'),
    'packages/domain/src/storage-probe.ts': importing('@innkeep/storage'),
    'packages/domain/src/allowed-probe.ts': importing('zod'),
    'packages/mcp-tools/src/storage-probe.ts': importing('@innkeep/storage'),
    'packages/mcp-http/src/storage-probe.ts': importing('@innkeep/storage'),
    'packages/mcp-http/src/demo-probe.ts': importing('@innkeep/demo'),
    'packages/operations/src/storage-probe.ts': importing('@innkeep/storage'),
    'packages/rest/src/storage-probe.ts': importing('@innkeep/storage'),
    'packages/mcp-tools/test/storage-probe.ts': importing('@innkeep/storage/testing'),
    'packages/storage/src/transport-probe.ts': importing('@innkeep/mcp-http'),
    'packages/storage/src/auth-probe.ts': importing('@innkeep/auth'),
    'packages/demo/src/http-probe.ts': importing('fastify'),
    'packages/storage/src/allowed-probe.ts': importing('kysely'),
    'apps/server/src/composition-probe.ts': `${importing('@innkeep/storage')}export * as transport from '@innkeep/mcp-http';\n`,
    'packages/auth/src/re-export-probe.ts': "export * from './somewhere.ts';\n",
  };
  let findings: readonly Finding[] = [];

  beforeAll(async () => {
    findings = await lintProbes(probes);
  });

  const rulesOn = (file: string): readonly string[] =>
    findings.filter((finding) => finding.file === file).map((finding) => finding.rule);

  it.each([
    'packages/domain/src/database-probe.ts',
    'packages/domain/src/driver-probe.ts',
    'packages/domain/src/pglite-probe.ts',
  ])('keeps database libraries out of the domain (%s)', (file) => {
    expect(rulesOn(file)).toEqual([restrictedImport]);
  });

  it.each([
    'packages/domain/src/http-probe.ts',
    'packages/domain/src/mcp-probe.ts',
    'packages/domain/src/oauth-probe.ts',
    'packages/domain/src/storage-probe.ts',
  ])('keeps HTTP, MCP, OAuth and other Innkeep packages out of the domain (%s)', (file) => {
    expect(rulesOn(file)).toEqual([restrictedImport]);
  });

  it.each([
    'packages/mcp-tools/src/storage-probe.ts',
    'packages/mcp-http/src/storage-probe.ts',
    'packages/mcp-http/src/demo-probe.ts',
    'packages/operations/src/storage-probe.ts',
    'packages/rest/src/storage-probe.ts',
  ])('keeps the store out of the transports (%s)', (file) => {
    expect(rulesOn(file)).toEqual([restrictedImport]);
  });

  it.each([
    'packages/storage/src/transport-probe.ts',
    'packages/storage/src/auth-probe.ts',
    'packages/demo/src/http-probe.ts',
  ])('keeps transports, OAuth and HTTP out of storage and demo data (%s)', (file) => {
    expect(rulesOn(file)).toEqual([restrictedImport]);
  });

  it('lets apps compose storage with transports, and tests use the store', () => {
    expect(rulesOn('apps/server/src/composition-probe.ts')).not.toContain(restrictedImport);
    expect(rulesOn('packages/mcp-tools/test/storage-probe.ts')).toEqual([]);
    expect(rulesOn('packages/domain/src/allowed-probe.ts')).toEqual([]);
    expect(rulesOn('packages/storage/src/allowed-probe.ts')).toEqual([]);
  });

  it('refuses export * everywhere', () => {
    expect(rulesOn('packages/auth/src/re-export-probe.ts')).toEqual(['lint/performance/noReExportAll']);
    expect(rulesOn('apps/server/src/composition-probe.ts')).toEqual(['lint/performance/noReExportAll']);
  });
});

/** The runtime dependencies a package declares, or none when the package does not exist (yet). */
async function dependenciesOf(packageDirectory: string): Promise<readonly string[]> {
  const manifest = await readFile(join(repositoryRoot, packageDirectory, 'package.json'), 'utf8').catch(
    () => '{}',
  );
  return Object.keys((JSON.parse(manifest) as { dependencies?: Record<string, string> }).dependencies ?? {});
}

describe('the declared dependencies', () => {
  it("keep the domain's package free of database, HTTP, MCP and OAuth libraries", async () => {
    const outsideTheDomain =
      /^(pg|kysely|@electric-sql\/|fastify|@fastify\/|@modelcontextprotocol\/|oidc-provider|jose|ioredis|@innkeep\/)/;
    expect((await dependenciesOf('packages/domain')).filter((name) => outsideTheDomain.test(name))).toEqual(
      [],
    );
  });

  it.each(['packages/operations', 'packages/mcp-tools', 'packages/mcp-http', 'packages/rest'])(
    'keep the store out of what %s ships with (its tests may use it)',
    async (packageDirectory) => {
      const store = /^(@innkeep\/storage|@innkeep\/demo|pg|@electric-sql\/)/;
      expect((await dependenciesOf(packageDirectory)).filter((name) => store.test(name))).toEqual([]);
    },
  );
});
