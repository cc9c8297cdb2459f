import {
  type AccessRoute,
  type AuditEntryView,
  type AuditUseCases,
  assertOwner,
  decodeCursor,
  listAuditInputSchema,
  parseInput,
  toPage,
} from '@innkeep/domain';
import type { StoreDeps } from '../store-deps.ts';

/** Audit-log reader over PostgreSQL. */
export function createAuditUseCases({ db }: StoreDeps): AuditUseCases {
  return {
    async list(actor, rawInput = {}) {
      assertOwner(actor);
      const input = parseInput(listAuditInputSchema, rawInput);
      let query = db.selectFrom('audit_log').selectAll().where('account_id', '=', actor.accountId);
      if (input.since !== undefined) query = query.where('created_at', '>=', new Date(input.since));
      if (input.action !== undefined) query = query.where('action', '=', input.action);
      if (input.targetType !== undefined) query = query.where('target_type', '=', input.targetType);
      if (input.targetId !== undefined) query = query.where('target_id', '=', input.targetId);
      if (input.clientId !== undefined) query = query.where('client_id', '=', input.clientId);
      if (input.cursor !== undefined) {
        const [id] = decodeCursor(input.cursor, 1);
        query = query.where('id', '<', Number(id));
      }
      // Newest first by entry number: it is assigned on insert and, unlike created_at (the transaction's
      // start time), never ties, so the cursor is exact.
      const rows = await query
        .orderBy('id', 'desc')
        .limit(input.limit + 1)
        .execute();
      return toPage(
        rows,
        input.limit,
        (row): AuditEntryView => ({
          id: Number(row.id),
          createdAt: row.created_at.toISOString(),
          userId: row.user_id,
          // Written only by recordAudit from an Actor's route.
          via: row.via as AccessRoute,
          clientId: row.client_id,
          action: row.action,
          targetType: row.target_type,
          targetId: row.target_id,
          details: isRecord(row.details) ? row.details : {},
        }),
        (row) => [Number(row.id)],
      );
    },
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
