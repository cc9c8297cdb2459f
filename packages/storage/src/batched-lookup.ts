/** How {@link createBatchedLookup} fetches one batch and files its rows. */
export interface BatchedLookupSource<Key, Row> {
  /** Reads every key of the batch in one query; keys it does not return are reported as missing. */
  fetch(keys: readonly Key[]): Promise<readonly Row[]>;
  /** A string that identifies a key, equal for a key and the row it finds. */
  keyId(key: Key): string;
  /** The {@link keyId} of the key a row answers. */
  rowKeyId(row: Row): string;
  /** Keys in one query at most; more wait for the next query of the same turn. */
  readonly maxBatch: number;
}

/** Reads one row by key, sharing one query with every lookup made in the same turn of the event loop. */
export type BatchedLookup<Key, Row> = (key: Key) => Promise<Row | undefined>;

interface Waiting<Key, Row> {
  readonly key: Key;
  readonly resolve: (row: Row | undefined) => void;
  readonly reject: (reason: unknown) => void;
}

/**
 * Batches point lookups that arrive together into one query per batch. Under load a server reads many
 * requests in one turn of the event loop; each of them looking the same kind of row up alone costs a
 * database round trip apiece, which on a small machine costs more than the rest of the request. Lookups
 * wait until the turn's I/O callbacks have run (`setImmediate`), then go out together; each lookup still
 * reads the database after it was asked, so no answer is older than a lookup of its own would be.
 *
 * A failed query rejects every lookup of its batch with the same error. Use it outside transactions only:
 * a lookup inside one must see the transaction's own writes.
 */
export function createBatchedLookup<Key, Row>(
  source: BatchedLookupSource<Key, Row>,
): BatchedLookup<Key, Row> {
  let waiting: Waiting<Key, Row>[] = [];

  const flush = () => {
    const batch = waiting;
    waiting = [];
    for (let start = 0; start < batch.length; start += source.maxBatch) {
      void answer(batch.slice(start, start + source.maxBatch));
    }
  };

  const answer = async (batch: readonly Waiting<Key, Row>[]) => {
    let rows: readonly Row[];
    try {
      rows = await source.fetch(
        unique(
          batch.map((entry) => entry.key),
          source.keyId,
        ),
      );
    } catch (error) {
      for (const entry of batch) entry.reject(error);
      return;
    }
    const byId = new Map(rows.map((row) => [source.rowKeyId(row), row]));
    for (const entry of batch) entry.resolve(byId.get(source.keyId(entry.key)));
  };

  return (key) =>
    new Promise<Row | undefined>((resolve, reject) => {
      if (waiting.length === 0) setImmediate(flush);
      waiting.push({ key, resolve, reject });
    });
}

/** The keys with their first occurrence kept, so a batch never asks for the same row twice. */
function unique<Key>(keys: readonly Key[], keyId: (key: Key) => string): Key[] {
  const seen = new Set<string>();
  return keys.filter((key) => {
    const id = keyId(key);
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}
