import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Another live process holds the embedded database's directory. */
export class DataDirInUseError extends Error {
  override readonly name = 'DataDirInUseError';
  readonly pid: number;

  constructor(dataDir: string, pid: number) {
    super(
      `The embedded database in ${dataDir} is in use by process ${pid} (a running Innkeep server or command). ` +
        'It serves one process at a time: stop that process first, or use PostgreSQL through DATABASE_URL.',
    );
    this.pid = pid;
  }
}

const lockFileName = 'innkeep.pid';

/**
 * Claims the embedded database's directory for this process. PGlite keeps pages in memory and does not lock
 * its files, so a CLI command run next to the server would silently corrupt the data; this refuses instead.
 * A lock left by a process that died is taken over.
 *
 * @returns a function that releases the directory.
 * @throws {@link DataDirInUseError} when a live process holds it.
 */
export function lockDataDir(dataDir: string): () => void {
  const file = join(dataDir, lockFileName);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (!tryCreate(file)) {
    const holder = readHolder(file);
    if (holder !== undefined && holder !== process.pid && isAlive(holder)) {
      throw new DataDirInUseError(dataDir, holder);
    }
    rmSync(file, { force: true });
    // Another process may take over the same stale lock at the same moment; only one of the two creates wins.
    if (!tryCreate(file)) throw new DataDirInUseError(dataDir, readHolder(file) ?? 0);
  }
  return () => rmSync(file, { force: true });
}

function tryCreate(file: string): boolean {
  try {
    writeFileSync(file, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
    return true;
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'EEXIST') return false;
    throw error;
  }
}

function readHolder(file: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    // Signal 0 checks that the process exists without touching it.
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user, and it still holds the directory.
    return error instanceof Error && 'code' in error && error.code === 'EPERM';
  }
}
