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

/** A whole page in Innkeep's layout. Styles come from /assets/innkeep.css (the CSP allows no inline style). */
export function renderPage(page: { title: string; body: SafeHtml; signedInAs?: string | undefined }): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title} · Innkeep</title>
<link rel="stylesheet" href="/assets/innkeep.css">
</head>
<body>
<header class="top"><a class="brand" href="/settings">Innkeep</a>${
    page.signedInAs === undefined ? null : html`<span class="who">${page.signedInAs}</span>`
  }</header>
<main>
${page.body}
</main>
</body>
</html>
`.value;
}
