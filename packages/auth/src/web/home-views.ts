import type { AccessRoute, AuditEntryView, Page, UserProfile } from '@innkeep/domain';
import type { ConnectedApp } from '../postgres/connected-apps.ts';
import { formatTime, subscriptionSection } from './account-views.ts';
import { copyButton } from './copy-button.ts';
import { html, renderPage, type SafeHtml } from './html.ts';
import { type ServedPages, signedInNavigation, signedOutNavigation } from './site-nav.ts';

/** Kinds of record the audit log names, in the words of the activity filter. */
const recordKindWords: Readonly<Record<string, string>> = {
  account: 'Account',
  listing: 'Listing',
  listing_group: 'Listing group',
  message: 'Message',
  message_rule: 'Message rule',
  oauth_grant: 'Connected assistant',
  pricing_rule: 'Pricing rule',
  reservation: 'Reservation',
  review: 'Review',
  user: 'User',
  webhook: 'Webhook',
};

const routeWords: Readonly<Record<AccessRoute, string>> = {
  mcp: 'an assistant (MCP)',
  rest: 'the REST API',
  web: 'these pages',
  cli: 'an operator command',
  system: 'Innkeep itself',
};

/** The ways into Innkeep this server offers, as absolute URLs built from its base URL. */
export interface WaysIn {
  /** Where assistants connect, e.g. `https://innkeep.example/mcp`. */
  readonly mcpUrl: string;
  /** Where the REST API lives, e.g. `https://innkeep.example/api`. */
  readonly apiUrl: string;
  /** The REST reference page, e.g. `https://innkeep.example/api/docs`. */
  readonly apiDocsUrl: string;
}

function connectSteps(ways: WaysIn): SafeHtml {
  return html`<section id="connect">
<h2>Connect an assistant</h2>
<p>Paste this address into your assistant:</p>
<p class="copyable" id="mcp-url"><code>${ways.mcpUrl}</code></p>
${copyButton('mcp-url', 'Copy address')}
<h3>Claude</h3>
<ol>
<li>Open Settings → Connectors → Add custom connector.</li>
<li>Paste the address above and add it.</li>
<li>Claude opens Innkeep: sign in, then on the consent page leave ticked what Claude may do, and allow.</li>
</ol>
<h3>ChatGPT</h3>
<ol>
<li>Open Settings → Connectors (turn on developer mode under Advanced if Create is missing) → Create.</li>
<li>Paste the address above, choose OAuth, and create it.</li>
<li>Sign in to Innkeep when asked, and allow what ChatGPT may do.</li>
</ol>
<h3>Any other MCP client</h3>
<p>Add a remote server using Streamable HTTP at the address above, with OAuth. The client registers itself, sends you to Innkeep to sign in, and you choose on the consent page which scopes it gets.</p>
<p class="hint">Only the account owner can connect assistants. Each one sees and changes only what you allowed, and you can disconnect it at any time under <a href="/settings/apps">Connected assistants</a>.</p>
</section>`;
}

function restSection(ways: WaysIn): SafeHtml {
  return html`<section id="rest">
<h2>Use the REST API</h2>
<p>Your own code and integrations call <code class="wrap">${ways.apiUrl}/…</code> with an auth token (from Settings) in the <code>authToken</code> header, or with an OAuth access token.</p>
<p><a href="${ways.apiDocsUrl}">REST API reference</a></p>
</section>`;
}

/**
 * The home page for someone not signed in: what Innkeep is, how to sign in, and the two ways in — the
 * `/mcp` address for assistants, with the steps for the common ones, and the REST API's reference.
 */
export function renderWelcomePage(ways: WaysIn, served: ServedPages): string {
  return renderPage({
    title: 'Welcome',
    navigation: signedOutNavigation({ served, current: 'home' }),
    enhanced: true,
    body: html`<h1>Innkeep</h1>
<section>
<p>Innkeep runs a short-term-rental business — listings, calendars and prices, reservations, guest messages and reviews — and lets the AI assistants you use work on it, within what you allow.</p>
<p><a href="/login?next=%2F">Sign in</a> to see your account, its connected assistants and what they did.</p>
</section>
${connectSteps(ways)}
${restSection(ways)}`,
  });
}

