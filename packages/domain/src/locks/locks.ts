import { z } from 'zod';
import type { Actor } from '../core/actor.ts';
import { type Page, pageInputShape } from '../core/paging.ts';

/** Where an access code came from: the guest's phone digits, a random code, or one the host typed. */
export const accessCodeSources = ['guest_phone', 'random', 'custom'] as const;
/** One of {@link accessCodeSources}. */
export type AccessCodeSource = (typeof accessCodeSources)[number];

/** Life of an access code: waiting for its window, usable now, past its window, or not programmed. */
export const accessCodeStatuses = ['scheduled', 'active', 'expired', 'failed'] as const;
/** One of {@link accessCodeStatuses}. */
export type AccessCodeStatus = (typeof accessCodeStatuses)[number];

/** Validates a lock id. */
export const lockIdSchema = z.string().min(1).max(64).describe('Smart lock id, e.g. lck_…');

/** A smart lock and the listings whose guests it lets in. */
export const lockSchema = z.object({
  id: z.string(),
  name: z.string(),
  provider: z.string().describe('Lock maker or platform, e.g. August, Schlage, TTLock, Nuki.'),
  listingIds: z.array(z.string()).describe('Listings this lock serves; each stay there gets a code on it.'),
  online: z.boolean().describe('False when the lock has stopped reporting: new codes may not reach it.'),
  batteryPct: z.number().nullable().describe('Battery level in percent; null when the lock does not say.'),
  codeLength: z.number().describe('Digits in each access code (4–10).'),
  createdAt: z.string(),
});
/** A smart lock. */
export type Lock = z.infer<typeof lockSchema>;

/** A guest's door code on one lock for one stay. */
export const accessCodeSchema = z.object({
  id: z.string(),
  reservationId: z.string(),
  lockId: z.string(),
  lockName: z.string(),
  code: z.string().describe('The digits the guest types. Share only with the guest of this stay.'),
  source: z
    .enum(accessCodeSources)
    .describe("guest_phone (last digits of the guest's phone), random, custom."),
  validFrom: z.string().describe('When the code starts to open the lock (UTC ISO 8601), at check-in time.'),
  validTo: z.string().describe('When the code stops working (UTC ISO 8601), at check-out time.'),
  status: z
    .enum(accessCodeStatuses)
    .describe(
      'scheduled (before validFrom), active (between validFrom and validTo), expired (after validTo), or ' +
        'failed (the lock did not accept the code).',
    ),
});
/** An access code. */
export type AccessCode = z.infer<typeof accessCodeSchema>;

/** Paging for {@link LockUseCases.list}. */
export const listLocksInputSchema = z.object({ ...pageInputShape });
/** Input of {@link LockUseCases.list}. */
export type ListLocksInput = z.input<typeof listLocksInputSchema>;

/** Names the stay whose access codes are wanted. */
export const listAccessCodesInputSchema = z.object({
  reservationId: z.string().min(1).max(64).describe('Reservation id, e.g. res_…'),
});
/** Input of {@link LockUseCases.listAccessCodes}. */
export type ListAccessCodesInput = z.input<typeof listAccessCodesInputSchema>;

/**
 * The status an access code has at `now`. A code the lock refused stays `failed`; otherwise the validity
 * window decides, so the answer is right even when no sync has touched the stored status since.
 */
export function accessCodeStatusAt(
  stored: AccessCodeStatus,
  validFrom: Date,
  validTo: Date,
  now: Date,
): AccessCodeStatus {
  if (stored === 'failed') return 'failed';
  if (now < validFrom) return 'scheduled';
  if (now < validTo) return 'active';
  return 'expired';
}

/** Reads smart locks and the access codes of stays. */
export interface LockUseCases {
  /** Lists the account's locks by name. */
  list(actor: Actor, input: ListLocksInput): Promise<Page<Lock>>;
  /** One lock; `not_found` for ids outside the account. */
  get(actor: Actor, lockId: string): Promise<Lock>;
  /** The codes of one stay, one per lock, by lock name; `not_found` for a reservation outside the account. */
  listAccessCodes(actor: Actor, input: ListAccessCodesInput): Promise<AccessCode[]>;
}
