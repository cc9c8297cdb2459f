import type { z } from 'zod';
import { parseInput } from '../core/input.ts';
import {
  createPricingRuleInputSchema,
  type PricingRule,
  type updatePricingRuleInputSchema,
} from './pricing.ts';

/** The fields of an update, without the id of the rule it changes. */
export type PricingRuleChanges = Omit<z.output<typeof updatePricingRuleInputSchema>, 'ruleId'>;

/** A rule's name, adjustment, conditions and switch, validated as a new rule's are. */
export type PricingRuleDefinition = z.output<typeof createPricingRuleInputSchema>;

/**
 * The rule `current` becomes with `changes` applied: omitted fields keep their value and `null` removes a
 * condition. The result is checked with the rules a new rule must satisfy, so an update can never store a
 * rule that create would refuse (e.g. a new startDate after the stored endDate): `invalid_argument` names
 * the offending fields.
 */
export function applyPricingRuleChanges(
  current: PricingRule,
  changes: PricingRuleChanges,
): PricingRuleDefinition {
  const pick = <Value>(change: Value | undefined, kept: Value): Value =>
    change === undefined ? kept : change;
  return parseInput(createPricingRuleInputSchema, {
    name: pick(changes.name, current.name),
    adjustment: pick(changes.adjustment, current.adjustment),
    listingIds: pick(changes.listingIds, current.listingIds) ?? undefined,
    daysOfWeek: pick(changes.daysOfWeek, current.daysOfWeek) ?? undefined,
    startDate: pick(changes.startDate, current.startDate) ?? undefined,
    endDate: pick(changes.endDate, current.endDate) ?? undefined,
    lastMinuteDays: pick(changes.lastMinuteDays, current.lastMinuteDays) ?? undefined,
    orphanGapMaxNights: pick(changes.orphanGapMaxNights, current.orphanGapMaxNights) ?? undefined,
    enabled: pick(changes.enabled, current.enabled),
  });
}
