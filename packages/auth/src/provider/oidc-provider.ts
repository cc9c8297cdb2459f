import {
  allScopes,
  assistantAccessLifetimes,
  type Clock,
  type IdentityUseCases,
  isScope,
} from '@innkeep/domain';
import type { Kysely } from 'kysely';
import Provider, {
  type Client,
  type Configuration,
  errors,
  interactionPolicy,
  type KoaContextWithOIDC,
} from 'oidc-provider';
import { renderProviderErrorPage } from '../interactions/pages.ts';
import type { ConsentStore } from '../postgres/consents.ts';
import type { AuthDatabase } from '../postgres/database.ts';
import { createOidcAdapter } from '../postgres/oidc-adapter.ts';
import {
  type ClientIdMetadataDocumentOptions,
  clientIdMetadataDocumentSettings,
} from './client-id-metadata-document.ts';
import { registeredScopeField } from './client-registration.ts';
import {
  canonicalResource,
  openIdScopes,
  type ResourceScopes,
  resourceNames,
  resourceUrl,
  scopesUsedAt,
} from './resource.ts';
import type { SigningKey } from './signing-keys.ts';

/**
 * Lifetimes, in seconds (seed §5.2: access 1 h, refresh 30 days). Those the help centre tells hosts come from
 * the domain's `assistantAccessLifetimes`, so the copy and the provider cannot disagree.
 */
export const tokenLifetimes = {
  accessToken: assistantAccessLifetimes.accessTokenSeconds,
  authorizationCode: 60,
  refreshToken: assistantAccessLifetimes.refreshTokenDays * 86_400,
  // A grant outlives every refresh token issued under it; the provider refuses refreshes past it.
  grant: assistantAccessLifetimes.grantDays * 86_400,
  session: 14 * 86_400,
  interaction: 3600,
  idToken: 3600,
} as const;

/** Seconds a rotated refresh token still works, unless configured otherwise. */
export const defaultRefreshTokenGraceSeconds = 60;

/** What {@link createOidcProvider} needs. */
export interface OidcProviderOptions {
  readonly db: Kysely<AuthDatabase>;
  /** The issuer and public address, without a trailing slash. */
  readonly baseUrl: string;
  /** Cookie signing keys: the first signs, all verify. */
  readonly secretKeys: readonly string[];
  /** Private RS256 keys for ID tokens, the same on every instance; the first signs. */
  readonly signingKeys: readonly SigningKey[];
  readonly identity: Pick<IdentityUseCases, 'findPrincipal'>;
  readonly consents: ConsentStore;
  readonly clock: Clock;
  readonly refreshTokenGraceSeconds: number;
  /** The scopes each resource uses: consent offers, and tokens carry, no other for it. */
  readonly resourceScopes: ResourceScopes;
  /** When the sign-in and consent pages are shown; oidc-provider's base policy unless given. */
  readonly interactionPolicy?: interactionPolicy.DefaultPolicy | undefined;
  /** How Client ID Metadata Documents are fetched; the defaults unless given (tests only). */
  readonly clientIdMetadataDocuments?: ClientIdMetadataDocumentOptions | undefined;
}

/**
 * Innkeep's oidc-provider: issuer = BASE_URL, every route under `/oauth/*`, opaque access tokens bound to
 * `${BASE_URL}/mcp` or `${BASE_URL}/api` (or to `${BASE_URL}`, valid on both, when no resource was named),
 * rotating refresh tokens, open dynamic registration, PKCE S256 for every client, and all state in
 * PostgreSQL. Several oidc-provider defaults break real MCP clients or are unsafe for us; each
 * override below says which.
 */
