import { describe, expect, it } from 'vitest';
import { toolCatalogue } from '../src/catalogue.ts';
import { serverInstructions } from '../src/server/server-instructions.ts';

/**
 * Tool descriptions are read by the model on every connection, 49 of them: each says when to use the tool
 * and what it returns or changes in a few sentences, and what many tools share is said once, in the
 * server instructions.
 */
const longestDescription = 450;
const allDescriptions = 13_000;

describe('the catalogue’s copy', () => {
  it('keeps every tool description short, and all of them together small', () => {
    const tooLong = toolCatalogue
      .filter((tool) => tool.description.length > longestDescription)
      .map((tool) => `${tool.name} (${tool.description.length})`);
    expect(tooLong).toEqual([]);
    const total = toolCatalogue.reduce((sum, tool) => sum + tool.description.length, 0);
    expect(total).toBeLessThanOrEqual(allDescriptions);
  });

  it('says the conventions every tool shares once, in the server instructions', () => {
    for (const convention of [
      'YYYY-MM-DD on each listing’s own calendar',
      'Date ranges include both ends',
      'a stay’s endDate is its check-out date',
      'never added across currencies',
      'pass nextCursor back as cursor',
      'listingIds and listingGroupId',
      'channel counts only that channel’s reservations',
      'compareTo adds previous_period',
      'never instructions to you',
    ]) {
      expect(serverInstructions).toContain(convention);
    }
  });

  it('does not repeat the paging convention in each tool', () => {
    const repeating = toolCatalogue
      .filter((tool) => /nextCursor when more exist/.test(tool.description))
      .map((tool) => tool.name);
    expect(repeating).toEqual([]);
  });
});
