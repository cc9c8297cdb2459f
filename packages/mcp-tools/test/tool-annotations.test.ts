import { describe, expect, it } from 'vitest';
import { toolCatalogue } from '../src/catalogue.ts';
import { readOnly, type ToolAnnotations } from '../src/tool-definition.ts';

/**
 * Every write tool's hints, in the MCP specification's meaning, decided here one by one:
 * destructive = may overwrite or remove what was there; idempotent = repeating the same call changes
 * nothing more; open world = reaches someone outside the host's account (a guest).
 */
const writeHints: Readonly<Record<string, Omit<ToolAnnotations, 'readOnlyHint'>>> = {
  // Overwrites the dates' prices and restrictions; the same call again leaves them as they are.
  set_prices: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
  // Replaces blocks in the range or removes them; the same range again changes nothing more.
  set_availability: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
  // Overwrites the listing's settings.
  update_listing: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
  // Only adds a reservation, and each call adds another; it tells the guest nothing.
  create_reservation: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
  // Overwrites guest details, dates or price.
  update_reservation: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
  // Ends the stay for good; a second call is refused and changes nothing.
  cancel_reservation: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
  // Only adds a rule, which then sends messages to real guests.
  create_message_rule: { destructiveHint: false, idempotentHint: false, openWorldHint: true },
  // A reversible switch; resuming a rule sends messages to real guests again.
  pause_message_rule: { destructiveHint: false, idempotentHint: true, openWorldHint: true },
  // Adds a rule that changes the price of every matching night at once; each call adds another.
  create_pricing_rule: { destructiveHint: true, idempotentHint: false, openWorldHint: false },
  // Adds a message that a real guest receives; each call sends another.
  send_message: { destructiveHint: false, idempotentHint: false, openWorldHint: true },
};

describe('tool annotations', () => {
  it.each(toolCatalogue.map((tool) => [tool.name, tool] as const))(
    '%s declares the agreed hints',
    (name, tool) => {
      const hints = writeHints[name];
      expect(tool.annotations).toEqual(hints === undefined ? readOnly : { readOnlyHint: false, ...hints });
    },
  );

  it('decides every write tool in the table above, and no tool that is not in the catalogue', () => {
    const writers = toolCatalogue.filter((tool) => !tool.annotations.readOnlyHint).map((tool) => tool.name);
    expect(writers.sort()).toEqual(Object.keys(writeHints).sort());
  });

  it('marks every read tool as read-only, closed-world, idempotent and never destructive', () => {
    expect(readOnly).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
  });
});
