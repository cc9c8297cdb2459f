/** HTML that is already safe to send: built by {@link html} or deliberately marked with {@link trustedHtml}. */
export class SafeHtml {
  readonly value: string;

  constructor(value: string) {
    this.value = value;
  }

  toString(): string {
    return this.value;
  }
}

/** Escapes text for an HTML element body or a double-quoted attribute. */
export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** Marks a string the caller built from constants as HTML. Never pass user input here. */
export function trustedHtml(markup: string): SafeHtml {
  return new SafeHtml(markup);
}

type Interpolation = SafeHtml | string | number | boolean | null | undefined | readonly Interpolation[];

function render(value: Interpolation): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/**
 * Tagged template for markup: every interpolated value is escaped unless it is {@link SafeHtml}, arrays are
 * concatenated, and `null`/`undefined`/`false` render as nothing — so conditional fragments read naturally.
 */
export function html(strings: TemplateStringsArray, ...values: Interpolation[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, index) => {
    out += render(value) + (strings[index + 1] ?? '');
  });
  return new SafeHtml(out);
}

/** The site navigation a page carries: the `<nav>` itself, and where the brand in the header leads. */
export interface SiteNavigation {
  /** A `<nav aria-label="Site">` with the current page marked `aria-current="page"`. */
  readonly nav: SafeHtml;
  /** The site's first page, e.g. `/` (or `/settings` where no home page is served). */
  readonly homeHref: string;
}

/** What {@link renderPage} puts in Innkeep's frame. */
export interface PageContent {
  readonly title: string;
  readonly body: SafeHtml;
  /** The signed-in person's email, shown in the header. */
  readonly signedInAs?: string | undefined;
  /**
   * The site navigation, between the header and the content. Leave it out on pages where a link away would
   * break what the person is doing (an OAuth sign-in or consent, mid-flow): the brand is then no link either.
   */
  readonly navigation?: SiteNavigation | undefined;
  /** Loads /assets/innkeep.js, which adds copy buttons; the page must work without it. */
  readonly enhanced?: boolean | undefined;
}

/**
 * A whole page in Innkeep's frame: a skip link as the first Tab stop, the header, the site navigation when
 * given, and `<main id="main">` for the skip link to land on. Styles come from /assets/innkeep.css and
 * scripts only from /assets/innkeep.js (the CSP allows nothing inline).
 */
export function renderPage(page: PageContent): string {
  const brand =
    page.navigation === undefined
      ? html`<span class="brand">Innkeep</span>`
      : html`<a class="brand" href="${page.navigation.homeHref}">Innkeep</a>`;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title} · Innkeep</title>
<link rel="stylesheet" href="/assets/innkeep.css">
${page.enhanced === true ? html`<script src="/assets/innkeep.js" defer></script>` : null}
</head>
<body>
<a class="skip-link" href="#main">Skip to content</a>
<header class="top">${brand}${
    page.signedInAs === undefined ? null : html`<span class="who">${page.signedInAs}</span>`
  }</header>
${page.navigation?.nav ?? null}
<main id="main" tabindex="-1">
${page.body}
</main>
</body>
</html>
`.value;
}
