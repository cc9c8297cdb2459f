import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirInUseError, lockDataDir } from '../src/data-dir-lock.ts';

describe('lockDataDir', () => {
  let root: string;
  let dataDir: string;
  let lockFile: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'innkeep-lock-'));
    dataDir = join(root, 'pglite');
    lockFile = join(dataDir, 'innkeep.pid');
  });

  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('creates the directory, records this process, and removes the record on release', () => {
    const release = lockDataDir(dataDir);
    expect(readFileSync(lockFile, 'utf8')).toBe(`${process.pid}\n`);
    release();
    expect(existsSync(lockFile)).toBe(false);
  });

  it('refuses while another live process holds the directory, naming it', () => {
    const release = lockDataDir(dataDir);
    // The test runner's parent process is alive and is not this process.
    writeFileSync(lockFile, `${process.ppid}\n`);
    expect(() => lockDataDir(dataDir)).toThrow(DataDirInUseError);
    expect(() => lockDataDir(dataDir)).toThrow(`is in use by process ${process.ppid}`);
    release();
  });

  it('takes over a lock left by a process that no longer exists, or an unreadable one', () => {
    lockDataDir(dataDir);
    // Above Linux's highest possible pid (2^22), so no process has it.
    writeFileSync(lockFile, '99999999\n');
    lockDataDir(dataDir);
    expect(readFileSync(lockFile, 'utf8')).toBe(`${process.pid}\n`);
    writeFileSync(lockFile, 'garbage');
    lockDataDir(dataDir)();
    expect(existsSync(lockFile)).toBe(false);
  });
});
