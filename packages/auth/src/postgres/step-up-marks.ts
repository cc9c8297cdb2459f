import { type Clock, isScope, type Scope } from '@innkeep/domain';
import type { Kysely } from 'kysely';
import type { AuthDatabase } from './database.ts';

/**
 * How long a mark stands: a client that refreshes after a refusal does so at once, so a day is plenty,
 * and a mark nobody came back for never refuses a refresh after it.
 */
export const stepUpMarkLifetimeMs = 24 * 60 * 60 * 1000;

/** What `/mcp` remembered of a refusal for want of scopes. */
export interface StepUpMark {
  /** What the client should hold now: what its token was granted plus what the refused request needed. */
  readonly scopes: readonly Scope[];
  readonly markedAt: Date;
}

/**
 * Step-up marks, shared by every instance through `oauth_step_up_marks`. `/mcp` marks a grant when it
 * answers one of its tokens 403 `insufficient_scope`; the token endpoint takes the mark on the grant's
 * next refresh. A client of MCP SDK 1.x answers that 403 with a refresh, which cannot widen a grant; the
 * refresh refused, it authorizes again with the scope the challenge named.
 */
export interface StepUpMarks {
  /** Marks `grantId` as wanting `scopes`, replacing its earlier mark, and drops every expired mark. */
  mark(grantId: string, scopes: readonly Scope[]): Promise<void>;
  /**
   * Removes the mark of `grantId` and returns it, or undefined when there is none younger than
   * {@link stepUpMarkLifetimeMs}. One statement, so of two instances taking the same mark only one gets it.
   */
  take(grantId: string): Promise<StepUpMark | undefined>;
}

/** The step-up marks over `oauth_step_up_marks`; `clock` decides what "now" is. */
export function createStepUpMarks(db: Kysely<AuthDatabase>, clock: Clock): StepUpMarks {
  return {
    async mark(grantId, scopes) {
      const now = clock.now();
      const text = scopes.join(' ');
      await db
        .insertInto('oauth_step_up_marks')
        .values({ grant_id: grantId, scopes: text, marked_at: now })
        .onConflict((conflict) => conflict.column('grant_id').doUpdateSet({ scopes: text, marked_at: now }))
        .execute();
      // Grants that never came back leave marks behind; marking is rare enough to tidy up each time.
      await db
        .deleteFrom('oauth_step_up_marks')
        .where('marked_at', '<=', new Date(now.getTime() - stepUpMarkLifetimeMs))
        .execute();
    },

    async take(grantId) {
      const row = await db
        .deleteFrom('oauth_step_up_marks')
        .where('grant_id', '=', grantId)
        .returning(['scopes', 'marked_at'])
        .executeTakeFirst();
      if (row === undefined) return undefined;
      if (clock.now().getTime() - row.marked_at.getTime() >= stepUpMarkLifetimeMs) return undefined;
      return { scopes: row.scopes.split(' ').filter(isScope), markedAt: row.marked_at };
    },
  };
}
