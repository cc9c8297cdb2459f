import { scopeCatalogue } from '@innkeep/domain';
import { html, renderPage, type SafeHtml } from '../web/html.ts';
import { renderLoginForm } from '../web/login-page.ts';

/** The sign-in step of connecting an app. */
export function renderInteractionLoginPage(page: {
  clientName: string;
  action: string;
  csrfToken: string;
  email?: string | undefined;
  error?: string | undefined;
}): string {
  const body = html`<h1>Sign in to Innkeep</h1>
${renderLoginForm({
  action: page.action,
  csrfToken: page.csrfToken,
  notice: `Sign in to connect ${page.clientName} to your Innkeep account.`,
  ...(page.email === undefined ? {} : { email: page.email }),
  ...(page.error === undefined ? {} : { error: page.error }),
})}`;
  return renderPage({ title: 'Sign in', body });
}

/** One scope line on the consent page. */
export interface ConsentScope {
  readonly scope: string;
  /** What it allows, in plain words. */
  readonly grants: string;
  /** True when the app already holds it (it is shown, not asked again). */
  readonly alreadyAllowed: boolean;
  /**
   * True when it is asked for and the person allowed it to this app before, in a connection still in force;
   * false for a scope newly asked for. (A client that steps up asks for all it had again, plus what is new.)
   */
  readonly allowedBefore: boolean;
  /** True for a scope that only reads (listed under "See"); false for one that changes things ("Change"). */
  readonly readsOnly: boolean;
  /** Who receives what it does in the host's name (see `scopeCatalogue`); undefined when nobody outside does. */
  readonly actsInHostsNameTowards: 'guests' | undefined;
}

/** The consent step: which app, where it sends you back, and what it may do. */
export function renderConsentPage(page: {
  clientName: string;
  redirectUri: string;
  signedInAs: string;
  scopes: readonly ConsentScope[];
  confirmAction: string;
  abortAction: string;
  csrfToken: string;
  error?: string | undefined;
}): string {
  const asked = page.scopes.filter((entry) => !entry.alreadyAllowed);
  const held = page.scopes.filter((entry) => entry.alreadyAllowed);
  const askedAgain = asked.filter((entry) => entry.allowedBefore);
  const askedNew = asked.filter((entry) => !entry.allowedBefore);
  // Only an app asking for more than it had gets the new part set apart; a first connection is one list.
  const widening = held.length > 0 || askedAgain.length > 0;
  const body = html`<h1>Connect ${page.clientName} to Innkeep?</h1>
<p class="lead">An app calling itself <strong>${page.clientName}</strong> wants to use your Innkeep account. The name
is chosen by the app; check where it sends you back before you allow it.</p>
<p>After you decide, you go back to ${describeRedirect(page.redirectUri)}.</p>
${page.error === undefined ? null : html`<p class="error" role="alert">${page.error}</p>`}
<form method="post" action="${page.confirmAction}">
<input type="hidden" name="csrf" value="${page.csrfToken}">
${
  askedNew.length === 0
    ? null
    : html`<fieldset>
<legend>${widening ? 'New: it also asks to' : 'Allow it to:'}</legend>
${scopeGroups(askedNew, widening ? 'scopes new' : 'scopes', scopeCheckbox)}
<p class="hint">Untick anything you do not want to give.</p>
</fieldset>`
}
${
  askedAgain.length === 0
    ? null
    : html`<fieldset>
<legend>Allowed before, still asked for:</legend>
${scopeGroups(askedAgain, 'scopes again', scopeCheckbox)}
<p class="hint">Untick any of these to take it back from this connection.</p>
</fieldset>`
}
${
  held.length === 0
    ? null
    : html`<div class="held">
<p>It already may:</p>
${scopeGroups(
  held,
  'scopes granted',
  (entry) => html`<li>${entry.grants} <code>${entry.scope}</code>${inHostsNameMarker(entry)}</li>
`,
)}
</div>`
}
<p><label><input type="checkbox" name="remember" value="yes"> Remember this decision</label></p>
<div class="actions">
<button type="submit" class="primary">Allow</button>
<button type="submit" class="secondary" formaction="${page.abortAction}">Deny</button>
</div>
</form>
<p class="hint">You can disconnect it at any time under <a href="/settings/apps">Connected apps</a>.</p>`;
  return renderPage({ title: `Connect ${page.clientName}`, body, signedInAs: page.signedInAs });
}

/**
 * `entries` in two groups, each with its heading and a list of class `listClass`: "See" for the scopes that
 * only read, then "Change" for those that change things; an empty group is left out.
 */