/** One page of the account's audit log, and everything needed to show it in people's words. */
export interface ActivityView {
  readonly entries: Page<AuditEntryView>;
  /** Names of the account's users by id: "First Last", or the email when the name is empty. */
  readonly userNames: ReadonlyMap<string, string>;
  /** Names of OAuth clients by client id; entries of other clients show the id. */
  readonly clientNames: ReadonlyMap<string, string>;
  /** The filters in force, as the form sends them. */
  readonly filter: { readonly clientId?: string | undefined; readonly targetType?: string | undefined };
  /** True when showing an older page than the newest. */
  readonly paged: boolean;
  /** True when this server serves the webhooks pages, so webhook entries link to them. */
  readonly webhookPages: boolean;
}

/** What the dashboard shows where the activity would be. */
export type DashboardActivity =
  | { readonly kind: 'shown'; readonly view: ActivityView }
  /** The domain refused the audit log: only the owner may read it. */
  | { readonly kind: 'owner_only' }
  /** The filter or cursor was not one the log takes; the message says why. */
  | { readonly kind: 'refused'; readonly message: string; readonly view: Omit<ActivityView, 'entries'> };

/** What the signed-in home page shows. */
export interface DashboardView {
  readonly profile: UserProfile;
  readonly csrfToken: string;
  readonly apps: readonly ConnectedApp[];
  readonly activity: DashboardActivity;
  readonly ways: WaysIn;
  /** The optional pages this server serves, which the navigation links to. */
  readonly served: ServedPages;
}

