import { allScopes } from '@innkeep/domain';
import { describe, expect, it } from 'vitest';
import { consentScopes, renderConsentPage } from '../src/interactions/pages.ts';

/** One "See" or "Change" group of a consent page: its heading, its list's class and its scopes in order. */
interface ScopeGroup {
  readonly heading: string;
  readonly listClass: string;
  readonly scopes: string[];
}

/** The scope groups of `html`, in page order; a scope is named by its `<code>`, ticked or not. */
function groupsOf(html: string): ScopeGroup[] {
  const groups = html.matchAll(
    /<div class="scope-group">\s*<h2>(\w+) [^<]*<span[^>]*>[^<]*<\/span><\/h2>\s*<ul class="([^"]+)">([\s\S]*?)<\/ul>/g,
  );
  return [...groups].map(([, heading = '', listClass = '', items = '']) => ({
    heading,
    listClass,
    scopes: [...items.matchAll(/<code>([^<]+)<\/code>/g)].map((match) => match[1] ?? ''),
  }));
}

/** The consent page for `asked` (allowed before when in `again`) and `held`. */
function page(asked: readonly string[], held: readonly string[] = [], again: readonly string[] = []) {
  return renderConsentPage({
    clientName: 'Desk assistant',
    redirectUri: 'http://127.0.0.1:48123/callback',
    signedInAs: 'owner@example.test',
    scopes: consentScopes(new Set(asked), new Set(held), new Set(again)),
    confirmAction: '/oauth/interaction/abc/confirm',
    abortAction: '/oauth/interaction/abc/abort',
    csrfToken: 'token',
  });
}

describe('the consent page', () => {
  it('lists what only reads under "See", then what changes things under "Change"', () => {
    const html = page(['messages:write', 'calendar:read', 'reservations:write', 'listings:read']);
    expect(groupsOf(html)).toEqual([
      { heading: 'See', listClass: 'scopes', scopes: ['listings:read', 'calendar:read'] },
      { heading: 'Change', listClass: 'scopes', scopes: ['reservations:write', 'messages:write'] },
    ]);
    expect(html).toContain('<h2>See <span class="hint">(changes nothing)</span></h2>');
    expect(html).toContain('<h2>Change <span class="hint">(acts on your account)</span></h2>');
  });

  it('puts webhooks:manage, which is no read, under "Change", and leaves out an empty group', () => {
    const groups = groupsOf(page(['webhooks:manage']));
    expect(groups).toEqual([{ heading: 'Change', listClass: 'scopes', scopes: ['webhooks:manage'] }]);
  });

  it('marks, in words, the scopes that send in the host’s name to guests, and no other', () => {
    const html = page(allScopes);
    const marked = [...html.matchAll(/<li>(?:(?!<\/li>)[\s\S])*?<\/li>/g)]
      .map(([item]) => item)
      .filter((item) => item.includes('class="in-your-name"'))
      .map((item) => /value="([^"]+)"/.exec(item)?.[1]);
    expect(marked).toEqual(['messages:write', 'messageRules:write']);
    expect(html).toContain(
      '<code>messages:write</code> <strong class="in-your-name">Sends in your name to guests</strong></label>',
    );
  });

  it('keeps what is new, what was allowed before and what is held apart, each grouped', () => {
    const html = page(
      ['calendar:write', 'listings:read', 'messages:write'],
      ['reservations:read', 'messageRules:write'],
      ['listings:read', 'messages:write'],
    );
    expect(groupsOf(html)).toEqual([
      { heading: 'Change', listClass: 'scopes new', scopes: ['calendar:write'] },
      { heading: 'See', listClass: 'scopes again', scopes: ['listings:read'] },
      { heading: 'Change', listClass: 'scopes again', scopes: ['messages:write'] },
      { heading: 'See', listClass: 'scopes granted', scopes: ['reservations:read'] },
      { heading: 'Change', listClass: 'scopes granted', scopes: ['messageRules:write'] },
    ]);
    expect(html).toContain('New: it also asks to');
    expect(html).toContain('Allowed before, still asked for:');
    expect(html).toContain('It already may:');
    // What it holds is told, not asked: no checkbox, but the mark all the same.
    expect(html).not.toContain('value="reservations:read"');
    expect(html).toContain(
      '<code>messageRules:write</code> <strong class="in-your-name">Sends in your name to guests</strong></li>',
    );
  });
});
