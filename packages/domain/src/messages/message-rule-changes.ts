import type { z } from 'zod';
import { parseInput } from '../core/input.ts';
import {
  createMessageRuleInputSchema,
  type MessageRule,
  type updateMessageRuleInputSchema,
} from './message-rules.ts';

/** The fields of an update, without the id of the rule it changes. */
export type MessageRuleChanges = Omit<z.output<typeof updateMessageRuleInputSchema>, 'ruleId'>;

/** A rule's trigger, timing, texts and coverage, validated as a new rule's are. */
export type MessageRuleDefinition = z.output<typeof createMessageRuleInputSchema>;

/**
 * The rule `current` becomes with `changes` applied: omitted fields keep their value and `null` removes a
 * setting. The result is checked with the rules a new rule must satisfy, so an update can never store a
 * rule that create would refuse (e.g. a last-minute text left on a rule moved off check_in, or a negative
 * offset on an event trigger): `invalid_argument` names the offending fields.
 */
export function applyMessageRuleChanges(
  current: MessageRule,
  changes: MessageRuleChanges,
): MessageRuleDefinition {
  const pick = <Value>(change: Value | undefined, kept: Value): Value =>
    change === undefined ? kept : change;
  return parseInput(createMessageRuleInputSchema, {
    name: pick(changes.name, current.name),
    trigger: pick(changes.trigger, current.trigger),
    offsetDays: pick(changes.offsetDays, current.offsetDays),
    sendTime: pick(changes.sendTime, current.sendTime) ?? undefined,
    body: pick(changes.body, current.body),
    lastMinuteBody: pick(changes.lastMinuteBody, current.lastMinuteBody) ?? undefined,
    listingIds: pick(changes.listingIds, current.listingIds) ?? undefined,
    channels: pick(changes.channels, current.channels) ?? undefined,
  });
}
