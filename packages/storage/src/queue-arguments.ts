import { DomainError } from '@innkeep/domain';

/**
 * Refuses a count that is not a whole number above zero, before any SQL runs: the claim sizes and lease lengths
 * the delivery queues (webhooks, guest email) are given.
 */
export function assertPositiveInteger(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 1) {
    throw new DomainError('invalid_argument', `${name} must be a whole number above zero, got ${value}.`);
  }
}
