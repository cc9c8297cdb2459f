import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getListingTool } from '../src/tools/listings/get-listing.tool.ts';
import { listListingsTool } from '../src/tools/listings/list-listings.tool.ts';
import { toolErrorOf } from './support/tool-error.ts';
import { openToolWorld, type ToolWorld } from './support/tool-world.ts';

describe('listing tools', () => {
  let world: ToolWorld;

  beforeAll(async () => {
    world = await openToolWorld();
  });

  afterAll(async () => {
    await world?.close();
  });

  it('list_listings pages the demo listings and its output matches the declared schema', async () => {
    const first = await world.call(listListingsTool, { limit: 5 });
    expect(first.isError).toBeUndefined();
    const page = listListingsTool.output.parse(first.structuredContent);
    expect(page.items).toHaveLength(5);
    expect(page.hasMore).toBe(true);
    expect(JSON.parse(first.content[0]?.text ?? '')).toEqual(first.structuredContent);
    const rest = listListingsTool.output.parse(
      (await world.call(listListingsTool, { limit: 100, cursor: page.nextCursor })).structuredContent,
    );
    expect(page.items.length + rest.items.length).toBe(12);
  });

  it('get_listing returns one listing, and a clear not_found for an unknown id', async () => {
    const { items } = listListingsTool.output.parse(
      (await world.call(listListingsTool, {})).structuredContent,
    );
    const id = items[0]?.id ?? '';
    const found = await world.call(getListingTool, { listingId: id });
    expect(getListingTool.output.parse(found.structuredContent).id).toBe(id);

    const missing = await world.call(getListingTool, { listingId: 'lst_nope' });
    expect(toolErrorOf(missing).code).toBe('not_found');
  });

  it('refuses bad input with every problem named, as a tool error', async () => {
    const result = await world.call(listListingsTool, { limit: 1000, enabled: 'yes' });
    expect(toolErrorOf(result).code).toBe('invalid_argument');
    expect(result.content[0]?.text).toContain('limit');
    expect(result.content[0]?.text).toContain('enabled');
  });
});
