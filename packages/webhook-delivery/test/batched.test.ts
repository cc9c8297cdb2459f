import { describe, expect, it } from 'vitest';
import { batched } from '../src/batched.ts';

describe('batched calls', () => {
  it('gathers the calls of one turn into a batch, and those made while it runs into the next', async () => {
    const batches: number[][] = [];
    let release: () => void = () => {};
    const record = batched(async (items: readonly number[]) => {
      batches.push([...items]);
      if (batches.length === 1) await new Promise<void>((resolve) => (release = resolve));
      return items.length;
    }, 100);

    const first = [record(1), record(2), record(3)];
    await new Promise((resolve) => setImmediate(resolve));
    const later = [record(4), record(5)];
    release();
    expect(await Promise.all([...first, ...later])).toEqual([3, 3, 3, 2, 2]);
    expect(batches).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it('never puts more than maxBatch items in one batch', async () => {
    const sizes: number[] = [];
    const record = batched(async (items: readonly number[]) => sizes.push(items.length), 2);
    await Promise.all([1, 2, 3, 4, 5].map(record));
    expect(sizes).toEqual([2, 2, 1]);
  });

  it('rejects every call of a failed batch, and the next batch still runs', async () => {
    let calls = 0;
    const record = batched(async (items: readonly string[]) => {
      calls += 1;
      if (calls === 1) throw new Error('database gone');
      return items;
    }, 10);
    const failed = [record('a'), record('b')];
    await expect(Promise.all(failed)).rejects.toThrow('database gone');
    await expect(failed[1]).rejects.toThrow('database gone');
    expect(await record('c')).toEqual(['c']);
  });

  it('refuses a batch size below one', () => {
    expect(() => batched(async () => 0, 0)).toThrow(RangeError);
  });
});
