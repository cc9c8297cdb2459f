import { html, type SafeHtml } from './html.ts';

/** What the sign-in form shows and where it posts. */
export interface LoginFormOptions {
  /** Where the form posts, e.g. `/login?next=%2Fsettings` or an OAuth interaction URL. */
  readonly action: string;
  /** The `csrf` value for the person's `ik_csrf` cookie (see `csrfTokenFor`). */
  readonly csrfToken: string;
  /** Email to fill in again after a failed attempt. */
  readonly email?: string | undefined;
  /** Why the last attempt failed, shown above the fields. */
  readonly error?: string | undefined;
  /** Neutral information, e.g. "You are signed out." */
  readonly notice?: string | undefined;
}

/**
 * The sign-in form (fields `email` and `password`, hidden `csrf`, a "Sign in" button), without a page
 * around it, so the account pages and the OAuth interaction pages show the same form.
 */
export function renderLoginForm(options: LoginFormOptions): SafeHtml {
  return html`<form class="card" method="post" action="${options.action}">
${options.notice === undefined ? null : html`<p class="notice" role="status">${options.notice}</p>`}
${options.error === undefined ? null : html`<p class="error" role="alert">${options.error}</p>`}
<input type="hidden" name="csrf" value="${options.csrfToken}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required maxlength="254" value="${options.email ?? ''}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="256">
<button type="submit">Sign in</button>
</form>`;
}
