import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../src/database.ts';

/** How long the second writer is given to reach the first one's locks and wait on them. */
const overlapMs = 200;

/**
 * Two transactions writing at once, the second while the first is still open: runs `first` in a transaction
 * and keeps it open, runs `second` in another, commits the first once the second has had time to block on its
 * locks, and resolves when both have committed. Only a server can do this; PGlite runs one transaction at a
 * time. A failure of either rejects.
 */
export async function writeWhileAnotherIsOpen(
  db: Kysely<Database>,
  first: (trx: Transaction<Database>) => Promise<unknown>,
  second: (trx: Transaction<Database>) => Promise<unknown>,
): Promise<void> {
  let firstWrote: () => void = () => {};
  const firstHasWritten = new Promise<void>((resolve) => {
    firstWrote = resolve;
  });
  let releaseFirst: () => void = () => {};
  const firstMayCommit = new Promise<void>((resolve) => {
    releaseFirst = resolve;
  });
  const firstDone = db.transaction().execute(async (trx) => {
    await first(trx);
    firstWrote();
    await firstMayCommit;
  });
  // A first writer that fails before it wrote surfaces here rather than leaving the wait hanging.
  await Promise.race([firstHasWritten, firstDone]);
  const secondDone = db.transaction().execute(second);
  await new Promise((resolve) => setTimeout(resolve, overlapMs));
  releaseFirst();
  await Promise.all([firstDone, secondDone]);
}
