import {
  type CalendarImport,
  type CalendarImportConflict,
  type Channel,
  defaultCalendarImportIntervalMinutes,
  type Listing,
  type ListingChannelLink,
  type Page,
} from '@innkeep/domain';
import { csrfField } from './account-views.ts';
import { copyButton } from './copy-button.ts';
import { html, renderPage, type SafeHtml } from './html.ts';
import { type ServedPages, signedInNavigation } from './site-nav.ts';

const channelNames: Readonly<Record<Channel, string>> = {
  airbnb: 'Airbnb',
  vrbo: 'Vrbo',
  booking: 'Booking.com',
  // A name the possessive (“Direct’s calendar”) reads well with.
  direct: 'Direct',
};

/** The channels page of a listing. */
export function listingChannelsPath(listingId: string): string {
  return `/listings/${encodeURIComponent(listingId)}/channels`;
}

/** Where the forms of one channel link of a listing post to, below {@link listingChannelsPath}. */
function channelLinkPath(listingId: string, channelAccountId: string): string {
  return `${listingChannelsPath(listingId)}/${encodeURIComponent(channelAccountId)}`;
}

/** The id of a channel link's section, which the page's redirects land on. */
export function channelSectionId(channelAccountId: string): string {
  return `channel-${channelAccountId}`;
}

/**
 * A time to the second in UTC (e.g. "2027-03-01 12:00:05 UTC"), as the webhooks page shows them: the
 * channels' own calendars and their support speak UTC, so the two compare at a glance.
 */
function utcTime(iso: string): SafeHtml {
  return html`<time datetime="${iso}">${iso.slice(0, 19).replace('T', ' ')} UTC</time>`;
}

function messages(options: { notice?: string | undefined; error?: string | undefined }): SafeHtml {
  return html`${options.notice === undefined ? null : html`<p class="notice" role="status">${options.notice}</p>`}
${options.error === undefined ? null : html`<p class="error" role="alert">${options.error}</p>`}`;
}

function listingRow(listing: Listing): SafeHtml {
  return html`<tr>
<td class="wrap"><a href="${listingChannelsPath(listing.id)}">${listing.name}</a></td>
<td class="wrap">${listing.city}</td>
<td>${listing.enabled ? html`<span class="status-good">Enabled</span>` : html`<span class="status-bad">Disabled</span>`}</td>
</tr>`;
}

/**
 * The listings page: a page of the account's listings by name, each linking to its channel calendars, and
 * links to the next page (`listings.nextCursor`) and back to the first (when `paged`).
 */
export function renderListingsPage(page: {
  signedInAs: string;
  csrfToken: string;
  served: ServedPages;
  listings: Page<Listing>;
  /** True when this is not the first page. */
  paged: boolean;
}): string {
  const { items, nextCursor } = page.listings;
  const list =
    items.length === 0
      ? html`<p>${page.paged ? 'No more listings.' : 'This account has no listings yet.'}</p>`
      : html`<table class="listings">
<thead><tr><th>Name</th><th>City</th><th>Bookings</th></tr></thead>
<tbody>
${items.map(listingRow)}
</tbody>
</table>`;
  const first = page.paged ? html`<a href="/listings">First listings</a>` : null;
  const next =
    nextCursor === null
      ? null
      : html`<a href="/listings?cursor=${encodeURIComponent(nextCursor)}">Next listings</a>`;
  return renderPage({
    title: 'Listings',
    signedInAs: page.signedInAs,
    navigation: signedInNavigation({ served: page.served, csrfToken: page.csrfToken, current: 'listings' }),
    body: html`<h1>Listings</h1>
<section>
<p>Open a listing to connect its calendar with each channel it is listed on: the calendar Innkeep gives the channel, and the channel’s own calendar Innkeep reads.</p>
${list}
${first === null && next === null ? null : html`<nav class="paging" aria-label="Pages of listings">${first}${next}</nav>`}
</section>`,
  });
}

/** A form of one channel link that was refused, shown again with why. */
export interface RefusedChannelForm {
  readonly channelAccountId: string;
  readonly form: 'export' | 'import';
  readonly message: string;
  /** The import URL as typed, filled in again. */
  readonly url?: string | undefined;
}

