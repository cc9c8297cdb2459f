import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isSpecialUseAddress } from '@innkeep/domain';
import { type Configuration, errors } from 'oidc-provider';
import { redirectUrisProblem } from './client-registration.ts';

/**
 * How the authorization server fetches Client ID Metadata Documents (MCP 2025-11-25, Client ID Metadata
 * Documents): a client whose `client_id` is an https URL is described by the JSON document at that URL,
 * without registering first. Deployments keep the defaults; only tests change them.
 */
export interface ClientIdMetadataDocumentOptions {
  /**
   * Fetches the documents. Default: the global fetch, through oidc-provider's own dispatcher, which also
   * drops connections to special-use addresses once connected. Tests pass one that trusts the certificate
   * authority of their local https server.
   */
  readonly fetch?: typeof globalThis.fetch | undefined;
  /**
   * Fetch from loopback, private, link-local and other special-use addresses too. For tests only (their
   * document server listens on 127.0.0.1); default false.
   */
  readonly allowPrivateAddresses?: boolean | undefined;
}

/** The largest document read, in bytes (real ones are well under 1 KB); oidc-provider stops reading past it. */
const maxClientIdMetadataDocumentBytes = 5 * 1024;

/** What {@link clientIdMetadataDocumentSettings} adds to the provider's configuration. */
export interface ClientIdMetadataDocumentSettings {
  readonly feature: NonNullable<NonNullable<Configuration['features']>['clientIdMetadataDocument']>;
  readonly fetch: NonNullable<Configuration['fetch']>;
  readonly fetchResponseBodyLimits: NonNullable<Configuration['fetchResponseBodyLimits']>;
}

/**
 * oidc-provider's experimental `clientIdMetadataDocument` feature, turned on (discovery then says
 * `client_id_metadata_document_supported: true`), with what Innkeep adds to it:
 *
 * - The provider already fetches only https URLs without fragments or credentials, within 2.5 s, refuses
 *   a document whose `client_id` is not the URL it came from or that holds a client secret, and caches
 *   documents per instance. Here the body limit is pinned at 5 KB.
 * - Every fetch it makes (the document, and any URL a document names) goes through {@link guardedFetch}:
 *   https only, and a host that resolves to a special-use address is refused before connecting. The
 *   provider's dispatcher checks the address again on connect, which also defeats DNS rebinding; this
 *   check makes the refusal hold where that dispatcher could not be set up, and under any `fetch`.
 * - A URL whose fetch failed (refused, unreachable, too slow, not 200) is not fetched again for 30 s: the
 *   provider asks twice when a document cannot be had (once more while answering the error), and anyone
 *   can send authorization requests naming any URL, so each would otherwise cost two fetches.
 * - A document's redirect URIs meet the same rules as a dynamic registration's (no dangerous schemes, http
 *   only on loopback, at most ten), checked each time the client is used.
 */
export function clientIdMetadataDocumentSettings(
  options: ClientIdMetadataDocumentOptions = {},
): ClientIdMetadataDocumentSettings {
  const baseFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  return {
    feature: {
      enabled: true,
      // The feature is experimental: the provider refuses to start once its draft changes, rather than
      // silently behave differently.
      ack: 'draft-02',
      allowClient(_ctx, client) {
        const problem = redirectUrisProblem(client.redirectUris);
        if (problem !== undefined) {
          throw new errors.InvalidClientMetadata(`The client's metadata document is refused: ${problem}`);
        }
        return true;
      },
    },
    fetch: rememberingFailures(guardedFetch(baseFetch, options.allowPrivateAddresses ?? false)),
    fetchResponseBodyLimits: { 'client_id metadata document': maxClientIdMetadataDocumentBytes },
  };
}

type Fetch = NonNullable<Configuration['fetch']>;

/** How long a failed fetch is remembered, in ms: the provider's shortest cache time for documents. */
const failureMemoryMs = 30_000;
/** The most failed URLs remembered at once; past it the oldest are forgotten first. */
const maxRememberedFailures = 1_000;

/** `fetch` that fails at once, for {@link failureMemoryMs}, for a URL whose last fetch failed. */
function rememberingFailures(fetch: Fetch): Fetch {
  const failedUntil = new Map<string, { readonly until: number; readonly reason: string }>();
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const failed = failedUntil.get(url);
    if (failed !== undefined && failed.until > Date.now()) {
      throw new Error(`The last fetch of ${url} failed moments ago (${failed.reason}); not asking again yet`);
    }
    failedUntil.delete(url);
    const remember = (reason: string) => {
      failedUntil.set(url, { until: Date.now() + failureMemoryMs, reason });
      for (const oldest of failedUntil.keys()) {
        if (failedUntil.size <= maxRememberedFailures) break;
        failedUntil.delete(oldest);
      }
    };
    let response: Response;
    try {
      response = await fetch(input, init);
    } catch (error) {
      remember(error instanceof Error ? error.message : String(error));
      throw error;
    }
    if (response.status !== 200) remember(`status ${response.status}`);
    return response;
  };
}

/** `baseFetch` for https URLs whose host resolves only to public addresses (any, with `allowPrivateAddresses`). */
function guardedFetch(baseFetch: Fetch, allowPrivateAddresses: boolean): Fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input);
    if (url.protocol !== 'https:') {
      throw new Error(`Innkeep fetches client metadata over https only, not from ${url.href}`);
    }
    if (!allowPrivateAddresses) {
      const refused = (await resolvedAddresses(url.hostname, init?.signal)).find(isSpecialUseAddress);
      if (refused !== undefined) {
        throw new Error(
          `${url.hostname} resolves to ${refused}, a loopback, private or otherwise special-use address, which Innkeep does not fetch from`,
        );
      }
    }
    return baseFetch(input, init);
  };
}

/** The addresses `hostname` (an IP literal, bracketed for IPv6, or a name) stands for; within `signal`. */
async function resolvedAddresses(hostname: string, signal?: AbortSignal | null): Promise<string[]> {
  const literal = hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(literal) !== 0) return [literal];
  const resolving = lookup(literal, { all: true, verbatim: true });
  if (signal === undefined || signal === null) return (await resolving).map((entry) => entry.address);
  signal.throwIfAborted();
  const aborted = new Promise<never>((_resolve, reject) => {
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
  return (await Promise.race([resolving, aborted])).map((entry) => entry.address);
}
