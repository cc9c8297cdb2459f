import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

// The domain, storage and demo packages export what other packages import and no more, so each entry is a
// deliberate surface: a name leaves it when its last user does, and comes back when a new one needs it.
// Biome formats every source file, so an import declaration always has the one shape matched below; a full
// TypeScript parser would add a dependency for this single, narrow question.

const repositoryRoot = join(import.meta.dirname, '../../..');
const checkedPackages = ['packages/domain', 'packages/storage', 'packages/demo'];
const sourceRoots = ['packages', 'apps', 'bench'];
const skippedDirectories = new Set(['node_modules', 'dist', '.turbo']);

/** One entry of a package's `exports` map: the specifier others import and the file behind it. */
interface Entry {
  readonly specifier: string;
  readonly file: string;
  readonly packageDirectory: string;
}

async function entriesOf(packageDirectory: string): Promise<readonly Entry[]> {
  const manifest = JSON.parse(
    await readFile(join(repositoryRoot, packageDirectory, 'package.json'), 'utf8'),
  ) as {
    name: string;
    exports: Record<string, string>;
  };
  return Object.entries(manifest.exports).map(([subpath, file]) => ({
    specifier: subpath === '.' ? manifest.name : `${manifest.name}${subpath.slice(1)}`,
    file: join(packageDirectory, file),
    packageDirectory,
  }));
}

async function typeScriptFilesUnder(directory: string): Promise<readonly string[]> {
  const found: string[] = [];
  for (const item of await readdir(join(repositoryRoot, directory), { withFileTypes: true })) {
    const path = join(directory, item.name);
    if (item.isDirectory() && !skippedDirectories.has(item.name))
      found.push(...(await typeScriptFilesUnder(path)));
    else if (item.isFile() && item.name.endsWith('.ts')) found.push(path);
  }
  return found;
}

/** The names listed in `{ a, type B, c as d }`, as the exporting module knows them (or as exported, for `as`). */
function namesIn(list: string, side: 'exported' | 'imported'): readonly string[] {
  return list
    .split(',')
    .map((part) => part.trim().replace(/^type\s+/, ''))
    .filter((part) => part !== '')
    .map((part) => {
      const [original = '', alias = original] = part.split(/\s+as\s+/);
      return side === 'exported' ? alias.trim() : original.trim();
    });
}

function namesExportedBy(source: string): readonly string[] {
  const lists = [...source.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}/gm)].flatMap(([, list]) =>
    namesIn(list ?? '', 'exported'),
  );
  const declarations = [
    ...source.matchAll(
      /^export\s+(?:declare\s+)?(?:async\s+)?(?:const|let|function\*?|class|type|interface|enum)\s+(\w+)/gm,
    ),
  ].map(([, name]) => name ?? '');
  return [...lists, ...declarations];
}

describe('the surfaces of domain, storage and demo', () => {
  const importedFrom = new Map<string, Set<string>>();
  let entries: readonly Entry[] = [];

  beforeAll(async () => {
    entries = (await Promise.all(checkedPackages.map(entriesOf))).flat();
    const files = (await Promise.all(sourceRoots.map(typeScriptFilesUnder))).flat();
    for (const file of files) {
      const source = await readFile(join(repositoryRoot, file), 'utf8');
      for (const [, list, specifier] of source.matchAll(
        /\b(?:import|export)\s+(?:type\s+)?\{([^}]*)\}\s*from\s*'([^']+)'/g,
      )) {
        const entry = entries.find((candidate) => candidate.specifier === specifier);
        // A package reaches its own modules by relative path; its own src importing its entry is not a user.
        if (!entry || !relative(join(entry.packageDirectory, 'src'), file).startsWith('..')) continue;
        const names = importedFrom.get(entry.specifier) ?? new Set<string>();
        for (const name of namesIn(list ?? '', 'imported')) names.add(name);
        importedFrom.set(entry.specifier, names);
      }
    }
  });

  it('finds the entries and their users', () => {
    expect(entries.map((entry) => entry.specifier)).toEqual(
      expect.arrayContaining([
        '@innkeep/domain',
        '@innkeep/storage',
        '@innkeep/storage/testing',
        '@innkeep/demo',
      ]),
    );
    expect(importedFrom.get('@innkeep/domain')?.has('DomainError')).toBe(true);
  });

  it('exports from each entry only names that another package or a test imports', async () => {
    const unused: Record<string, readonly string[]> = {};
    for (const entry of entries) {
      const imported = importedFrom.get(entry.specifier) ?? new Set<string>();
      const names = namesExportedBy(await readFile(join(repositoryRoot, entry.file), 'utf8'));
      unused[entry.specifier] = names.filter((name) => !imported.has(name));
    }
    expect(unused).toEqual(Object.fromEntries(entries.map((entry) => [entry.specifier, []])));
  });
});
