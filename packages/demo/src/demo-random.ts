import { encodeIdBytes, type IdKind, idPrefixes } from '@innkeep/domain';

// Everything random in the demo data comes from here, seeded, so that the same seed and the same "today"
// always give the same rows. Nothing in src/demo may call Math.random() or read the clock.

/** MurmurHash3's 32-bit finaliser: every input bit affects every output bit. */
function mix32(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Hashes a sequence of integers and strings into 32 bits; order matters. */
function hashParts(parts: readonly (number | string)[]): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    if (typeof part === 'number') {
      h = mix32(h ^ mix32(part >>> 0) ^ mix32(Math.floor(part / 2 ** 32) + 0x9e3779b9));
    } else {
      for (let index = 0; index < part.length; index += 1) {
        h = Math.imul(h ^ part.charCodeAt(index), 0x01000193);
      }
      h = mix32(h ^ part.length);
    }
  }
  return h >>> 0;
}

/** Pre-computed cumulative weights for {@link DemoRandom.fromTable}. */
export interface WeightTable<T> {
  readonly values: readonly T[];
  readonly cumulative: readonly number[];
  readonly total: number;
}

/** Builds a {@link WeightTable} from `[value, weight]` pairs (weights need not add up to 1). */
export function weightTable<T>(entries: readonly (readonly [T, number])[]): WeightTable<T> {
  const values: T[] = [];
  const cumulative: number[] = [];
  let total = 0;
  for (const [value, weight] of entries) {
    total += weight;
    values.push(value);
    cumulative.push(total);
  }
  return { values, cumulative, total };
}

/** A seeded source of pseudo-random numbers (xoshiro128**: 128 bits of state, fast, well distributed). */
export interface DemoRandom {
  /** A float in [0, 1). */
  next(): number;
  /** An unsigned 32-bit integer. */
  uint32(): number;
  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
  /** One value of a weight table. */
  fromTable<T>(table: WeightTable<T>): T;
  /** A standard normal deviate. */
  normal(): number;
  /** A log-normal deviate with the given median; `sigma` is the spread of its logarithm. */
  logNormal(median: number, sigma: number): number;
  /** `count` random bytes. */
  bytes(count: number): Uint8Array;
}

/**
 * A random source for one named stream, e.g. `createRandom([seed, 'stays', listingIndex])`. Streams with
 * different names are independent, so listings can be generated in any order with the same result.
 */
export function createRandom(streamKey: readonly (number | string)[]): DemoRandom {
  // splitmix32 expands the 32-bit key into the four state words; an all-zero state is impossible with it.
  let seed = hashParts(streamKey);
  const splitmix = () => {
    seed = (seed + 0x9e3779b9) >>> 0;
    return mix32(seed);
  };
  let a = splitmix();
  let b = splitmix();
  let c = splitmix();
  let d = splitmix();
  const uint32 = (): number => {
    const result = Math.imul(rotl(Math.imul(b, 5), 7), 9) >>> 0;
    const t = b << 9;
    c ^= a;
    d ^= b;
    b ^= c;
    a ^= d;
    c ^= t;
    d = rotl(d, 11);
    return result;
  };
  const next = () => uint32() / 2 ** 32;
  const random: DemoRandom = {
    next,
    uint32,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: <T>(items: readonly T[]): T => {
      const item = items[Math.floor(next() * items.length)];
      if (item === undefined) throw new RangeError('pick() needs a non-empty list');
      return item;
    },
    fromTable: <T>(table: WeightTable<T>): T => {
      const target = next() * table.total;
      let low = 0;
      let high = table.cumulative.length - 1;
      while (low < high) {
        const middle = (low + high) >> 1;
        if ((table.cumulative[middle] ?? 0) > target) high = middle;
        else low = middle + 1;
      }
      const value = table.values[low];
      if (value === undefined) throw new RangeError('fromTable() needs a non-empty table');
      return value;
    },
    normal: () => {
      // Box–Muller; 1 - next() keeps the logarithm's argument above zero.
      const u = 1 - next();
      const v = next();
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    },
    logNormal: (median, sigma) => median * Math.exp(sigma * random.normal()),
    bytes: (count) => {
      const out = new Uint8Array(count);
      for (let index = 0; index < count; index += 4) {
        const word = uint32();
        for (let shift = 0; shift < 4 && index + shift < count; shift += 1) {
          out[index + shift] = (word >>> (shift * 8)) & 0xff;
        }
      }
      return out;
    },
  };
  return random;
}

function rotl(value: number, bits: number): number {
  return ((value << bits) | (value >>> (32 - bits))) >>> 0;
}

/**
 * A keyed permutation of the integers below 2^bits (a balanced Feistel network), so distinct inputs always
 * give distinct, random-looking outputs. `bits` is even and at most 52.
 */
export function permuteBits(value: number, bits: number, key: number): number {
  const halfBits = bits / 2;
  const halfSize = 2 ** halfBits;
  let left = Math.floor(value / halfSize);
  let right = value % halfSize;
  for (let round = 0; round < 4; round += 1) {
    const f = mix32(right ^ mix32(key + round)) % halfSize;
    const nextRight = (left + f) % halfSize;
    left = right;
    right = nextRight;
  }
  return left * halfSize + right;
}

/**
 * Makes the demo's record ids: `kind` prefix plus 16 base32 characters, like {@link newId}'s, but derived
 * from the seed, a scope (0 for account-wide records, one per listing) and a serial within the scope. The
 * 64-bit core is a keyed permutation of (scope, serial), so two different records can never collide.
 */
export function createIdMaker(seed: number): (kind: IdKind, scope: number, serial: number) => string {
  const keys = new Map<IdKind, number[]>();
  const keysFor = (kind: IdKind) => {
    let found = keys.get(kind);
    if (!found) {
      found = [0, 1, 2, 3, 4].map((round) => hashParts([seed, 'id', kind, round]));
      keys.set(kind, found);
    }
    return found;
  };
  return (kind, scope, serial) => {
    const roundKeys = keysFor(kind);
    let left = scope >>> 0;
    let right = serial >>> 0;
    for (let round = 0; round < 4; round += 1) {
      const nextRight = (left ^ mix32(right ^ (roundKeys[round] ?? 0))) >>> 0;
      left = right;
      right = nextRight;
    }
    const tail = mix32(left ^ right ^ (roundKeys[4] ?? 0));
    const bytes = new Uint8Array(10);
    const view = new DataView(bytes.buffer);
    view.setUint32(0, left);
    view.setUint32(4, right);
    view.setUint16(8, tail & 0xffff);
    return `${idPrefixes[kind]}_${encodeIdBytes(bytes)}`;
  };
}

/** Hands out ids within one scope, counting serials per kind. */
export interface IdSource {
  next(kind: IdKind): string;
}

/** An {@link IdSource} for one scope of {@link createIdMaker}. */
export function createIdSource(
  makeId: (kind: IdKind, scope: number, serial: number) => string,
  scope: number,
): IdSource {
  const serials = new Map<IdKind, number>();
  return {
    next(kind) {
      const serial = serials.get(kind) ?? 0;
      serials.set(kind, serial + 1);
      return makeId(kind, scope, serial);
    },
  };
}