export function createOidcProvider(options: OidcProviderOptions): Provider {
  const resources = resourceNames.map((name) => resourceUrl(options.baseUrl, name));
  const everyResource = options.baseUrl.replace(/\/+$/, '');
  const basePath = new URL(options.baseUrl).pathname.replace(/\/+$/, '');
  const metadataDocuments = clientIdMetadataDocumentSettings(options.clientIdMetadataDocuments);

  const configuration: Configuration = {
    adapter: createOidcAdapter({
      db: options.db,
      clock: options.clock,
      refreshTokenGraceSeconds: options.refreshTokenGraceSeconds,
      secretKeys: options.secretKeys,
    }),
    jwks: { keys: options.signingKeys.map((key) => ({ ...key })) },
    cookies: {
      keys: [...options.secretKeys],
      long: { signed: true, httpOnly: true, sameSite: 'lax' },
      short: { signed: true, httpOnly: true, sameSite: 'lax' },
    },
    async findAccount(_ctx, sub) {
      const principal = await options.identity.findPrincipal(sub);
      if (principal === null) return undefined;
      return { accountId: sub, role: principal.role, claims: () => ({ sub }) };
    },
    // Resource scopes live only on the resource server below; as static scopes they would be checked
    // against DCR `scope` and dropped from grants in confusing ways.
    scopes: [...openIdScopes],
    routes: {
      authorization: '/oauth/authorize',
      token: '/oauth/token',
      registration: '/oauth/register',
      revocation: '/oauth/token/revoke',
      jwks: '/oauth/jwks',
      userinfo: '/oauth/userinfo',
      introspection: '/oauth/token/introspect',
      end_session: '/oauth/session/end',
      pushed_authorization_request: '/oauth/par',
      code_verification: '/oauth/device',
      device_authorization: '/oauth/device/auth',
      backchannel_authentication: '/oauth/backchannel',
      challenge: '/oauth/challenge',
      credential: '/oauth/credential',
    },
    interactions: {
      url: (_ctx, interaction) => `${basePath}/oauth/interaction/${interaction.uid}`,
      policy: options.interactionPolicy ?? interactionPolicy.base(),
    },
    features: {
      // On by default and accepts any password: never in Innkeep.
      devInteractions: { enabled: false },
      registration: { enabled: true, initialAccessToken: false, issueRegistrationAccessToken: false },
      // A client may revoke only its own tokens; for anyone else's the request succeeds and does nothing.
      revocation: {
        enabled: true,
        allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId,
      },
      userinfo: { enabled: false },
      introspection: { enabled: false },
      dPoP: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      // A client may name itself by the https URL of its metadata document instead of registering
      // (MCP 2025-11-25 prefers it to dynamic registration); see clientIdMetadataDocumentSettings.
      clientIdMetadataDocument: metadataDocuments.feature,
      resourceIndicators: {
        enabled: true,
        // An authorization that names no resource (older clients, Host Tools integrations) is granted for
        // every resource, and for BASE_URL standing for all of them. Its token exchange may then narrow
        // to one resource by naming it; naming none gets a token bound to BASE_URL, which both resource
        // servers accept (PRODUCT.md, Bearer tokens). Several requested elsewhere: the first.
        defaultResource: (_ctx, _client, oneOf) => {
          if (oneOf === undefined) return [everyResource, ...resources];
          return oneOf.includes(everyResource) ? everyResource : (oneOf[0] ?? everyResource);
        },
        useGrantedResource: () => true,
        getResourceServerInfo(ctx, indicator, client) {
          const audience = canonicalResource(indicator);
          // BASE_URL itself is the audience of a token asked for with no resource (see defaultResource);
          // oidc-provider puts that default in the request, so a client naming BASE_URL gets the same.
          const used = scopesUsedAt(options.baseUrl, audience, options.resourceScopes);
          if (used === undefined) {
            throw new errors.InvalidTarget(
              `This server issues tokens only for the resources ${resources.join(' and ')}.`,
            );
          }
          // A client that registered `scope` can ask for, and be granted, no more than that; without a
          // `scope` parameter it asks for exactly that (PRODUCT.md, Bearer tokens). Except on /mcp alone:
          // MCP clients register the scope they want first and widen it when a call needs more (step-up,
          // MCP 2025-11-25 "Scope Challenge Handling"), so there it is where they start, not a bound.
          const mcpOnly =
            audience === resourceUrl(options.baseUrl, 'mcp') &&
            !requestedResources(ctx).includes(everyResource);
          const registered = (mcpOnly ? undefined : registeredScopes(client)) ?? allScopes;
          // A scope the resource never uses is neither offered on the consent page nor granted: the
          // provider asks for, and puts in tokens, only scopes of this list.
          const allowed = used.filter((scope) => registered.includes(scope));
          assertSomeAllowedScope(ctx, allowed);
          return {
            scope: allowed.join(' '),
            audience,
            accessTokenFormat: 'opaque',
            accessTokenTTL: tokenLifetimes.accessToken,
          };
        },
      },
    },
    extraClientMetadata: {
      properties: [registeredScopeField],
      validator(_ctx, key, value) {
        if (key !== registeredScopeField || value === undefined) return;
        if (typeof value !== 'string' || !value.split(' ').every((name) => isScope(name))) {
          throw new errors.InvalidClientMetadata(`${registeredScopeField} must name Innkeep scopes only`);
        }
      },
    },
    fetch: metadataDocuments.fetch,
    fetchResponseBodyLimits: metadataDocuments.fetchResponseBodyLimits,
    pkce: { required: () => true },
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    },
    clientAuthMethods: ['none', 'client_secret_basic', 'client_secret_post'],
    responseTypes: ['code'],
    ttl: {
      AccessToken: tokenLifetimes.accessToken,
      AuthorizationCode: tokenLifetimes.authorizationCode,
      RefreshToken: tokenLifetimes.refreshToken,
      Grant: tokenLifetimes.grant,
      Session: tokenLifetimes.session,
      Interaction: tokenLifetimes.interaction,
      IdToken: tokenLifetimes.idToken,
    },
    // Refresh tokens without `offline_access`: MCP clients rarely ask for it and all expect one.
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    // Tokens must not die with the browser session at the authorization server.
    expiresWithSession: () => false,
    loadExistingGrant: (ctx) => loadRememberedGrant(ctx, options.consents),
    // Public clients have no secret to protect, so any browser origin may use their token endpoint (PKCE
    // still binds the code); a confidential client only from its own redirect origins. Never `null`.
    clientBasedCORS: (_ctx, origin, client) =>
      origin !== 'null' &&
      (client.clientAuthMethod === 'none' ||
        (client.redirectUris ?? []).some((uri) => URL.parse(uri)?.origin === origin)),
    renderError(ctx, out) {
      ctx.type = 'html';
      ctx.set('cache-control', 'no-store');
      for (const [name, value] of Object.entries(providerPageHeaders)) ctx.set(name, value);
      ctx.body = renderProviderErrorPage(out);
    },
  };

  const provider = new Provider(options.baseUrl, configuration);
  // The Fastify hand-off overwrites X-Forwarded-Proto and -Host with BASE_URL's and drops X-Forwarded-For
  // unless the deployment trusts its proxy, so these headers are ours, never the client's.
  provider.proxy = true;

  // Discovery lists only static scopes; clients pick what to ask for from scopes_supported, which names
  // the scopes some resource uses, as the resources' own metadata do.
  const usedScopes = scopesUsedAt(options.baseUrl, everyResource, options.resourceScopes) ?? [];
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.oidc?.route === 'discovery' && ctx.status === 200 && isRecord(ctx.body)) {
      ctx.body.scopes_supported = [...openIdScopes, ...usedScopes];
    }
  });
  return provider;
}

