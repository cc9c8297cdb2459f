import {
  type IssuedAuthToken,
  type Scope,
  scopeCatalogue,
  type UserProfile,
  type UserRole,
} from '@innkeep/domain';
import type { ConnectedApp } from '../postgres/connected-apps.ts';
import type { WebSession } from '../postgres/web-sessions.ts';
import { copyButton } from './copy-button.ts';
import { html, renderPage, type SafeHtml, type SiteNavigation } from './html.ts';
import { type LoginFormOptions, renderLoginForm } from './login-page.ts';
import { type ServedPages, signedInNavigation, signedOutNavigation } from './site-nav.ts';

const roleWords: Readonly<Record<UserRole, string>> = {
  owner: 'Owner',
  manager: 'Team member — manager (can change data)',
  viewer: 'Team member — viewer (read only)',
};

const statusWords: Readonly<Record<UserProfile['subscription']['status'], string>> = {
  trialing: 'Free trial',
  active: 'Active',
  past_due: 'Payment overdue',
  canceled: 'Canceled',
  unpaid: 'Unpaid',
};

const scopeWords: ReadonlyMap<string, string> = new Map(
  scopeCatalogue.map((entry) => [entry.scope, entry.grants]),
);

/**
 * A timestamp as a person in `timeZone` reads it, e.g. "Jan 31, 2027, 12:00 AM EST". Falls back to UTC
 * for a zone the runtime does not know, rather than failing the page.
 */
export function formatTime(iso: string, timeZone: string): string {
  // Newer ICU puts a narrow no-break space before AM/PM; a plain space reads the same and copies cleanly.
  return formatTimeIn(iso, timeZone).replaceAll('\u202f', ' ');
}

