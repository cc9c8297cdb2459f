import {
  hostToolsWebhookEvents,
  maxWebhooksPerAccount,
  type Page,
  type Webhook,
  type WebhookDelivery,
  type WebhookEvent,
  webhookEvents,
  webhookSignatureHeaderName,
} from '@innkeep/domain';
import { csrfField } from './account-views.ts';
import { html, renderPage, type SafeHtml } from './html.ts';
import { type ServedPages, signedInNavigation } from './site-nav.ts';

const eventWords: Readonly<Record<WebhookEvent, string>> = {
  'reservation.created': 'A reservation is booked, requested or enquired about',
  'reservation.updated': 'A reservation’s dates, guests, price, details or status change',
  'reservation.cancelled': 'A reservation is cancelled',
  'message.created': 'A message joins a reservation’s thread',
  'review.created': 'A guest review arrives (not yet sent: no channel brings reviews in)',
  'calendar.updated': 'Prices, stay rules or availability change',
  'calendar.import_conflict': 'A stay in a channel’s calendar clashes with one here',
  'listing.updated': 'A listing’s settings change',
};

const deliveryStatusWords: Readonly<Record<WebhookDelivery['status'], string>> = {
  pending: 'Pending',
  delivered: 'Delivered',
  failed: 'Failed',
};

/** Choices of how long a replaced secret keeps signing; the domain's default, 24 hours, comes first. */
const overlapChoices: readonly { hours: number; label: string }[] = [
  { hours: 24, label: '24 hours' },
  { hours: 1, label: '1 hour' },
  { hours: 72, label: '3 days' },
  { hours: 168, label: '7 days' },
  { hours: 0, label: 'Not at all: stop it now' },
];

/** What a person typed into a subscription form, shown again when it was refused. */
export interface WebhookDraft {
  readonly url: string;
  readonly events: readonly WebhookEvent[];
}

/** A signing secret to show on this response only: after creating a subscription or rotating its secret. */
export interface ShownSecret {
  readonly secret: string;
  /** True after a rotation, false for a new subscription. */
  readonly rotated: boolean;
  /** Until when the replaced secret still signs; null when it stopped at once (or there was none). */
  readonly previousSecretExpiresAt: string | null;
}

/**
 * A time for the delivery log, to the second in UTC (e.g. "2027-03-01 12:00:05 UTC"): receivers log in
 * UTC, so the two can be compared at a glance.
 */
function utcTime(iso: string): SafeHtml {
  return html`<time datetime="${iso}">${iso.slice(0, 19).replace('T', ' ')} UTC</time>`;
}

/** A time in the delivery log, whose heading says the times are UTC: "2027-03-01 12:00:05". */
function logTime(iso: string): SafeHtml {
  return html`<time datetime="${iso}">${iso.slice(0, 19).replace('T', ' ')}</time>`;
}

function webhookPath(webhookId: string): string {
  return `/settings/webhooks/${encodeURIComponent(webhookId)}`;
}

function messages(options: { notice?: string | undefined; error?: string | undefined }): SafeHtml {
  return html`${options.notice === undefined ? null : html`<p class="notice" role="status">${options.notice}</p>`}
${options.error === undefined ? null : html`<p class="error" role="alert">${options.error}</p>`}`;
}

function activityWords(webhook: Webhook): SafeHtml {
  if (webhook.active) return html`<span class="status-good">On</span>`;
  return html`<span class="status-bad">Off</span>${
    webhook.disabledReason === null ? null : html` <span class="hint">— ${webhook.disabledReason}</span>`
  }`;
}

function eventCheckboxes(choosable: readonly WebhookEvent[], checked: readonly string[]): SafeHtml {
  return html`<fieldset class="events">
<legend>Events</legend>
${choosable.map(
  (event) =>
    html`<label class="check"><input type="checkbox" name="events" value="${event}"${
      checked.includes(event) ? html` checked` : null
    }> <code>${event}</code> <span class="hint">${eventWords[event]}</span></label>`,
)}
</fieldset>`;
}

