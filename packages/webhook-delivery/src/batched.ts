/**
 * Gathers single calls into batches: each call's item waits for the batch it joins, and `flush` runs one batch
 * at a time, with every item that arrived while the previous batch ran (at most `maxBatch`). A call resolves
 * with what `flush` returned for its batch, or rejects with its failure.
 *
 * Written by hand because what it batches is a database round trip on the sender's hot path: a batch starts as
 * soon as the last one ended (no timer to tune), which the batching libraries of the ecosystem, built around
 * a wait window, do not offer.
 */
export function batched<Item, Result>(
  flush: (items: readonly Item[]) => Promise<Result>,
  maxBatch: number,
): (item: Item) => Promise<Result> {
  if (!Number.isInteger(maxBatch) || maxBatch < 1) {
    throw new RangeError(`maxBatch must be 1 or more, got ${maxBatch}.`);
  }
  interface Waiting {
    readonly item: Item;
    readonly resolve: (result: Result) => void;
    readonly reject: (error: unknown) => void;
  }
  const waiting: Waiting[] = [];
  let flushing = false;

  const next = () => {
    if (flushing || waiting.length === 0) return;
    flushing = true;
    const batch = waiting.splice(0, maxBatch);
    flush(batch.map((entry) => entry.item))
      .then(
        (result) => {
          for (const entry of batch) entry.resolve(result);
        },
        (error: unknown) => {
          for (const entry of batch) entry.reject(error);
        },
      )
      .finally(() => {
        flushing = false;
        next();
      });
  };

  return (item) =>
    new Promise<Result>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      // Let the attempts that end in this turn of the event loop join the first batch.
      if (!flushing && waiting.length === 1) setImmediate(next);
    });
}