function scopeGroups(
  entries: readonly ConsentScope[],
  listClass: string,
  item: (entry: ConsentScope) => SafeHtml,
): SafeHtml[] {
  const groups = [
    { heading: 'See', hint: 'changes nothing', entries: entries.filter((entry) => entry.readsOnly) },
    { heading: 'Change', hint: 'acts on your account', entries: entries.filter((entry) => !entry.readsOnly) },
  ];
  return groups
    .filter((group) => group.entries.length > 0)
    .map(
      (group) => html`<div class="scope-group">
<h2>${group.heading} <span class="hint">(${group.hint})</span></h2>
<ul class="${listClass}">
${group.entries.map(item)}</ul>
</div>
`,
    );
}

/** One asked-for scope: a ticked checkbox with what it allows in plain words. */
function scopeCheckbox(entry: ConsentScope): SafeHtml {
  return html`<li><label><input type="checkbox" name="scope" value="${entry.scope}" checked> ${entry.grants}
<code>${entry.scope}</code>${inHostsNameMarker(entry)}</label></li>
`;
}

/** The mark of a scope that acts in the host's name towards people outside the account; none otherwise. */
function inHostsNameMarker(entry: ConsentScope): SafeHtml | null {
  if (entry.actsInHostsNameTowards === undefined) return null;
  return html` <strong class="in-your-name">Sends in your name to ${entry.actsInHostsNameTowards}</strong>`;
}

/** Shown to a team member who tries to connect an assistant; the app is told `access_denied`. */
export function renderSubUserPage(page: {
  clientName: string;
  signedInAs: string;
  returnTo: string;
}): string {
  const body = html`<h1>Ask the account owner</h1>
<p class="lead">Assistants connect to the account owner's login: ask the owner, or connect an assistant from your
own account.</p>
<p>You are signed in as ${page.signedInAs}, a team member of this account, so ${page.clientName} was not
connected.</p>
<p><a class="button" href="${page.returnTo}">Return to ${page.clientName}</a></p>`;
  return renderPage({ title: 'Ask the account owner', body, signedInAs: page.signedInAs });
}

/** Shown when the sign-in or consent step is no longer there: expired, finished, or another browser. */
export function renderStartAgainPage(): string {
  const body = html`<h1>Please start again</h1>
<p class="lead">This sign-in page has expired, was already used, or was opened in a different browser.</p>
<p>Go back to the app you were connecting and connect it again; it will open a fresh page.</p>`;
  return renderPage({ title: 'Start again', body });
}

/** Shown when a step fails on our side; `reference` finds the logged cause. */
export function renderFailurePage(reference: string): string {
  const body = html`<h1>Something went wrong</h1>
<p class="lead">Something went wrong on our side, and the app was not connected.</p>
<p>Go back to the app and connect again. If it keeps happening, tell support this reference:
<code>${reference}</code>.</p>`;
  return renderPage({ title: 'Something went wrong', body });
}

/** The provider's page for errors it cannot send back to the app (unknown client, wrong redirect URI…). */
export function renderProviderErrorPage(out: {
  error: string;
  error_description?: string | undefined;
}): string {
  const body = html`<h1>This connection cannot continue</h1>
<p class="lead">${out.error_description ?? 'The app sent a request Innkeep cannot accept.'}</p>
<p>Error code: <code>${out.error}</code></p>
<p>Go back to the app and connect again. If this keeps happening, the app's settings are wrong; tell its
maker what this page says.</p>`;
  return renderPage({ title: 'Connection error', body });
}

/**
 * The scopes of a request, in catalogue order, each marked as asked or already held, an asked one as
 * allowed to this app before (`allowedBefore`) or new, and each as reading or changing and as acting in
 * the host's name or not.
 */
export function consentScopes(
  asked: ReadonlySet<string>,
  held: ReadonlySet<string>,
  allowedBefore: ReadonlySet<string>,
): ConsentScope[] {
  return scopeCatalogue
    .filter((entry) => asked.has(entry.scope) || held.has(entry.scope))
    .map((entry) => ({
      scope: entry.scope,
      grants: entry.grants,
      alreadyAllowed: !asked.has(entry.scope),
      allowedBefore: asked.has(entry.scope) && allowedBefore.has(entry.scope),
      readsOnly: entry.scope.endsWith(':read'),
      actsInHostsNameTowards: 'actsInHostsNameTowards' in entry ? entry.actsInHostsNameTowards : undefined,
    }));
}

// Anyone can register an app under any name; where the browser goes next is the part that cannot lie.
function describeRedirect(redirectUri: string): SafeHtml {
  const url = URL.parse(redirectUri);
  if (url === null) return html`<strong>${redirectUri}</strong>`;
  if (url.protocol === 'http:' && ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname)) {
    return html`<strong>an app on this computer</strong> (${url.host})`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return html`<strong>an app on this device</strong> (${url.protocol}//)`;
  }
  return html`<strong>${url.host}</strong>`;
}