function urlField(url: string): SafeHtml {
  return html`<label for="url">Receiver URL</label>
<input id="url" name="url" type="url" required maxlength="2000" placeholder="https://example.com/innkeep-events" value="${url}">
<p class="hint">Innkeep POSTs each event here as JSON. Use https; plain http is allowed only for localhost and 127.0.0.1.</p>`;
}

function secretCard(shown: ShownSecret): SafeHtml {
  const overlap = !shown.rotated
    ? null
    : shown.previousSecretExpiresAt === null
      ? html`<p>The previous secret no longer signs deliveries.</p>`
      : html`<p>The previous secret keeps signing deliveries beside this one until ${utcTime(shown.previousSecretExpiresAt)}, so your receiver can switch over without refusing any.</p>`;
  return html`<div class="card token" role="status">
<h2>${shown.rotated ? 'Your new signing secret' : 'Your signing secret'}</h2>
<p>Copy it now: it is shown only this once. Your receiver uses it to check the <code>${webhookSignatureHeaderName}</code> header of every delivery.</p>
<pre><code>${shown.secret}</code></pre>
${overlap}
</div>`;
}

function webhookRow(webhook: Webhook): SafeHtml {
  return html`<tr>
<td class="wrap"><a href="${webhookPath(webhook.id)}">${webhook.url}</a>${
    webhook.format === 'hosttools' ? html` <span class="hint">(Host Tools URL)</span>` : null
  }</td>
<td>${webhook.events.length === webhookEvents.length ? 'All events' : webhook.events.map((event) => html`<code>${event}</code> `)}</td>
<td>${activityWords(webhook)}</td>
<td>${utcTime(webhook.createdAt)}</td>
</tr>`;
}

/**
 * The webhooks page: the account's subscriptions, and a form to add one (a refused `draft` is filled in
 * again, with `error` beside it).
 */
export function renderWebhooksPage(page: {
  signedInAs: string;
  csrfToken: string;
  served: ServedPages;
  webhooks: readonly Webhook[];
  notice?: string | undefined;
  error?: string | undefined;
  draft?: WebhookDraft | undefined;
}): string {
  const list =
    page.webhooks.length === 0
      ? html`<p>No webhooks yet. Add one below to have Innkeep tell your own systems when something changes.</p>`
      : html`<table class="stacked webhooks">
<thead><tr><th>Receiver</th><th>Events</th><th>Deliveries</th><th>Created</th></tr></thead>
<tbody>
${page.webhooks.map(webhookRow)}
</tbody>
</table>`;
  const draft = page.draft ?? { url: '', events: webhookEvents };
  return renderPage({
    title: 'Webhooks',
    signedInAs: page.signedInAs,
    navigation: signedInNavigation({ served: page.served, csrfToken: page.csrfToken, current: 'webhooks' }),
    body: html`<h1>Webhooks</h1>
${messages({ notice: page.notice })}
<section>
<p>Innkeep sends a signed POST to each receiver when something it subscribed to happens, and retries for a day when a receiver does not answer. Open a webhook to change it, see its delivery log or send a test.</p>
${list}
</section>
<section id="new-webhook">
<h2>Add a webhook</h2>
${messages({ error: page.error })}
<form method="post" action="/settings/webhooks">
${csrfField(page.csrfToken)}
${urlField(draft.url)}
${eventCheckboxes(webhookEvents, draft.events)}
<p class="hint">An account can have up to ${maxWebhooksPerAccount} webhooks. The signing secret is shown once, right after you add it.</p>
<button type="submit">Add webhook</button>
</form>
</section>`,
  });
}

function settingsSection(webhook: Webhook, csrfToken: string, draft: WebhookDraft, error?: string): SafeHtml {
  const choosable = webhook.format === 'hosttools' ? hostToolsWebhookEvents : webhookEvents;
  return html`<section id="settings">
<h2>Settings</h2>
${messages({ error })}
<form method="post" action="${webhookPath(webhook.id)}">
${csrfField(csrfToken)}
${urlField(draft.url)}
${eventCheckboxes(choosable, draft.events)}
<button type="submit">Save changes</button>
</form>
</section>`;
}