/** What a listing's channels page shows. */
export interface ListingChannelsView {
  readonly signedInAs: string;
  readonly csrfToken: string;
  readonly served: ServedPages;
  readonly listing: Listing;
  /** False for viewers, who see every calendar but no form: the domain would refuse their changes. */
  readonly canChange: boolean;
  readonly notice?: string | undefined;
  /** Why the last post was refused, when it belongs to no one form (a viewer's post, say). */
  readonly error?: string | undefined;
  readonly refused?: RefusedChannelForm | undefined;
}

function exportPart(view: ListingChannelsView, link: ListingChannelLink, index: number): SafeHtml {
  const channel = channelNames[link.channel];
  const refused = refusedHere(view, link, 'export');
  const replace = view.canChange
    ? html`<form method="post" action="${channelLinkPath(view.listing.id, link.channelAccountId)}/export-url">
${csrfField(view.csrfToken)}
${messages({ error: refused?.message })}
<label class="check"><input type="checkbox" name="confirm" value="yes" required> I understand that the URL above stops working at once, and that ${channel} sees no new bookings from Innkeep until I paste the new one there.</label>
<button class="secondary" type="submit">Replace this URL</button>
</form>`
    : null;
  return html`<h3>Innkeep’s calendar, for ${channel}</h3>
<p class="copyable" id="export-url-${index}"><code>${link.calendarExportUrl}</code></p>
${copyButton(`export-url-${index}`, 'Copy URL')}
<p>Paste this URL into ${channel}’s calendar import, so that ${channel} closes the nights booked or blocked here (${channel}’s own reservations are left out: it has them already). Anyone holding the URL sees which nights are taken, but no guest names or details; replace it if it reached someone else.</p>
${replace}`;
}

function importStatus(calendar: CalendarImport): SafeHtml {
  switch (calendar.status) {
    case 'pending':
      return html`Not fetched yet`;
    case 'connected':
      return html`<span class="status-good">Connected</span>${
        calendar.lastSuccessAt === null ? null : html`, last read ${utcTime(calendar.lastSuccessAt)}`
      }`;
    case 'error':
      // lastErrorAt is the latest failed read, not the first, so it is told as such.
      return html`<span class="status-bad">Error:</span> ${calendar.lastError ?? 'the last read failed'}${
        calendar.lastErrorAt === null ? null : html` (last tried ${utcTime(calendar.lastErrorAt)})`
      }`;
  }
}

function clashWords(clash: CalendarImportConflict['clashes'][number]): SafeHtml {
  const nights = html`${clash.startDate} to ${clash.endDate}`;
  return clash.kind === 'reservation'
    ? html`reservation <code>${clash.reservationId ?? 'unknown'}</code> (${nights})`
    : html`a block (${nights})`;
}

function conflictItem(conflict: CalendarImportConflict): SafeHtml {
  return html`<li>${conflict.startDate} to ${conflict.endDate}${
    conflict.summary === null ? null : html` (“${conflict.summary}”)`
  } clashes with ${conflict.clashes.map((clash, index) => html`${index === 0 ? null : ', '}${clashWords(clash)}`)}</li>`;
}

function conflictsPart(channel: string, conflicts: readonly CalendarImportConflict[]): SafeHtml {
  if (conflicts.length === 0) return html`<p>No stay of ${channel} clashes with a booking or block here.</p>`;
  return html`<p>These stays of ${channel} clash with nights already taken here, so those nights were not imported. Move or cancel one side; the next read imports the stay once the nights are free.</p>
<ul class="wrap">
${conflicts.map(conflictItem)}
</ul>`;
}

function importForms(view: ListingChannelsView, link: ListingChannelLink, index: number): SafeHtml {
  const channel = channelNames[link.channel];
  const refused = refusedHere(view, link, 'import');
  const action = channelLinkPath(view.listing.id, link.channelAccountId);
  const url = refused?.url ?? link.calendarImport?.url ?? '';
  const stop =
    link.calendarImport === null
      ? null
      : html`<form method="post" action="${action}/import/stop">
${csrfField(view.csrfToken)}
<p class="hint">Stopping frees the nights still to come that this calendar holds here; stays that have ended stay on record.</p>
<button class="secondary" type="submit">Stop importing</button>
</form>`;
  return html`<form method="post" action="${action}/import">
${csrfField(view.csrfToken)}
<label for="import-url-${index}">${channel}’s calendar URL</label>
${refused === undefined ? null : html`<p class="error" role="alert" id="import-error-${index}">${refused.message}</p>`}
<input id="import-url-${index}" name="url" type="url" required maxlength="2000" placeholder="https://…/calendar.ics" value="${url}"${
    refused === undefined ? null : html` aria-invalid="true" aria-describedby="import-error-${index}"`
  }>
<p class="hint">Copy it from ${channel}’s calendar export. Innkeep reads it at once, then every ${defaultCalendarImportIntervalMinutes} minutes unless this server is set otherwise, and blocks the nights of its stays here.</p>
<button type="submit">${link.calendarImport === null ? 'Import this calendar' : 'Save the URL'}</button>
</form>
${stop}`;
}

