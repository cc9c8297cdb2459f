import { describe, expect, it } from 'vitest';
import { createBatchedLookup } from '../src/batched-lookup.ts';

interface Row {
  readonly id: string;
  readonly value: string;
}

/** A lookup over a fixed table that records the keys of every fetch it makes. */
function recordingLookup(table: readonly Row[], options: { maxBatch?: number; failOn?: string } = {}) {
  const fetches: string[][] = [];
  const lookUp = createBatchedLookup<string, Row>({
    fetch: async (keys) => {
      fetches.push([...keys]);
      if (options.failOn !== undefined && keys.includes(options.failOn)) throw new Error('database down');
      return table.filter((row) => keys.includes(row.id));
    },
    keyId: (key) => key,
    rowKeyId: (row) => row.id,
    maxBatch: options.maxBatch ?? 100,
  });
  return { lookUp, fetches };
}

const table: Row[] = [
  { id: 'a', value: 'A' },
  { id: 'b', value: 'B' },
  { id: 'c', value: 'C' },
];

describe('batched lookup', () => {
  it('sends the lookups of one turn as one fetch, each key once, and answers each its own row', async () => {
    const { lookUp, fetches } = recordingLookup(table);
    const rows = await Promise.all(['b', 'a', 'b', 'zz'].map((key) => lookUp(key)));
    expect(rows.map((row) => row?.value)).toEqual(['B', 'A', 'B', undefined]);
    expect(fetches).toEqual([['b', 'a', 'zz']]);
  });

  it('fetches again for lookups made after a batch went out, so no answer is older than its question', async () => {
    const { lookUp, fetches } = recordingLookup(table);
    expect((await lookUp('a'))?.value).toBe('A');
    expect((await lookUp('a'))?.value).toBe('A');
    expect(fetches).toEqual([['a'], ['a']]);
  });

  it('splits a turn’s lookups into fetches of at most maxBatch keys', async () => {
    const { lookUp, fetches } = recordingLookup(table, { maxBatch: 2 });
    const rows = await Promise.all(['a', 'b', 'c'].map((key) => lookUp(key)));
    expect(rows.map((row) => row?.value)).toEqual(['A', 'B', 'C']);
    expect(fetches).toEqual([['a', 'b'], ['c']]);
  });

  it('rejects every lookup of a failed fetch with its error, and later lookups still work', async () => {
    const { lookUp } = recordingLookup(table, { failOn: 'c' });
    const failed = await Promise.allSettled([lookUp('a'), lookUp('c')]);
    expect(failed.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    expect((failed[0] as PromiseRejectedResult).reason).toEqual(new Error('database down'));
    expect((await lookUp('b'))?.value).toBe('B');
  });
});
