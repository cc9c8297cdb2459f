import { allScopes } from '@innkeep/domain';

/** The most redirect URIs one client may register; real clients use one to three. */
export const maxRedirectUris = 10;
/** The longest URL accepted in client metadata. */
export const maxMetadataUrlLength = 2000;
/** The longest registration body read, in bytes; oidc-provider's own cap is 56 KiB. */
export const maxRegistrationBodyBytes = 16 * 1024;

const maxClientNameLength = 200;
const maxContacts = 10;
const maxContactLength = 254;
const maxMetadataFields = 40;

// Hosts RFC 8252 §7.3 calls loopback; a browser reaches them only on the person's own machine.
const loopbackHosts: ReadonlySet<string> = new Set(['127.0.0.1', '[::1]', 'localhost']);
// Schemes that run code, read local data or are not a place to send a browser back to.
const forbiddenSchemes: ReadonlySet<string> = new Set([
  'javascript',
  'vbscript',
  'data',
  'blob',
  'file',
  'filesystem',
  'about',
  'view-source',
  'ws',
  'wss',
  'ftp',
  'mailto',
  'tel',
  'sms',
]);
// Metadata oidc-provider would fetch from the given URL at registration or later (server-side requests
// to addresses a stranger chose). Innkeep uses none of the features behind them, so they are dropped.
const fetchedMetadata = ['sector_identifier_uri', 'jwks_uri', 'request_uris'] as const;
const webPageMetadata = ['client_uri', 'logo_uri', 'tos_uri', 'policy_uri'] as const;

/**
 * The client metadata field that keeps a client's registered `scope` (the Innkeep scopes it named, Host
 * Tools names translated). oidc-provider checks `scope` itself against its static scopes only, which hold
 * none of Innkeep's, so the value lives under this name; the provider bounds what the client may be
 * granted by it (see createOidcProvider).
 */
export const registeredScopeField = 'registered_scope';

// Host Tools clients ask for some scopes by their Host Tools names (PRODUCT.md, Bearer tokens).
const hostToolsScopeNames: Readonly<Record<string, string>> = {
  'messaging:read': 'messages:read',
  'messaging:write': 'messages:write',
  'webhooks:read': 'webhooks:manage',
  'webhooks:write': 'webhooks:manage',
};

/** A registration the provider may process, or the RFC 7591 error to answer with. */
export type RegistrationCheck =
  | { readonly ok: true; readonly metadata: Record<string, unknown> }
  | {
      readonly ok: false;
      readonly error: 'invalid_client_metadata' | 'invalid_redirect_uri';
      readonly description: string;
    };

/**
 * Checks and normalises a dynamic client registration body (RFC 7591) before oidc-provider sees it.
 *
 * Refuses what the provider would accept but should not: dangerous or non-loopback `http:` redirect URIs,
 * too many or absurdly long values. Then it fills the gaps MCP clients leave:
 * - custom-scheme and loopback `http:` redirects make the client `native`: the only type that allows
 *   custom schemes, and the one oidc-provider matches loopback redirects for on any port (RFC 8252 §7.3);
 * - a missing `token_endpoint_auth_method` means a public client (`none`), which gets no secret;
 * - the Innkeep scopes named in `scope` move to {@link registeredScopeField} (the provider would refuse
 *   them under `scope`), where they bound what the client may ask for; other names are dropped.
 */
export function checkClientRegistration(body: unknown): RegistrationCheck {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return metadataError('The registration body must be a JSON object of client metadata.');
  }
  const metadata: Record<string, unknown> = { ...body };
  if (Object.keys(metadata).length > maxMetadataFields) {
    return metadataError(`Send at most ${maxMetadataFields} metadata fields.`);
  }

  const redirectProblem = redirectUrisProblem(metadata.redirect_uris);
  if (redirectProblem !== undefined) return redirectError(redirectProblem);
  const redirectUris = metadata.redirect_uris as string[];

  const problem = checkOtherMetadata(metadata);
  if (problem !== undefined) return metadataError(problem);

  for (const field of fetchedMetadata) delete metadata[field];
  const registeredScope = innkeepScopes(metadata.scope);
  delete metadata.scope;
  delete metadata[registeredScopeField];
  if (registeredScope.length > 0) metadata[registeredScopeField] = registeredScope.join(' ');
  // Every non-https redirect is a custom scheme or loopback http (others were refused above).
  if (metadata.application_type === undefined && redirectUris.some((uri) => !/^https:/i.test(uri))) {
    metadata.application_type = 'native';
  }
  metadata.token_endpoint_auth_method ??= 'none';
  return { ok: true, metadata };
}