// The provider renders its own HTML only for errors it cannot send back to the client; those pages get
// the same protections as Innkeep's other pages (no scripts, no framing, no referrer leaks).
const providerPageHeaders: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

/**
 * A request naming only scopes this client may not have (unknown here, or outside its registered
 * `scope`) would end in a bare `access_denied` after the person signed in. Saying `invalid_scope` at
 * once tells the client what went wrong.
 */
function assertSomeAllowedScope(ctx: KoaContextWithOIDC, allowed: readonly string[]): void {
  if (ctx.oidc.route !== 'authorization') return;
  const requested = [...ctx.oidc.requestParamScopes];
  if (requested.length === 0) return;
  const permitted = new Set<string>([...openIdScopes, ...allowed]);
  if (!requested.some((scope) => permitted.has(scope))) {
    throw new errors.InvalidScope(
      `None of the requested scopes is available to this client. Ask for some of: ${allowed.join(' ')}.`,
      requested.join(' '),
    );
  }
}

/** The resources the request names, canonical; with none named, oidc-provider has put the default there. */
function requestedResources(ctx: KoaContextWithOIDC): string[] {
  const named = ctx.oidc.params?.resource;
  return (Array.isArray(named) ? named : [named])
    .filter((value) => typeof value === 'string')
    .map(canonicalResource);
}

/** The scopes `client` registered, or undefined when it registered none (it may then ask for any). */
function registeredScopes(client: Client): readonly string[] | undefined {
  const registered = client.metadata()[registeredScopeField];
  return typeof registered === 'string' ? registered.split(' ') : undefined;
}

/**
 * The grant an authorization continues: the one just approved on the consent page, else the one the owner
 * asked to remember for this client (on any device, any instance). Undefined sends the person to consent.
 */
async function loadRememberedGrant(ctx: KoaContextWithOIDC, consents: ConsentStore) {
  const { oidc } = ctx;
  const accountId = oidc.session?.accountId;
  const clientId = oidc.client?.clientId;
  if (accountId === undefined || clientId === undefined) return undefined;
  const justApproved = oidc.result?.consent?.grantId;
  // A remembered decision stands only while the user is still the owner; a demoted user sees consent,
  // which explains that assistants connect to the owner's login.
  if (justApproved === undefined && oidc.account?.role !== 'owner') return undefined;
  const grantId = justApproved ?? (await consents.rememberedGrantId(accountId, clientId));
  if (grantId === undefined) return undefined;
  const grant = await oidc.provider.Grant.find(grantId);
  // The provider throws (500) on a grant of another account or client, so those count as "none".
  return grant?.accountId === accountId && grant.clientId === clientId ? grant : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