function appsSection(apps: readonly ConnectedApp[], timeZone: string): SafeHtml {
  const list =
    apps.length === 0
      ? html`<p>No assistants are connected yet. See below for how to connect one.</p>`
      : html`<ul class="apps">
${apps.map(
  (app) =>
    html`<li><strong class="wrap">${app.clientName}</strong> <span class="hint">last used ${
      app.lastUsedAt === null ? 'never' : formatTime(app.lastUsedAt, timeZone)
    }</span></li>`,
)}
</ul>`;
  return html`<section id="apps">
<h2>Connected assistants</h2>
${list}
<p><a href="/settings/apps">Manage connected assistants</a></p>
</section>`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The names of the fields an entry changed: the keys of `details.changed` where the use case recorded one,
 * else, for an update that records its changes at the top (reservations do), the top-level keys. Only
 * names: the values may be guests' words, and the record's own page shows them.
 */
function changedFields(entry: AuditEntryView): string[] {
  if (isRecord(entry.details.changed)) return Object.keys(entry.details.changed);
  return entry.action.endsWith('.update') ? Object.keys(entry.details) : [];
}

function kindWords(targetType: string): string {
  return recordKindWords[targetType] ?? targetType;
}

function recordReference(entry: AuditEntryView, webhookPages: boolean): SafeHtml {
  const kind = kindWords(entry.targetType);
  if (entry.targetId === null) return html`${kind}`;
  // A deleted webhook has no page left to open.
  const hasPage = webhookPages && entry.targetType === 'webhook' && entry.action !== 'webhook.delete';
  const id = hasPage
    ? html`<a href="/settings/webhooks/${encodeURIComponent(entry.targetId)}"><code>${entry.targetId}</code></a>`
    : html`<code>${entry.targetId}</code>`;
  return html`${kind} ${id}`;
}

function who(entry: AuditEntryView, userNames: ReadonlyMap<string, string>): string {
  if (entry.userId === null) return entry.via === 'cli' ? 'An operator' : 'Innkeep';
  return userNames.get(entry.userId) ?? entry.userId;
}

function through(entry: AuditEntryView, clientNames: ReadonlyMap<string, string>): SafeHtml {
  const route = routeWords[entry.via];
  if (entry.clientId === null) return html`${route}`;
  const client = clientNames.get(entry.clientId);
  return client === undefined
    ? html`${route}, client <code>${entry.clientId}</code>`
    : html`<strong>${client}</strong>, ${route}`;
}

function activityEntry(entry: AuditEntryView, view: ActivityView, timeZone: string): SafeHtml {
  const fields = changedFields(entry);
  return html`<li>
<p class="when"><time datetime="${entry.createdAt}">${formatTime(entry.createdAt, timeZone)}</time></p>
<p><code>${entry.action}</code> · ${recordReference(entry, view.webhookPages)}</p>
${fields.length === 0 ? null : html`<p class="hint">Fields: ${fields.join(', ')}</p>`}
<p>By ${who(entry, view.userNames)} through ${through(entry, view.clientNames)}</p>
</li>`;
}

function option(value: string, label: string, selected: string | undefined): SafeHtml {
  return html`<option value="${value}"${value === (selected ?? '') ? html` selected` : null}>${label}</option>`;
}

function filterForm(view: Omit<ActivityView, 'entries'>): SafeHtml {
  const { clientId, targetType } = view.filter;
  const apps = [...view.clientNames];
  // A filter for an app that is no longer connected stays selectable, so the form shows what is in force.
  if (clientId !== undefined && !view.clientNames.has(clientId)) apps.push([clientId, clientId]);
  const kinds = Object.entries(recordKindWords);
  if (targetType !== undefined && recordKindWords[targetType] === undefined) {
    kinds.push([targetType, targetType]);
  }
  return html`<form class="filters" method="get" action="/">
<div>
<label for="app">App</label>
<select id="app" name="app">
${option('', 'All apps and routes', clientId)}
${apps.map(([id, name]) => option(id, name, clientId))}
</select>
</div>
<div>
<label for="kind">Kind of record</label>
<select id="kind" name="kind">
${option('', 'All kinds', targetType)}
${kinds.map(([kind, words]) => option(kind, words, targetType))}
</select>
</div>
<button type="submit">Show</button>
</form>`;
}

/** `/` with the filters (and a cursor) as its query string; the fragment lands on the activity. */
function activityLink(filter: ActivityView['filter'], cursor?: string): string {
  const query = new URLSearchParams();
  if (filter.clientId !== undefined) query.set('app', filter.clientId);
  if (filter.targetType !== undefined) query.set('kind', filter.targetType);
  if (cursor !== undefined) query.set('cursor', cursor);
  const search = query.toString();
  return `/${search === '' ? '' : `?${search}`}#activity`;
}

function activityList(view: ActivityView, timeZone: string): SafeHtml {
  const { entries } = view;
  const filtered = view.filter.clientId !== undefined || view.filter.targetType !== undefined;
  const list =
    entries.items.length === 0
      ? html`<p>${view.paged ? 'No older entries.' : filtered ? 'Nothing matches these filters.' : 'Nothing has changed yet.'}</p>`
      : html`<ol class="activity">
${entries.items.map((entry) => activityEntry(entry, view, timeZone))}
</ol>`;
  const newest = view.paged ? html`<a href="${activityLink(view.filter)}">Newest entries</a>` : null;
  const older =
    entries.nextCursor === null
      ? null
      : html`<a href="${activityLink(view.filter, entries.nextCursor)}">Older entries</a>`;
  return html`${list}
${newest === null && older === null ? null : html`<nav class="paging" aria-label="Activity pages">${newest}${older}</nav>`}`;
}

function activitySection(activity: DashboardActivity, timeZone: string): SafeHtml {
  const heading = html`<h2>Recent activity</h2>`;
  if (activity.kind === 'owner_only') {
    return html`<section id="activity">
${heading}
<p>Only the account owner can read the account’s activity, because it shows what every user, assistant and integration changed. Ask the owner if you need to know who changed something.</p>
</section>`;
  }
  const body =
    activity.kind === 'shown'
      ? activityList(activity.view, timeZone)
      : html`<p class="error" role="alert">${activity.message}</p>`;
  return html`<section id="activity">
${heading}
<p class="hint">Every change to the account, newest first, with who made it and through which assistant or route. Times are in the account’s time zone (${timeZone}).</p>
${filterForm(activity.view)}
${body}
</section>`;
}

/**
 * The signed-in home page: the subscription's standing, the connected assistants with their last use,
 * the account's recent activity (the owner's only; others are told why), and the ways in.
 */
export function renderDashboardPage(page: DashboardView): string {
  const { profile } = page;
  const timeZone = profile.account.timeZone;
  return renderPage({
    title: 'Home',
    signedInAs: profile.email,
    navigation: signedInNavigation({ served: page.served, csrfToken: page.csrfToken, current: 'home' }),
    enhanced: true,
    body: html`<h1>${profile.account.name}</h1>
${subscriptionSection(profile)}
${appsSection(page.apps, timeZone)}
${activitySection(page.activity, timeZone)}
${connectSteps(page.ways)}
${restSection(page.ways)}`,
  });
}