function formatTimeIn(iso: string, timeZone: string): string {
  const options: Intl.DateTimeFormatOptions = {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  };
  try {
    return new Intl.DateTimeFormat('en-US', { ...options, timeZone }).format(new Date(iso));
  } catch {
    return new Intl.DateTimeFormat('en-US', { ...options, timeZone: 'UTC' }).format(new Date(iso));
  }
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The hidden `csrf` field every form of the account pages carries. */
export function csrfField(csrfToken: string): SafeHtml {
  return html`<input type="hidden" name="csrf" value="${csrfToken}">`;
}

/** The sign-in page: a heading and {@link renderLoginForm}, under the signed-out navigation. */
export function renderSignInPage(form: LoginFormOptions, served: ServedPages): string {
  return renderPage({
    title: 'Sign in',
    navigation: signedOutNavigation({ served, current: 'sign-in' }),
    body: html`<h1>Sign in to Innkeep</h1>\n${renderLoginForm(form)}`,
  });
}

/** A page that only says something: an error, a refusal, a confirmation. */
export function renderMessagePage(page: {
  title: string;
  message: string;
  link?: { href: string; label: string } | undefined;
  signedInAs?: string | undefined;
  /** The site navigation, where the page is known to be shown to someone signed in. */
  navigation?: SiteNavigation | undefined;
}): string {
  const link =
    page.link === undefined ? null : html`<p><a href="${page.link.href}">${page.link.label}</a></p>`;
  return renderPage({
    title: page.title,
    signedInAs: page.signedInAs,
    navigation: page.navigation,
    body: html`<h1>${page.title}</h1>\n<section><p>${page.message}</p>${link}</section>`,
  });
}

/** The subscription in plain words — plan, status, standing, period end — as settings and home show it. */
export function subscriptionSection(profile: UserProfile): SafeHtml {
  const { subscription } = profile;
  const standing = subscription.inGoodStanding
    ? html`<dd class="status-good">In good standing: assistants and integrations can use this account.</dd>`
    : html`<dd class="status-bad">Not in good standing: connected assistants and the API are paused until the subscription is active again.</dd>`;
  const periodEnd =
    subscription.currentPeriodEnd === null
      ? null
      : html`<dt>${subscription.status === 'trialing' ? 'Trial ends' : 'Current period ends'}</dt>
<dd>${formatTime(subscription.currentPeriodEnd, profile.account.timeZone)}</dd>`;
  return html`<section>
<h2>Subscription</h2>
<dl>
<dt>Plan</dt><dd>${capitalised(subscription.plan)}</dd>
<dt>Status</dt><dd>${statusWords[subscription.status]}</dd>
<dt>Standing</dt>${standing}
${periodEnd}
</dl>
</section>`;
}

function issuedTokenCard(issued: IssuedAuthToken, apiBase: string): SafeHtml {
  return html`<div class="card token" role="status">
<h3>Your new auth token</h3>
<p>Copy it now: it is shown only this once, and Innkeep keeps only a fingerprint of it. It replaces your previous auth token, which no longer works.</p>
<pre class="wrap" id="new-auth-token"><code>${issued.authToken}</code></pre>
${copyButton('new-auth-token', 'Copy auth token')}
<p>Use it like this:</p>
<pre class="wrap" id="curl-example"><code>curl -H "authToken: ${issued.authToken}" ${apiBase}/getListings</code></pre>
${copyButton('curl-example', 'Copy example')}
</div>`;
}

function authTokenSection(
  profile: UserProfile,
  options: { csrfToken: string; apiBase: string; issued?: IssuedAuthToken | undefined },
): SafeHtml {
  const { authToken } = profile;
  const current =
    options.issued !== undefined
      ? null
      : authToken === null
        ? html`<p>You have no auth token yet.</p>`
        : html`<p>Your current auth token was generated ${formatTime(authToken.createdAt, profile.account.timeZone)}. It is never shown again; if you lost it, generate a new one.</p>`;
  // Replacing a token breaks whatever still uses it, so that takes a second step; a first token does not.
  const action =
    authToken === null && options.issued === undefined
      ? html`<form method="post" action="/settings/auth-token">
${csrfField(options.csrfToken)}
<button type="submit">Generate auth token</button>
</form>`
      : html`<p class="hint">A new token replaces and revokes the current one: anything still using it stops working.</p>
<p><a href="/settings/auth-token/replace">Replace the auth token…</a></p>`;
  return html`<section id="auth-token">
<h2>Auth token</h2>
<p>An auth token lets your own code and integrations use the Innkeep API as you. Send it in the <code>authToken</code> header on requests to <code class="wrap">${options.apiBase}/…</code>.</p>
${current}
${options.issued === undefined ? null : issuedTokenCard(options.issued, options.apiBase)}
${action}
</section>`;
}

/**
 * The step before replacing an auth token: when the current one was made, what stops working, a Replace
 * button (posting `replace=yes`, which the token route requires while a token exists), and the way back.
 */
export function renderReplaceAuthTokenPage(page: {
  profile: UserProfile;
  csrfToken: string;
  served: ServedPages;
}): string {
  const { profile } = page;
  const made =
    profile.authToken === null
      ? null
      : html` made ${formatTime(profile.authToken.createdAt, profile.account.timeZone)}`;
  return renderPage({
    title: 'Replace auth token',
    signedInAs: profile.email,
    navigation: signedInNavigation({ served: page.served, csrfToken: page.csrfToken, current: 'settings' }),
    body: html`<h1>Replace your auth token?</h1>
<section>
<p>Innkeep makes a new auth token and shows it once. Your current token${made} stops working at once: every script and integration that still sends it is refused until you give it the new one.</p>
<form method="post" action="/settings/auth-token">
${csrfField(page.csrfToken)}
<input type="hidden" name="replace" value="yes">
<button class="danger" type="submit">Replace auth token</button>
</form>
<p><a href="/settings#auth-token">Keep the current token</a></p>
</section>`,
  });
}

function sessionRow(session: WebSession, currentIdHash: string, timeZone: string): SafeHtml {
  const current = session.idHash === currentIdHash;
  return html`<tr${current ? html` class="current"` : null}>
<td>${session.userAgent}${current ? html` <strong>(this browser)</strong>` : null}</td>
<td>${session.ipAddress}</td>
<td>${formatTime(session.createdAt.toISOString(), timeZone)}</td>
<td>${formatTime(session.lastSeenAt.toISOString(), timeZone)}</td>
</tr>`;
}

function sessionsSection(
  profile: UserProfile,
  options: { csrfToken: string; sessions: readonly WebSession[]; currentIdHash: string },
): SafeHtml {
  const others = options.sessions.filter((session) => session.idHash !== options.currentIdHash);
  const signOutOthers =
    others.length === 0
      ? html`<p class="hint">No other browser is signed in.</p>`
      : html`<form method="post" action="/settings/sessions/sign-out-others">
${csrfField(options.csrfToken)}
<button class="secondary" type="submit">Sign out other sessions</button>
</form>`;
  return html`<section id="sessions">
<h2>Signed-in browsers</h2>
<p>Where you are signed in to these pages and to connecting assistants. Each sign-in lasts at most 12 hours, and ends after 2 hours without use. Signing out somewhere else does not disconnect assistants: do that under <a href="/settings/apps">Connected assistants</a>.</p>
<table class="stacked sessions">
<thead><tr><th>Browser</th><th>Address</th><th>Signed in</th><th>Last active</th></tr></thead>
<tbody>
${options.sessions.map((session) => sessionRow(session, options.currentIdHash, profile.account.timeZone))}
</tbody>
</table>
${signOutOthers}
</section>`;
}

const webhooksSection = html`<section id="webhooks">
<h2>Webhooks</h2>
<p>Have Innkeep tell your own systems when reservations, messages, reviews, calendars or listings change.</p>
<p><a href="/settings/webhooks">Manage webhooks</a></p>
</section>`;

function passwordSection(options: { csrfToken: string; error?: string | undefined }): SafeHtml {
  return html`<section id="password">
<h2>Change password</h2>
${options.error === undefined ? null : html`<p class="error" role="alert">${options.error}</p>`}
<form method="post" action="/settings/password">
${csrfField(options.csrfToken)}
<label for="current_password">Current password</label>
<input id="current_password" name="current_password" type="password" autocomplete="current-password" required maxlength="256">
<label for="new_password">New password</label>
<input id="new_password" name="new_password" type="password" autocomplete="new-password" required minlength="10" maxlength="256">
<label for="confirm_password">New password again</label>
<input id="confirm_password" name="confirm_password" type="password" autocomplete="new-password" required minlength="10" maxlength="256">
<p class="hint">At least 10 characters. Changing it signs out every other browser.</p>
<button type="submit">Change password</button>
</form>
</section>`;
}

/**
 * The settings page: profile, account, subscription in plain words, the signed-in browsers, the password
 * form and, at the bottom, the auth token — including a freshly `issued` one, shown on this response only.
 */
export function renderSettingsPage(page: {
  profile: UserProfile;
  csrfToken: string;
  baseUrl: string;
  sessions: readonly WebSession[];
  /** The id hash of the session viewing the page, marked "this browser" in the list. */
  currentIdHash: string;
  issued?: IssuedAuthToken | undefined;
  notice?: string | undefined;
  passwordError?: string | undefined;
  /** The optional pages this server serves: the navigation, and a webhooks section, link to them. */
  served: ServedPages;
}): string {
  const { profile } = page;
  return renderPage({
    title: 'Settings',
    signedInAs: profile.email,
    navigation: signedInNavigation({ served: page.served, csrfToken: page.csrfToken, current: 'settings' }),
    enhanced: page.issued !== undefined,
    body: html`<h1>Settings</h1>
${page.notice === undefined ? null : html`<p class="notice" role="status">${page.notice}</p>`}
<section>
<h2>Profile</h2>
<dl>
<dt>Name</dt><dd>${profile.firstName} ${profile.lastName}</dd>
<dt>Email</dt><dd>${profile.email}</dd>
<dt>Role</dt><dd>${roleWords[profile.role]}</dd>
</dl>
</section>
<section>
<h2>Account</h2>
<dl>
<dt>Name</dt><dd>${profile.account.name}</dd>
<dt>Time zone</dt><dd>${profile.account.timeZone}</dd>
<dt>Currency</dt><dd>${profile.account.currency}</dd>
</dl>
</section>
${subscriptionSection(profile)}
${page.served.webhooks ? webhooksSection : null}
${sessionsSection(profile, { csrfToken: page.csrfToken, sessions: page.sessions, currentIdHash: page.currentIdHash })}
${passwordSection({ csrfToken: page.csrfToken, error: page.passwordError })}
${authTokenSection(profile, { csrfToken: page.csrfToken, apiBase: `${page.baseUrl}/api`, issued: page.issued })}`,
  });
}

function scopeList(scopes: readonly Scope[]): SafeHtml {
  if (scopes.length === 0) return html`<span class="hint">Nothing beyond signing in</span>`;
  return html`<ul class="scopes">${scopes.map((scope) => html`<li>${scopeWords.get(scope) ?? scope}</li>`)}</ul>`;
}

function returnsTo(app: ConnectedApp): SafeHtml {
  if (app.redirectUris.length === 0) return html`<span class="hint">Not recorded</span>`;
  return html`<ul class="plain">${app.redirectUris.map((uri) => html`<li><code>${uri}</code></li>`)}</ul>`;
}

/**
 * One grant as a card rather than a table row, so that it fits a phone: two grants of the same app differ
 * in when they were connected, where the app returns to, its client id and what each allows.
 */
function appCard(app: ConnectedApp, csrfToken: string, timeZone: string): SafeHtml {
  const headingId = `grant-${app.grantId}`;
  return html`<li aria-labelledby="${headingId}">
<h2 id="${headingId}">${app.clientName}</h2>
<dl>
<dt>Connected</dt><dd><time datetime="${app.connectedAt}">${formatTime(app.connectedAt, timeZone)}</time></dd>
<dt>Last used</dt><dd>${app.lastUsedAt === null ? 'never' : html`<time datetime="${app.lastUsedAt}">${formatTime(app.lastUsedAt, timeZone)}</time>`}</dd>
<dt>Returns to</dt><dd>${returnsTo(app)}</dd>
<dt>Client id</dt><dd><code>${app.clientId}</code></dd>
<dt>Allowed to</dt><dd>${scopeList(app.scopes)}</dd>
</dl>
<form method="post" action="/settings/apps/${encodeURIComponent(app.grantId)}/disconnect">${csrfField(csrfToken)}<button class="danger" type="submit" aria-describedby="${headingId}">Disconnect</button></form>
</li>`;
}

/**
 * The connected-assistants page: every grant the user approved, newest first, each with a Disconnect
 * button.
 */
export function renderConnectedAppsPage(page: {
  profile: UserProfile;
  apps: readonly ConnectedApp[];
  csrfToken: string;
  served: ServedPages;
  notice?: string | undefined;
}): string {
  const { profile, apps } = page;
  const timeZone = profile.account.timeZone;
  const ownerOnly =
    profile.role === 'owner'
      ? null
      : html`<p class="hint">Assistants connect through the account owner's sign-in only. As a team member, use your auth token with the REST API instead.</p>`;
  const list =
    apps.length === 0
      ? html`<p>No assistants are connected. When you approve one (Claude, ChatGPT, Cursor and others), it appears here.</p>`
      : html`<ul class="grants">
${apps.map((app) => appCard(app, page.csrfToken, timeZone))}
</ul>`;
  return renderPage({
    title: 'Connected assistants',
    signedInAs: profile.email,
    navigation: signedInNavigation({ served: page.served, csrfToken: page.csrfToken, current: 'apps' }),
    body: html`<h1>Connected assistants</h1>
${page.notice === undefined ? null : html`<p class="notice" role="status">${page.notice}</p>`}
<section>
<p>These assistants can use your Innkeep account within what you allowed, newest connection first. An app connected twice (from two devices, say) shows twice. Disconnecting one ends its access at once, on every device.</p>
${ownerOnly}
</section>
${list}`,
  });
}
