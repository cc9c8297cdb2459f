import type { LocalDate } from '@innkeep/domain';

/** The day packed gaps count from (migration 0031): a gap is two day numbers from this date. */
export const gapEpoch: LocalDate = '2000-01-01';

/**
 * Calls `visit` with each gap of `packed` (eight bytes a gap as `calendar_gap_years` packs them: its first open
 * night and its next held night, signed big-endian 32-bit day numbers from {@link gapEpoch}), in the order
 * they were packed.
 */
export function forEachPackedGap(packed: Uint8Array, visit: (start: number, end: number) => void): void {
  const view = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
  for (let at = 0; at < packed.byteLength; at += 8) visit(view.getInt32(at), view.getInt32(at + 4));
}
