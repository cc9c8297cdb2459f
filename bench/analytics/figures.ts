import { toMajorUnits } from '@innkeep/domain';

/**
 * Named figures that a tool and its fetch-and-compute baseline both produce, e.g. `bookedNights` or
 * `accommodation.USD`: counts, ratios as the tool rounds them, money in major units. `null` where the figure
 * is undefined (a zero denominator).
 */
export type Figures = Readonly<Record<string, number | null>>;

/** A figure on which the tool and the baseline disagree. */
export interface FigureMismatch {
  readonly figure: string;
  readonly tool: number | null | undefined;
  readonly baseline: number | null;
}

// Both sides round the same way (4 decimals for ratios, the minor unit for money); this only absorbs the
// last bit of binary floating point in sums of major-unit amounts.
const relativeTolerance = 1e-9;

/** The figures of `baseline` that `tool` lacks or gives a different value for. */
export function compareFigures(tool: Figures, baseline: Figures): FigureMismatch[] {
  const mismatches: FigureMismatch[] = [];
  for (const [figure, expected] of Object.entries(baseline)) {
    const actual = tool[figure];
    if (!sameFigure(actual, expected)) mismatches.push({ figure, tool: actual, baseline: expected });
  }
  return mismatches;
}

function sameFigure(actual: number | null | undefined, expected: number | null): boolean {
  if (actual === undefined) return false;
  if (actual === null || expected === null) return actual === expected;
  return Math.abs(actual - expected) <= relativeTolerance * Math.max(1, Math.abs(expected));
}

/** A ratio rounded like the tools round ratios (4 decimals); null for a zero denominator. */
export function ratio(numerator: number, denominator: number): number | null {
  if (denominator === 0) return null;
  return Math.round((numerator / denominator) * 10_000) / 10_000;
}

/** Minor units per unit (a night), rounded to the minor unit, in major units; null for a zero denominator. */
export function moneyPer(minor: number, denominator: number, currency: string): number | null {
  if (denominator === 0) return null;
  return toMajorUnits(Math.round(minor / denominator), currency);
}

/**
 * The mean `sum / count` of integers rounded half up to two decimals, exactly (integer arithmetic, so a mean
 * of 3.085 never rounds down through a binary fraction); null without values.
 */
export function mean2(sum: number, count: number): number | null {
  if (count === 0) return null;
  return Math.floor((200 * sum + count) / (2 * count)) / 100;
}
