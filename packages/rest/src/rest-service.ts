import compress from '@fastify/compress';
import {
  type AuthDatabase,
  type AuthNotifications,
  type CredentialLookups,
  createAccessTokenVerifier,
  createCachedCredentialLookups,
  resourceUrl,
} from '@innkeep/auth';
import type { Clock, InnkeepDomain } from '@innkeep/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import { restApi } from './rest-api.ts';
import { restRoutes } from './route-catalogue.ts';

/** What {@link restService} composes /api from. */
export interface RestServiceOptions {
  /** The authorization server's tables (`withAuthTables` of the account database), where Bearer tokens are checked. */
  readonly db: Kysely<AuthDatabase>;
  /** What the operations run on: the same domain /mcp uses. */
  readonly domain: InnkeepDomain;
  /** Looks up authTokens and apiKeys (the account model's identity use cases). */
  readonly identity: CredentialLookups;
  readonly clock: Clock;
  /** The deployment's BASE_URL: Bearer tokens must be bound to `${baseUrl}/api`, or to `${baseUrl}` itself. */
  readonly baseUrl: string;
  readonly redis?: Redis | undefined;
  /** Requests a minute per credential, without and with a partner apiKey (REST_RATE_LIMIT, REST_PARTNER_RATE_LIMIT). */
  readonly rateLimits?: { readonly perCredential: number; readonly withApiKey: number } | undefined;
  /**
   * Where this instance hears that a grant, a user's role, token or subscription, or an apiKey changed.
   * With it, credential checks are cached per instance and such a change drops them at once; without it
   * (PGlite), every request checks its credential in the database.
   */
  readonly authNotifications?: AuthNotifications | undefined;
  /** Told of every request refused for going over the rate limit, for the metrics. */
  readonly onRateLimited?: ((request: FastifyRequest) => void) | undefined;
}

const compressAboveBytes = 1024;

/**
 * /api as every Innkeep app serves it: the Bearer token verifier of `${baseUrl}/api` and the authToken and
 * apiKey lookups (cached where notifications reach every instance; closed with the app), and `restApi`
 * with every route of the catalogue, failures logged with the reference id the caller is shown; answers over
 * 1 KB compressed (gzip, deflate or brotli) for clients that accept it. One composition, so the full server
 * and the REST-only app cannot drift.
 */
export async function restService(app: FastifyInstance, options: RestServiceOptions): Promise<void> {
  const cache =
    options.authNotifications === undefined
      ? undefined
      : {
          notifications: options.authNotifications,
          onBackgroundError: (error: unknown) =>
            app.log.warn({ err: error }, 'Could not record when a connected app last used its access'),
        };
  const verifier = createAccessTokenVerifier({
    db: options.db,
    resource: resourceUrl(options.baseUrl, 'api'),
    clock: options.clock,
    cache,
  });
  const cachedIdentity =
    cache === undefined ? undefined : createCachedCredentialLookups(options.identity, cache, options.clock);
  app.addHook('onClose', async () => {
    await verifier.close();
    await cachedIdentity?.close();
  });
  // Lists of reservations and the OpenAPI document run to hundreds of kilobytes; a client that accepts a
  // compressed answer gets one.
  await app.register(compress, { threshold: compressAboveBytes });
  await app.register(restApi, {
    routes: restRoutes,
    domain: options.domain,
    identity: cachedIdentity ?? options.identity,
    verifier,
    clock: options.clock,
    baseUrl: options.baseUrl,
    redis: options.redis,
    rateLimits: options.rateLimits,
    report: (reference, cause) =>
      app.log.error({ err: cause, reference }, 'A REST request failed unexpectedly'),
    onRateLimited: options.onRateLimited,
  });
}