/** The Innkeep scopes a registered `scope` names, Host Tools names translated, in catalogue order. */
function innkeepScopes(scope: unknown): readonly string[] {
  if (typeof scope !== 'string') return [];
  const named = new Set(scope.split(' ').map((name) => hostToolsScopeNames[name] ?? name));
  return allScopes.filter((name) => named.has(name));
}

/**
 * Why `value` is not an acceptable list of redirect URIs (one to {@link maxRedirectUris} absolute URLs, no
 * fragments, no dangerous schemes, http only on loopback), or undefined when it is. Applies to dynamic
 * registrations and to Client ID Metadata Documents alike.
 */
export function redirectUrisProblem(value: unknown): string | undefined {
  if (!Array.isArray(value) || value.length === 0) {
    return 'redirect_uris is required: a list of the URLs the authorization response may go to.';
  }
  if (value.length > maxRedirectUris) return `Register at most ${maxRedirectUris} redirect_uris.`;
  for (const uri of value) {
    const problem = redirectUriProblem(uri);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function redirectUriProblem(uri: unknown): string | undefined {
  if (typeof uri !== 'string') return 'Every redirect URI must be a string.';
  if (uri.length > maxMetadataUrlLength) {
    return `Redirect URIs may be at most ${maxMetadataUrlLength} characters long.`;
  }
  const url = URL.parse(uri);
  if (url === null) return `The redirect URI ${quote(uri)} is not an absolute URL.`;
  if (url.hash !== '' || uri.includes('#')) return `The redirect URI ${quote(uri)} must not have a fragment.`;
  const scheme = url.protocol.slice(0, -1);
  if (forbiddenSchemes.has(scheme)) return `Redirect URIs must not use the ${scheme}: scheme.`;
  if (scheme === 'http' && !loopbackHosts.has(url.hostname)) {
    return (
      `The redirect URI ${quote(uri)} uses http on a host other than this computer; ` +
      'use https, or http only on 127.0.0.1, [::1] or localhost.'
    );
  }
  if ((scheme === 'http' || scheme === 'https') && url.hostname === '') {
    return `The redirect URI ${quote(uri)} has no host.`;
  }
  return undefined;
}

function checkOtherMetadata(metadata: Record<string, unknown>): string | undefined {
  for (const [field, value] of Object.entries(metadata)) {
    if (typeof value === 'string' && value.length > maxMetadataUrlLength) {
      return `${field} may be at most ${maxMetadataUrlLength} characters long.`;
    }
  }
  const name = metadata.client_name;
  if (name !== undefined) {
    if (typeof name !== 'string' || name.trim().length === 0)
      return 'client_name must be a non-empty string.';
    if (name.length > maxClientNameLength) {
      return `client_name may be at most ${maxClientNameLength} characters long.`;
    }
    // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point.
    if (/[\u0000-\u001f\u007f]/.test(name)) return 'client_name must not contain control characters.';
  }
  for (const field of webPageMetadata) {
    const value = metadata[field];
    if (value === undefined) continue;
    if (typeof value !== 'string' || URL.parse(value)?.protocol !== 'https:') {
      return `${field} must be an https URL.`;
    }
  }
  const contacts = metadata.contacts;
  if (contacts !== undefined) {
    if (
      !Array.isArray(contacts) ||
      contacts.length > maxContacts ||
      contacts.some((contact) => typeof contact !== 'string' || contact.length > maxContactLength)
    ) {
      return `contacts must be a list of at most ${maxContacts} email addresses.`;
    }
  }
  return undefined;
}

function quote(uri: string): string {
  return JSON.stringify(uri.length > 100 ? `${uri.slice(0, 100)}…` : uri);
}

function metadataError(description: string): RegistrationCheck {
  return { ok: false, error: 'invalid_client_metadata', description };
}

function redirectError(description: string): RegistrationCheck {
  return { ok: false, error: 'invalid_redirect_uri', description };
}