function importPart(view: ListingChannelsView, link: ListingChannelLink, index: number): SafeHtml {
  const channel = channelNames[link.channel];
  const calendar = link.calendarImport;
  const state =
    calendar === null
      ? html`<p>Innkeep does not read ${channel}’s calendar of this listing yet, so stays booked on ${channel} do not block the nights here.</p>`
      : html`<dl>
<dt>URL</dt><dd><code>${calendar.url}</code></dd>
<dt>Status</dt><dd>${importStatus(calendar)}</dd>
<dt>Stays held</dt><dd>${calendar.heldStays}</dd>
</dl>
${calendar.status === 'error' && calendar.heldStays > 0 ? html`<p class="hint">The nights held from the last good read stay held until the calendar can be read again.</p>` : null}
${conflictsPart(channel, calendar.conflicts)}`;
  return html`<h3>${channel}’s calendar, in Innkeep</h3>
${state}
${view.canChange ? importForms(view, link, index) : null}`;
}

function refusedHere(
  view: ListingChannelsView,
  link: ListingChannelLink,
  form: RefusedChannelForm['form'],
): RefusedChannelForm | undefined {
  const { refused } = view;
  return refused?.channelAccountId === link.channelAccountId && refused.form === form ? refused : undefined;
}

function channelSection(view: ListingChannelsView, link: ListingChannelLink, index: number): SafeHtml {
  const headingId = `channel-heading-${index}`;
  return html`<section id="${channelSectionId(link.channelAccountId)}" aria-labelledby="${headingId}">
<h2 id="${headingId}">${channelNames[link.channel]}</h2>
<dl>
<dt>Channel account</dt><dd><code>${link.channelAccountId}</code></dd>
<dt>Listing there</dt><dd><code>${link.externalListingId}</code></dd>
</dl>
${exportPart(view, link, index)}
${importPart(view, link, index)}
</section>`;
}

/**
 * A listing's channel calendars: for each channel link, the secret export URL (with a copy button, and a
 * form to replace it) and the channel's own calendar Innkeep imports (its status, held stays and clashes,
 * with forms to set it and stop it). A refused form is shown again where it was, with why.
 */
export function renderListingChannelsPage(view: ListingChannelsView): string {
  const { listing, refused } = view;
  // A form of a link the listing does not have (a stale page) has no place of its own: its error goes on top.
  const unplaced =
    refused !== undefined &&
    !listing.channels.some((link) => link.channelAccountId === refused.channelAccountId)
      ? refused.message
      : undefined;
  const intro =
    listing.channels.length === 0
      ? html`<p>This listing is not linked to any channel yet, so there is no calendar to exchange.</p>`
      : html`<p>Each channel keeps its own calendar of this listing. Give each channel Innkeep’s calendar so it closes the nights taken here, and give Innkeep the channel’s calendar so its stays close the nights here.</p>`;
  return renderPage({
    title: `Channel calendars of ${listing.name}`,
    signedInAs: view.signedInAs,
    navigation: signedInNavigation({ served: view.served, csrfToken: view.csrfToken, current: 'listings' }),
    enhanced: listing.channels.length > 0,
    body: html`<p><a href="/listings">All listings</a></p>
<h1 class="wrap">Channel calendars of ${listing.name}</h1>
${messages({ notice: view.notice, error: view.error ?? unplaced })}
<section>
${intro}
${view.canChange ? null : html`<p class="hint">You can read this account but not change it, so the page has no forms.</p>`}
</section>
${listing.channels.map((link, index) => channelSection(view, link, index))}`,
  });
}
