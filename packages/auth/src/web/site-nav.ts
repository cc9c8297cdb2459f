import { html, type SafeHtml, type SiteNavigation } from './html.ts';

/** The optional pages a server may serve besides settings and connected assistants. */
export interface ServedPages {
  /** `/`: the welcome page and the dashboard. */
  readonly home: boolean;
  /** `/settings/webhooks` and each webhook's page. */
  readonly webhooks: boolean;
  /** `/listings` and each listing's channel calendars. */
  readonly listings: boolean;
}

/** A page the signed-in navigation links to. */
export type SitePage = 'home' | 'listings' | 'settings' | 'apps' | 'webhooks';

const signedInLinks: readonly { page: SitePage; href: string; label: string }[] = [
  { page: 'home', href: '/', label: 'Home' },
  { page: 'listings', href: '/listings', label: 'Listings' },
  { page: 'settings', href: '/settings', label: 'Settings' },
  { page: 'apps', href: '/settings/apps', label: 'Connected assistants' },
  { page: 'webhooks', href: '/settings/webhooks', label: 'Webhooks' },
];

function link(href: string, label: string, current: boolean): SafeHtml {
  return html`<a href="${href}"${current ? html` aria-current="page"` : null}>${label}</a>
`;
}

function homeHref(served: ServedPages): string {
  return served.home ? '/' : '/settings';
}

/**
 * The navigation of a signed-in person's pages: each page this server serves, `current` marked (a page
 * below one, such as a single webhook, passes the one it belongs to), and the sign-out button, whose form
 * carries `csrfToken`.
 */
export function signedInNavigation(options: {
  served: ServedPages;
  csrfToken: string;
  current?: SitePage | undefined;
}): SiteNavigation {
  const { served } = options;
  // Settings and connected assistants are always served; the rest only where the server was given them.
  const optional: Partial<Record<SitePage, boolean>> = {
    home: served.home,
    listings: served.listings,
    webhooks: served.webhooks,
  };
  const links = signedInLinks.filter((entry) => optional[entry.page] ?? true);
  return {
    homeHref: homeHref(served),
    nav: html`<nav class="site" aria-label="Site">
${links.map((entry) => link(entry.href, entry.label, entry.page === options.current))}<form method="post" action="/logout"><input type="hidden" name="csrf" value="${options.csrfToken}"><button class="secondary" type="submit">Sign out</button></form>
</nav>`,
  };
}

/**
 * The navigation of the pages someone signed out sees, where a home page is served: home, sign in and the
 * REST reference (which the home page promises). Without a home page there is nowhere to lead but the
 * sign-in form itself, so there is no navigation.
 */
export function signedOutNavigation(options: {
  served: ServedPages;
  current: 'home' | 'sign-in';
}): SiteNavigation | undefined {
  if (!options.served.home) return undefined;
  return {
    homeHref: '/',
    nav: html`<nav class="site" aria-label="Site">
${link('/', 'Home', options.current === 'home')}${link('/login?next=%2F', 'Sign in', options.current === 'sign-in')}${link('/api/docs', 'REST API reference', false)}</nav>`,
  };
}
