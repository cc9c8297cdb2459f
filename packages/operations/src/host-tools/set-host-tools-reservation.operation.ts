import { randomInt } from 'node:crypto';
import {
  type Actor,
  type InnkeepDomain,
  pageLimits,
  reservationDetailSchema,
  updateReservationInputSchema,
} from '@innkeep/domain';
import { z } from 'zod';
import { defineOperation } from '../operation.ts';

/** Digits of a generated access code when no lock serves the listing to say otherwise. */
const defaultAccessCodeLength = 4;

/**
 * set_host_tools_reservation: update_reservation as Host Tools' setReservation means it, where the host may
 * ask for a new access code instead of typing one (`accessCode: null` there). The code is random digits,
 * as long as the codes of the lock serving the listing.
 */
export const setHostToolsReservationOperation = defineOperation({
  id: 'set_host_tools_reservation',
  scopes: ['reservations:write'],
  access: 'write',
  input: updateReservationInputSchema
    .safeExtend({
      generateAccessCode: z
        .literal(true)
        .optional()
        .describe('true sets a new random access code, as long as the listing’s lock codes.'),
    })
    .refine((input) => input.generateAccessCode === undefined || input.accessCode === undefined, {
      path: ['generateAccessCode'],
      message: 'Give accessCode or generateAccessCode, not both.',
    }),
  output: reservationDetailSchema,
  run: async ({ generateAccessCode, ...input }, { actor, domain }) => {
    if (generateAccessCode === undefined) return domain.reservations.update(actor, input);
    const reservation = await domain.reservations.get(actor, input.reservationId);
    const length = await accessCodeLength(domain, actor, reservation.listingId);
    return domain.reservations.update(actor, { ...input, accessCode: randomDigits(length) });
  },
});

/**
 * How many digits the listing's locks take: the first lock serving it, by name (a stay's code is the same
 * on every lock); {@link defaultAccessCodeLength} when none does.
 */
async function accessCodeLength(domain: InnkeepDomain, actor: Actor, listingId: string): Promise<number> {
  let cursor: string | undefined;
  for (;;) {
    const limit = pageLimits.max;
    const page = await domain.locks.list(actor, cursor === undefined ? { limit } : { limit, cursor });
    const lock = page.items.find((candidate) => candidate.listingIds.includes(listingId));
    if (lock !== undefined) return lock.codeLength;
    if (!page.hasMore || page.nextCursor === null) return defaultAccessCodeLength;
    cursor = page.nextCursor;
  }
}

/** `length` digits from a cryptographic source: a door code must not be guessable from earlier ones. */
function randomDigits(length: number): string {
  let code = '';
  for (let index = 0; index < length; index += 1) code += String(randomInt(10));
  return code;
}
