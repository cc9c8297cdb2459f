import { builtInHelpArticles } from '@innkeep/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerActor } from './support/rest-expectations.ts';
import {
  authTokenOf,
  demoUsers,
  openRestWorld,
  type RestWorld,
  type RunningRestApp,
  startRestApp,
} from './support/rest-world.ts';

// The help centre's curl examples, run as printed: only the placeholders a reader fills in are replaced.

/** A curl command of an article: its headers and its URL. */
interface PrintedCall {
  readonly article: string;
  readonly command: string;
  readonly headers: Record<string, string>;
  readonly url: string;
}

/** Every `curl` line of the articles' code blocks, read the way a shell would read these simple ones. */
function printedCalls(): PrintedCall[] {
  return builtInHelpArticles.flatMap((article) =>
    article.body
      .split('\n')
      .filter((line) => line.startsWith('curl '))
      .map((command) => {
        const quoted = [...command.matchAll(/'([^']*)'/g)].map((match) => match[1] ?? '');
        const headers = Object.fromEntries(
          [...command.matchAll(/-H '([^:']+): ([^']*)'/g)].map((match) => [match[1] ?? '', match[2] ?? '']),
        );
        return { article: article.slug, command, headers, url: quoted[quoted.length - 1] ?? '' };
      }),
  );
}

describe('the help centre’s REST examples', () => {
  let world: RestWorld;
  let running: RunningRestApp;
  let fill: (text: string) => string;

  beforeAll(async () => {
    world = await openRestWorld('pglite');
    running = await startRestApp(world);
    const authToken = await authTokenOf(world, demoUsers.owner);
    const { apiKey } = await world.operator.issuePartnerApiKey({ partnerName: 'Help reader' });
    const owner = await ownerActor(world, demoUsers.owner);
    const listingId = (await world.domain.listings.list(owner, { limit: 1 })).items[0]?.id ?? '';
    const values: Record<string, string> = {
      '{base_url}': running.baseUrl,
      '<your authToken>': authToken,
      '<authToken>': authToken,
      '<apiKey>': apiKey,
      '<listingId>': listingId,
    };
    fill = (text) =>
      Object.entries(values).reduce((filled, [name, value]) => filled.replaceAll(name, value), text);
  }, 300_000);

  afterAll(async () => {
    await running?.close();
    await world?.close();
  });

  it('finds the examples', () => {
    expect(printedCalls().length).toBeGreaterThanOrEqual(2);
  });

  it('answers each example with 200 and JSON', async () => {
    for (const call of printedCalls()) {
      const headers = Object.fromEntries(
        Object.entries(call.headers).map(([name, value]) => [name, fill(value)]),
      );
      const response = await fetch(fill(call.url), { headers });
      expect(response.status, `${call.article}: ${call.command}`).toBe(200);
      expect(response.headers.get('content-type'), call.command).toContain('application/json');
    }
  });
});
