import { demoLogin, seedDemoData } from '@innkeep/demo';
import type { Actor, Clock } from '@innkeep/domain';
import { createOperatorUseCases, createPostgresDomain } from '@innkeep/storage';
import { openTestDatabase, type TestDatabase, type TestDatabaseKind } from '@innkeep/storage/testing';
import { invokeTool } from '../../src/invoke-tool.ts';
import type { ToolContext, ToolDefinition } from '../../src/tool-definition.ts';
import type { ToolCallResult } from '../../src/tool-result.ts';

/** The day the demo data is generated around, and the tests' "today" (evening UTC, still today everywhere). */
export const worldToday = '2026-06-15';

/** A demo account on a private database, and a way to call tools as its owner. */
export interface ToolWorld {
  readonly database: TestDatabase;
  readonly context: ToolContext;
  readonly owner: Actor;
  readonly clock: Clock;
  /** Calls `tool` with `args` as `actor` (the owner by default); unexpected failures fail the test. */
  call(tool: ToolDefinition, args: unknown, actor?: Actor): Promise<ToolCallResult>;
  close(): Promise<void>;
}

/** Opens a database of `kind`, loads the deterministic demo account, and acts as its owner through MCP. */
export async function openToolWorld(kind: TestDatabaseKind = 'pglite'): Promise<ToolWorld> {
  const database = await openTestDatabase(kind);
  const clock: Clock = { now: () => new Date(`${worldToday}T18:00:00Z`) };
  await seedDemoData(database.db, { today: worldToday });
  const found = await createOperatorUseCases({ db: database.db, clock }).findUserByEmail(demoLogin.email);
  if (found === null) throw new Error('the demo owner is missing');
  const owner: Actor = {
    accountId: found.accountId,
    userId: found.userId,
    role: 'owner',
    via: 'mcp',
    clientId: 'test-client',
  };
  const domain = createPostgresDomain({ db: database.db, clock });
  const context: ToolContext = { actor: owner, domain, clock };
  return {
    database,
    context,
    owner,
    clock,
    call: (tool, args, actor = owner) =>
      invokeTool(tool, args, { ...context, actor }, (reference, cause) => {
        throw new Error(`unexpected failure ${reference}`, { cause });
      }),
    close: () => database.close(),
  };
}
