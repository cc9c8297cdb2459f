import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '@innkeep/storage';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support/processes.ts';

const owner = {
  email: 'maria@seaside.test',
  password: 'correct horse battery',
  firstName: 'Maria',
  lastName: 'Lopes',
  accountName: 'Seaside Stays',
};

const ownerFlags = [
  '--email',
  owner.email,
  '--password',
  owner.password,
  '--first-name',
  owner.firstName,
  '--last-name',
  owner.lastName,
  '--account-name',
  owner.accountName,
  '--time-zone',
  'Europe/Lisbon',
  '--currency',
  'EUR',
];

describe('innkeep CLI against a fresh embedded database', () => {
  let root: string;
  let env: Record<string, string>;
  let accountId: string;
  let authToken: string;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'innkeep-cli-'));
    env = { DATA_DIR: join(root, 'pglite') };
  });

  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('create-owner creates the account and prints its id and the owner’s', async () => {
    const result = await runCli(['create-owner', ...ownerFlags, '--status', 'active'], env);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const created = /^Created account (\S+) "Seaside Stays"\.\nOwner: (\S+) \(maria@seaside\.test\)\n$/.exec(
      result.stdout,
    );
    expect(created).not.toBeNull();
    accountId = created?.[1] ?? '';
  });

  it('new-auth-token prints a labelled authToken once', async () => {
    const result = await runCli(['new-auth-token', '--email', 'Maria@Seaside.test'], env);
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toMatch(/^New authToken for Maria@Seaside\.test \(user \S+\); any previous authToken/);
    const label = lines.filter((line) => line.startsWith('authToken: '));
    expect(label).toHaveLength(1);
    authToken = label[0]?.slice('authToken: '.length) ?? '';
    expect(authToken.length).toBeGreaterThanOrEqual(32);
    expect(lines[2]).toMatch(/only time it is shown/);
  });

  it('set-subscription finds the account by its owner’s email and reports the standing', async () => {
    const result = await runCli(
      [
        'set-subscription',
        '--account-email',
        owner.email,
        '--status',
        'past_due',
        '--period-end',
        '2027-01-31T00:00:00Z',
      ],
      env,
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`Account ${accountId}: subscription past_due, NOT in good standing.\n`);
  });

  it('add-sub-user adds a team member, whose email then does not name the account', async () => {
    const added = await runCli(
      [
        'add-sub-user',
        '--account-id',
        accountId,
        '--email',
        'joao@seaside.test',
        '--first-name',
        'João',
        '--last-name',
        'Silva',
        '--role',
        'viewer',
      ],
      env,
    );
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(
      new RegExp(`^Added viewer \\S+ \\(joao@seaside\\.test\\) to account ${accountId}\\.\n$`),
    );

    const refused = await runCli(
      ['set-subscription', '--account-email', 'joao@seaside.test', '--status', 'active'],
      env,
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`joao@seaside.test is a viewer of account ${accountId}, not its owner`);
  });

  it('refuses a second account with the same email: the domain’s message, exit 2, no stack', async () => {
    const result = await runCli(['create-owner', ...ownerFlags], env);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(owner.email);
    expect(result.stderr).toContain('already taken');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('stored only a hash of the authToken, and the subscription change', async () => {
    const database = await openDatabase({ kind: 'pglite', dataDir: join(env.DATA_DIR ?? '', 'pglite') });
    try {
      const users = await sql<{ auth_token_hash: string | null }>`
        select auth_token_hash from users where lower(email) = ${owner.email}`.execute(database.db);
      expect(users.rows).toEqual([{ auth_token_hash: createHash('sha256').update(authToken).digest('hex') }]);
      const subscriptions = await sql<{ status: string; ends: string }>`
        select status, to_char(current_period_end at time zone 'UTC', 'YYYY-MM-DD HH24:MI') as ends
        from subscriptions where account_id = ${accountId}`.execute(database.db);
      expect(subscriptions.rows).toEqual([{ status: 'past_due', ends: '2027-01-31 00:00' }]);
    } finally {
      await database.close();
    }
  });
});

describe('innkeep seed-demo', () => {
  let root: string;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'innkeep-seed-'));
  });

  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('seeds once with progress on stderr and the summary on stdout, then refuses to seed again', async () => {
    const env = { DATA_DIR: join(root, 'pglite') };
    const args = ['seed-demo', '--listings', '1', '--years', '0', '--today', '2026-11-21'];
    const first = await runCli(args, env);
    expect(first.code).toBe(0);
    // stderr is a pipe here, so each phase prints once, complete.
    expect(first.stderr).toMatch(/^setup \[#{20}\] 100% 1\/1\n/);
    expect(first.stdout).toMatch(/^Seeded the demo account:\n {2}accountId: \S+\n/);
    // One demo listing plus the lapsed account's two.
    expect(first.stdout).toContain('\n    listings: 3\n');
    expect(first.stdout).toMatch(
      /\nDone in \d+\.\d s\.\nDemo login: demo@innkeep\.test \/ innkeep-demo \(demo mode only\)\n$/,
    );

    const second = await runCli(args, env);
    expect(second.code).toBe(2);
    expect(second.stderr).toContain('already exists');
  });
});

describe('innkeep CLI usage errors', () => {
  const env = { DATA_DIR: join(tmpdir(), `innkeep-cli-unused-${process.pid}`) };

  it('exits 2 with the command’s usage when a flag is missing, without touching the database', async () => {
    const withoutCurrency = ownerFlags.slice(0, -2);
    const result = await runCli(['create-owner', ...withoutCurrency], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^--currency is required\.\n\nUsage: pnpm innkeep create-owner /);
    expect(existsSync(env.DATA_DIR)).toBe(false);
  });

  it('exits 2 for an unknown flag, an unknown command, and a value the domain rejects', async () => {
    const unknownFlag = await runCli(['new-auth-token', '--email', 'a@b.test', '--verbose'], env);
    expect(unknownFlag.code).toBe(2);
    expect(unknownFlag.stderr).toContain("Unknown option '--verbose'");
    expect(unknownFlag.stderr).toContain('Usage: pnpm innkeep new-auth-token --email <email>');

    const unknownCommand = await runCli(['create-user'], env);
    expect(unknownCommand.code).toBe(2);
    expect(unknownCommand.stderr).toMatch(
      /^There is no command "create-user"\.\n\nUsage: pnpm innkeep <command>/,
    );

    const badStatus = await runCli(['set-subscription', '--account-id', 'acc_1', '--status', 'paused'], env);
    expect(badStatus.code).toBe(2);
    expect(badStatus.stderr).toMatch(/^Invalid input — status: /);
    expect(existsSync(env.DATA_DIR)).toBe(false);
  });

  it('prints the command list for help, and a command’s options for --help', async () => {
    const help = await runCli(['help'], env);
    expect(help.code).toBe(0);
    for (const name of ['migrate', 'seed-demo', 'create-owner', 'add-sub-user', 'set-subscription']) {
      expect(help.stdout).toContain(`\n  ${name} `);
    }
    const commandHelp = await runCli(['seed-demo', '--help'], env);
    expect(commandHelp.code).toBe(0);
    expect(commandHelp.stdout).toMatch(/^Usage: pnpm innkeep seed-demo \[--seed <n>\]/);
  });
});