function activitySection(webhook: Webhook, csrfToken: string): SafeHtml {
  const explanation = webhook.active
    ? html`<p class="hint">Turning deliveries off holds new ones, pending, until you turn them on again.</p>`
    : html`<p class="hint">Turning deliveries on again resets the failure count and sends what is pending.</p>`;
  return html`<section id="deliveries-switch">
<h2>Deliveries</h2>
<dl>
<dt>Status</dt><dd>${activityWords(webhook)}</dd>
<dt>Failures in a row</dt><dd>${webhook.consecutiveFailures}</dd>
<dt>Format</dt><dd>${webhook.format === 'hosttools' ? 'Host Tools body (set with setWebhook)' : 'Innkeep envelope'}</dd>
<dt>Created</dt><dd>${utcTime(webhook.createdAt)}</dd>
</dl>
${explanation}
<form method="post" action="${webhookPath(webhook.id)}/active">
${csrfField(csrfToken)}
<input type="hidden" name="active" value="${webhook.active ? 'false' : 'true'}">
<button${webhook.active ? html` class="secondary"` : null} type="submit">${webhook.active ? 'Turn deliveries off' : 'Turn deliveries on'}</button>
</form>
<form method="post" action="${webhookPath(webhook.id)}/test">
${csrfField(csrfToken)}
<p class="hint">A test sends a <code>webhook.test</code> event to this receiver only, even while deliveries are off, and shows in the log below within seconds.</p>
<button class="secondary" type="submit">Send a test event</button>
</form>
</section>`;
}

function secretSection(webhook: Webhook, csrfToken: string): SafeHtml {
  const overlapping =
    webhook.previousSecretExpiresAt === null
      ? null
      : html`<p>The previous secret still signs deliveries beside the current one until ${utcTime(webhook.previousSecretExpiresAt)}.</p>`;
  return html`<section id="secret">
<h2>Signing secret</h2>
<p>The secret is never shown again after it is made. If it leaked, or you lost it, replace it.</p>
${overlapping}
<form method="post" action="${webhookPath(webhook.id)}/rotate-secret">
${csrfField(csrfToken)}
<label for="overlap_hours">Keep the old secret signing for</label>
<select id="overlap_hours" name="overlap_hours">
${overlapChoices.map((choice) => html`<option value="${choice.hours}">${choice.label}</option>`)}
</select>
<p class="hint">While both sign, every delivery carries a signature from each, so your receiver can switch without refusing one.</p>
<button type="submit">Replace the secret</button>
</form>
</section>`;
}

function deliveryRow(webhook: Webhook, delivery: WebhookDelivery, csrfToken: string): SafeHtml {
  const redeliver =
    delivery.status === 'pending'
      ? null
      : html`<form method="post" action="${webhookPath(webhook.id)}/deliveries/${encodeURIComponent(delivery.id)}/redeliver">${csrfField(csrfToken)}<button class="secondary" type="submit">Redeliver</button></form>`;
  return html`<tr>
<td>${logTime(delivery.createdAt)}</td>
<td><code>${delivery.event}</code></td>
<td>${deliveryStatusWords[delivery.status]}${
    delivery.lastError === null ? null : html`<br><span class="hint">${delivery.lastError}</span>`
  }</td>
<td>${delivery.lastStatusCode ?? '—'}${
    delivery.lastLatencyMs === null ? null : html`<br><span class="hint">${delivery.lastLatencyMs} ms</span>`
  }</td>
<td>${delivery.attempts}</td>
<td>${delivery.nextAttemptAt === null ? '—' : logTime(delivery.nextAttemptAt)}</td>
<td>${redeliver}</td>
</tr>`;
}

