import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeNextPath } from '../src/web/forms.ts';
import { renderLoginForm } from '../src/web/login-page.ts';

describe('safeNextPath', () => {
  it('keeps same-site relative paths with their query', () => {
    expect(safeNextPath('/settings/apps', '/settings')).toBe('/settings/apps');
    expect(safeNextPath('/oauth/interaction/abc?x=1#top', '/settings')).toBe(
      '/oauth/interaction/abc?x=1#top',
    );
  });

  it.each([
    '//evil.example',
    '//evil.example/settings',
    'https://evil.example',
    'http://evil.example/',
    '/\\evil.example',
    '\\\\evil.example',
    'javascript:alert(1)',
    'settings',
    '/\t/evil.example',
    '',
    '/.//evil.example',
    '/settings/..//evil.example/phish',
    '/%2e//evil.example',
    '/./%2E//evil.example/x?y=1',
    '/a/b/../..//evil.example',
  ])('refuses %j', (next) => {
    expect(safeNextPath(next, '/settings')).toBe('/settings');
  });

  it('keeps paths that only normalise to a path of this site', () => {
    expect(safeNextPath('/./settings', '/settings')).toBe('/settings');
    expect(safeNextPath('/settings/../settings/apps', '/settings')).toBe('/settings/apps');
    expect(safeNextPath('/.//', '/settings')).toBe('/settings');
  });

  // Pieces that change where a browser goes: dot segments (plain and encoded), slashes, backslashes,
  // schemes, hosts, control characters, query and fragment marks.
  const piece = fc.constantFrom(
    '/',
    '//',
    '.',
    '..',
    '%2e',
    '%2E',
    '%2f',
    '\\',
    '\t',
    '\n',
    ' ',
    ':',
    '@',
    '?',
    '#',
    '%',
    '\u0000',
    'evil.example',
    'https:',
    'javascript:',
    'settings',
    'apps',
    'a',
    '\u3002',
    '%5c',
  );
  const generatedNext = fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join(''));
  const startingWithSlash = generatedNext.map((next) => `/${next}`);

  it('sends every generated next to this origin, as a browser resolves the redirect', () => {
    fc.assert(
      fc.property(fc.oneof(generatedNext, startingWithSlash), (next) => {
        const path = safeNextPath(next, '/settings');
        expect(path.startsWith('/')).toBe(true);
        expect(path.startsWith('//')).toBe(false);
        expect(path).not.toContain('\\');
        // A browser resolves `Location` against the page that answered, here the sign-in page.
        expect(new URL(path, 'https://innkeep.test/login?next=x').origin).toBe('https://innkeep.test');
        // What passes once passes again unchanged: nothing is left for a second normalisation to turn.
        expect(safeNextPath(path, '/settings')).toBe(path);
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses non-strings and overlong values', () => {
    expect(safeNextPath(['/a', '/b'], '/settings')).toBe('/settings');
    expect(safeNextPath(undefined, '/settings')).toBe('/settings');
    expect(safeNextPath(`/${'a'.repeat(2000)}`, '/settings')).toBe('/settings');
  });
});

describe('renderLoginForm', () => {
  it('has the email, password and csrf fields and a Sign in button, all escaped', () => {
    const form = renderLoginForm({
      action: '/login?next=%2Fsettings%2Fapps',
      csrfToken: 'tok"en',
      email: '"><script>x</script>',
      error: 'The email or password is wrong.',
      notice: '<b>hi</b>',
    }).value;
    expect(form).toContain('action="/login?next=%2Fsettings%2Fapps"');
    expect(form).toContain('method="post"');
    expect(form).toContain('name="email"');
    expect(form).toContain('name="password"');
    expect(form).toContain('<input type="hidden" name="csrf" value="tok&quot;en">');
    expect(form).toContain('<button type="submit">Sign in</button>');
    expect(form).toContain('value="&quot;&gt;&lt;script&gt;x&lt;/script&gt;"');
    expect(form).toContain('&lt;b&gt;hi&lt;/b&gt;');
    expect(form).toContain('The email or password is wrong.');
    expect(form).not.toContain('<script>');
  });

  it('leaves out the message paragraphs when there is nothing to say', () => {
    const form = renderLoginForm({ action: '/login', csrfToken: 't' }).value;
    expect(form).not.toContain('class="error"');
    expect(form).not.toContain('class="notice"');
    expect(form).toContain('value=""');
  });
});
