import { z } from 'zod';
import { type Actor, accessRoutes } from '../core/actor.ts';
import { type Page, pageInputShape } from '../core/paging.ts';

/** One recorded change: who did what to which record, through which route. */
export const auditEntrySchema = z.object({
  id: z.number().describe('Entry number; later entries have larger numbers.'),
  createdAt: z.string().describe('When the change was made, ISO 8601 UTC.'),
  userId: z
    .string()
    .nullable()
    .describe('The user who made the change; null for operator commands and jobs.'),
  via: z.enum(accessRoutes).describe('Route the change came through: rest, mcp, web, cli or system.'),
  clientId: z.string().nullable().describe('OAuth client or partner key used, when there was one.'),
  action: z.string().describe('What was done, a dotted verb such as listing.update.'),
  targetType: z.string().describe('Kind of record changed, e.g. listing.'),
  targetId: z.string().nullable().describe('Id of the record changed, when it has one.'),
  details: z.record(z.string(), z.unknown()).describe('Facts of the change, such as the fields set.'),
});
/** One audit-log entry. */
export type AuditEntryView = z.infer<typeof auditEntrySchema>;

/** Filters and paging for {@link AuditUseCases.list}. */
export const listAuditInputSchema = z.object({
  ...pageInputShape,
  since: z.iso
    .datetime({ offset: true })
    .optional()
    .describe('Only entries recorded at or after this instant, ISO 8601.'),
  action: z.string().min(1).max(100).optional().describe('Only this action, e.g. reservation.cancel.'),
  targetType: z
    .string()
    .min(1)
    .max(50)
    .optional()
    .describe('Only changes to this kind of record, e.g. listing.'),
  targetId: z.string().min(1).max(64).optional().describe('Only changes to this record id.'),
  // A client id may be a metadata-document URL (CIMD), hence URL-sized.
  clientId: z
    .string()
    .min(1)
    .max(2000)
    .optional()
    .describe('Only changes made through this OAuth client or partner key.'),
});
/** Input of {@link AuditUseCases.list}. */
export type ListAuditInput = z.input<typeof listAuditInputSchema>;

/** Reads the account's audit log (writes are recorded by each use case in its own transaction). */
export interface AuditUseCases {
  /** The account's audit entries, newest first; owner only. */
  list(actor: Actor, input?: ListAuditInput): Promise<Page<AuditEntryView>>;
}
