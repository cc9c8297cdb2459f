import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from '@innkeep/auth/testing';

/** A TCP port nothing listens on right now (re-exported for this package's tests). */
export { freePort };

/** apps/server, where `node src/…` runs as `pnpm start` and `pnpm cli` run it. */
export const serverDir = fileURLToPath(new URL('../..', import.meta.url));

/**
 * How long a started server may take to print its banner. On a quiet machine it takes some 7 s with the
 * embedded database (most of it migrating); CI runs every package's suite at once on two cores, where the same
 * start was measured at 58 s beside ten busy loops and once ran past 90 s. The limit only has to catch a start
 * that never ends.
 */
export const serverStartLimitMs = 150_000;

/** What a finished process said and how it ended. */
export interface ProcessResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

const innkeepVariables = [
  'PORT',
  'HOST',
  'BASE_URL',
  'DATABASE_URL',
  'DATA_DIR',
  'REDIS_URL',
  'DEMO_DATA',
  'SECRET_KEYS',
  'OIDC_SIGNING_KEY',
  'TRUST_PROXY',
  'LOG_LEVEL',
  'MESSAGE_RULES',
  'WEBHOOKS',
  'WEBHOOK_ALLOW_PRIVATE',
  'WEBHOOK_EVENT_RETENTION_DAYS',
  'CALENDAR_IMPORTS',
  'CALENDAR_IMPORT_INTERVAL_MINUTES',
  'CALENDAR_IMPORT_ALLOW_PRIVATE',
  'METRICS_PORT',
  'SHUTDOWN_DRAIN_MS',
];

/**
 * The test runner's environment without Innkeep's variables, plus `env`: a developer's own DATABASE_URL or
 * SECRET_KEYS must not leak into a test.
 */
export function isolatedEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base = { ...process.env };
  for (const name of innkeepVariables) delete base[name];
  return { ...base, ...env };
}

/** Runs `node src/cli.ts …args` to the end. */
export function runCli(args: readonly string[], env: Record<string, string>): Promise<ProcessResult> {
  const child = spawn(process.execPath, ['src/cli.ts', ...args], { cwd: serverDir, env: isolatedEnv(env) });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