function deliveryLogSection(
  webhook: Webhook,
  deliveries: Page<WebhookDelivery>,
  options: { csrfToken: string; paged: boolean },
): SafeHtml {
  const table =
    deliveries.items.length === 0
      ? html`<p>${options.paged ? 'No older deliveries.' : 'Nothing has been sent here yet.'}</p>`
      : html`<table class="log stacked">
<thead><tr><th>Created (UTC)</th><th>Event</th><th>Status</th><th>Answer, latency</th><th>Attempts</th><th>Next attempt (UTC)</th><th></th></tr></thead>
<tbody>
${deliveries.items.map((delivery) => deliveryRow(webhook, delivery, options.csrfToken))}
</tbody>
</table>`;
  const newest = options.paged ? html`<a href="${webhookPath(webhook.id)}#log">Newest deliveries</a>` : null;
  const older =
    deliveries.nextCursor === null
      ? null
      : html`<a href="${webhookPath(webhook.id)}?cursor=${encodeURIComponent(deliveries.nextCursor)}#log">Older deliveries</a>`;
  return html`<section id="log">
<h2>Delivery log</h2>
<p class="hint">Newest first. Each row is the last attempt of one event; a redelivery sends it again with a new schedule.</p>
${table}
${newest === null && older === null ? null : html`<nav class="paging">${newest}${older}</nav>`}
</section>`;
}

/** What one subscription's page shows. */
export interface WebhookPageView {
  readonly signedInAs: string;
  readonly csrfToken: string;
  readonly served: ServedPages;
  readonly webhook: Webhook;
  readonly deliveries: Page<WebhookDelivery>;
  /** True when the log shows an older page than the newest. */
  readonly paged: boolean;
  readonly notice?: string | undefined;
  /** Why the last form on the page was refused, shown at the top. */
  readonly error?: string | undefined;
  readonly shown?: ShownSecret | undefined;
  /** The settings form as typed, when it was refused for `settingsError`. */
  readonly draft?: WebhookDraft | undefined;
  readonly settingsError?: string | undefined;
}

/**
 * One subscription's page: its settings (a refused `draft` is filled in again with `settingsError`),
 * turning deliveries off and on, a test, the signing secret (a just-made one in `shown`), the delivery log
 * a page at a time, and the way to delete it.
 */
export function renderWebhookPage(page: WebhookPageView): string {
  const { webhook } = page;
  return renderPage({
    title: 'Webhook',
    signedInAs: page.signedInAs,
    navigation: signedInNavigation({ served: page.served, csrfToken: page.csrfToken, current: 'webhooks' }),
    body: html`<p><a href="/settings/webhooks">All webhooks</a></p>
<h1 class="wrap">Webhook to ${webhook.url}</h1>
${messages({ notice: page.notice, error: page.error })}
${page.shown === undefined ? null : secretCard(page.shown)}
${activitySection(webhook, page.csrfToken)}
${deliveryLogSection(webhook, page.deliveries, { csrfToken: page.csrfToken, paged: page.paged })}
${settingsSection(webhook, page.csrfToken, page.draft ?? webhook, page.settingsError)}
${secretSection(webhook, page.csrfToken)}
<section id="delete">
<h2>Delete</h2>
<p>Deleting stops every delivery to this receiver at once.</p>
<p><a href="${webhookPath(webhook.id)}/delete">Delete this webhook…</a></p>
</section>`,
  });
}

/** The step before deleting: what will happen, a Delete button, and the way back. */
export function renderDeleteWebhookPage(page: {
  signedInAs: string;
  csrfToken: string;
  served: ServedPages;
  webhook: Webhook;
  error?: string | undefined;
}): string {
  const { webhook } = page;
  return renderPage({
    title: 'Delete webhook',
    signedInAs: page.signedInAs,
    navigation: signedInNavigation({ served: page.served, csrfToken: page.csrfToken, current: 'webhooks' }),
    body: html`<h1 class="wrap">Delete the webhook to ${webhook.url}?</h1>
${messages({ error: page.error })}
<section>
<p>Innkeep stops sending events to this receiver at once, pending deliveries included, and its delivery log goes with it. This cannot be undone; to receive events here again, add a new webhook.</p>
<form method="post" action="${webhookPath(webhook.id)}/delete">
${csrfField(page.csrfToken)}
<button class="danger" type="submit">Delete webhook</button>
</form>
<p><a href="${webhookPath(webhook.id)}">Keep it</a></p>
</section>`,
  });
}
