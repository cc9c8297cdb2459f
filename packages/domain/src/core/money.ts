import { z } from 'zod';
import { DomainError } from './errors.ts';

/**
 * Currencies Innkeep accepts, with their ISO 4217 minor-unit exponent. Amounts are stored as integers in
 * minor units (cents, yen) so sums are exact; they cross the API as decimal numbers in major units.
 */
export const currencyExponents = {
  USD: 2,
  EUR: 2,
  GBP: 2,
  CAD: 2,
  AUD: 2,
  NZD: 2,
  CHF: 2,
  MXN: 2,
  BRL: 2,
  ZAR: 2,
  SEK: 2,
  NOK: 2,
  DKK: 2,
  JPY: 0,
} as const;

/** An ISO 4217 code Innkeep supports. */
export type CurrencyCode = keyof typeof currencyExponents;

/** Validates a supported ISO 4217 currency code. */
export const currencyCodeSchema = z
  .enum(Object.keys(currencyExponents) as [CurrencyCode, ...CurrencyCode[]])
  .describe('ISO 4217 currency code, e.g. USD or EUR.');

/** Minor-unit exponent of a currency (2 for USD, 0 for JPY). */
export function currencyExponent(currency: string): number {
  const exponent = (currencyExponents as Record<string, number>)[currency];
  if (exponent === undefined) {
    throw new DomainError('invalid_argument', `Unsupported currency ${currency}.`, { details: { currency } });
  }
  return exponent;
}

/**
 * Converts a decimal amount in major units to integer minor units without floating-point drift.
 * Refuses amounts with more decimals than the currency has (12.345 USD) rather than rounding silently.
 */
export function toMinorUnits(amount: number, currency: string): number {
  const exponent = currencyExponent(currency);
  if (!Number.isFinite(amount)) {
    throw new DomainError('invalid_argument', `Amount ${amount} is not a finite number.`);
  }
  const text = Math.abs(amount).toFixed(Math.max(exponent, 0) + 6);
  const [whole = '0', fraction = ''] = text.split('.');
  const kept = fraction.slice(0, exponent);
  if (/[1-9]/.test(fraction.slice(exponent))) {
    throw new DomainError(
      'invalid_argument',
      `Amount ${amount} has more than ${exponent} decimal places for ${currency}.`,
      { details: { amount, currency } },
    );
  }
  const minor = Number(whole + kept.padEnd(exponent, '0'));
  if (!Number.isSafeInteger(minor)) {
    throw new DomainError('invalid_argument', `Amount ${amount} is too large.`);
  }
  return amount < 0 ? -minor : minor;
}

/** Converts integer minor units back to a decimal amount in major units (1234 → 12.34 USD). */
export function toMajorUnits(minor: number, currency: string): number {
  const exponent = currencyExponent(currency);
  return exponent === 0 ? minor : Number((minor / 10 ** exponent).toFixed(exponent));
}

/** Integer division rounded half away from zero; exact for safe integers. */
export function divideRounded(numerator: number, denominator: number): number {
  if (denominator <= 0 || !Number.isInteger(denominator))
    throw new RangeError('denominator must be a positive integer');
  const magnitude = Math.floor((Math.abs(numerator) * 2 + denominator) / (2 * denominator));
  return numerator < 0 ? -magnitude : magnitude;
}

/** `minor × percent / 100`, rounded half away from zero; `percent` may carry two decimals (12.5). */
export function percentOf(minor: number, percent: number): number {
  const basisPoints = Math.round(percent * 100);
  return divideRounded(minor * basisPoints, 10_000);
}

/**
 * Splits `total` minor units over parts proportional to `weights` so that the parts add up to `total`
 * exactly: floor shares first, then the leftover units go to the largest remainders (earliest part wins a tie).
 */
export function allocateByLargestRemainder(total: number, weights: readonly number[]): number[] {
  if (weights.length === 0) return [];
  const weightSum = weights.reduce((sum, weight) => sum + weight, 0);
  const effective = weightSum > 0 ? weights : weights.map(() => 1);
  const effectiveSum = weightSum > 0 ? weightSum : weights.length;
  const sign = total < 0 ? -1 : 1;
  const magnitude = Math.abs(total);
  const shares = effective.map((weight) => {
    const exact = (magnitude * weight) / effectiveSum;
    return { floor: Math.floor(exact), remainder: exact - Math.floor(exact) };
  });
  let leftover = magnitude - shares.reduce((sum, share) => sum + share.floor, 0);
  const order = shares
    .map((_, index) => index)
    .sort((a, b) => (shares[b]?.remainder ?? 0) - (shares[a]?.remainder ?? 0) || a - b);
  const parts = shares.map((share) => share.floor);
  for (const index of order) {
    if (leftover <= 0) break;
    parts[index] = (parts[index] ?? 0) + 1;
    leftover -= 1;
  }
  return parts.map((part) => part * sign);
}

/** A money amount as it crosses the API: a decimal number in major units with a non-negative bound. */
export const amountSchema = z
  .number()
  .finite()
  .min(0)
  .max(10_000_000)
  .describe('In major units, e.g. 149.5.');
