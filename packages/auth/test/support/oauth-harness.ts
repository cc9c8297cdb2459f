import { randomBytes } from 'node:crypto';
import type { Clock, IdentityUseCases, OperatorUseCases } from '@innkeep/domain';
import { createIdentityUseCases, createOperatorUseCases } from '@innkeep/storage';
import type { TestDatabaseKind } from '@innkeep/storage/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import { withAuthTables } from '../../src/postgres/auth-database.ts';
import type { AuthDatabase } from '../../src/postgres/database.ts';
import { authorizationServer } from '../../src/provider/authorization-server.ts';
import type { ClientIdMetadataDocumentOptions } from '../../src/provider/client-id-metadata-document.ts';
import { type ResourceName, resourceUrl } from '../../src/provider/resource.ts';
import { generateSigningKey, type SigningKey } from '../../src/provider/signing-keys.ts';
import { createAccessTokenVerifier } from '../../src/resource-server/access-token-verifier.ts';
import { resourceServer } from '../../src/resource-server/resource-server.ts';
import {
  authorizeInBrowser,
  authorizeUrl,
  Browser,
  type ConsentChoice,
  openAuthTestDatabase,
  pkcePair,
  type RegisteredClient,
  registerClient,
  tokenRequest,
} from '../../src/testing.ts';

// The browser and form helpers live in src/testing.ts so other packages' tests can run the real flow too;
// the tests here keep importing them from this harness.
export {
  type AuthorizationOutcome,
  authorizeInBrowser,
  authorizeUrl,
  Browser,
  type ConsentChoice,
  CookieJar,
  denyActionOf,
  formOf,
  offeredScopes,
  pkcePair,
  type RegisteredClient,
  registerClient,
  tokenRequest,
} from '../../src/testing.ts';

import { freePort } from '../../src/free-port.ts';

/** A TCP port nothing listens on right now (re-exported for this package's tests). */
export { freePort };

/** Cookie keys for the test servers (at least 32 characters each). */
export const oauthSecretKeys = ['oauth-test-key-0123456789abcdefghijklmnop'];

/** One RSA key for every test server of a file: generating one costs ~100 ms. */
let sharedSigningKey: SigningKey | undefined;
export function testSigningKey(): SigningKey {
  sharedSigningKey ??= generateSigningKey();
  return sharedSigningKey;
}

/** A clock that runs with real time, plus whatever the test has added. */
export interface ShiftableClock extends Clock {
  advance(ms: number): void;
}

/**
 * Real time plus an offset. oidc-provider checks expiry against the machine's clock, so the adapter's
 * clock must start at real time; tests move it forward to step past grace windows and lifetimes.
 */
export function createShiftableClock(): ShiftableClock {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    advance(ms) {
      offset += ms;
    },
  };
}

/** A database with the use cases and a clock, shared by the servers of one test file. */
export interface OauthWorld {
  readonly db: Kysely<AuthDatabase>;
  readonly clock: ShiftableClock;
  readonly identity: IdentityUseCases;
  readonly operator: OperatorUseCases;
  /** Set for PostgreSQL. */
  readonly url: string | undefined;
  close(): Promise<void>;
}

/** Opens a private, migrated database of `kind`. */
export async function openOauthWorld(kind: TestDatabaseKind): Promise<OauthWorld> {
  const handle = await openAuthTestDatabase(kind);
  const db: Kysely<AuthDatabase> = withAuthTables(handle.db);
  const clock = createShiftableClock();
  return {
    db,
    clock,
    identity: createIdentityUseCases({ db, clock }),
    operator: createOperatorUseCases({ db, clock }),
    url: handle.url,
    close: () => handle.close(),
  };
}

/** A person who can sign in. */
export interface TestUser {
  readonly email: string;
  readonly password: string;
  readonly userId: string;
  readonly accountId: string;
}

let userCounter = 0;

/** Creates an account whose owner signs in with the returned email and password. */
export async function createOwner(world: OauthWorld): Promise<TestUser> {
  userCounter += 1;
  const email = `owner${userCounter}-${randomBytes(3).toString('hex')}@example.test`;
  const password = 'correct horse battery';
  const { accountId, userId } = await world.operator.createOwnerAccount({
    accountName: 'Harbour Stays',
    email,
    password,
    firstName: 'Olivia',
    lastName: 'Owner',
    timeZone: 'Europe/Lisbon',
    currency: 'EUR',
    subscriptionStatus: 'active',
  });
  return { email, password, userId, accountId };
}

/** Adds a team member (manager) to `owner`'s account. */
export async function createSubUser(world: OauthWorld, owner: TestUser): Promise<TestUser> {
  userCounter += 1;
  const email = `manager${userCounter}-${randomBytes(3).toString('hex')}@example.test`;
  const password = 'another fine password';
  const { userId } = await world.operator.addSubUser({
    accountId: owner.accountId,
    email,
    firstName: 'Manny',
    lastName: 'Manager',
    role: 'manager',
    password,
  });
  return { email, password, userId, accountId: owner.accountId };
}

/** A running authorization server. */
export interface RunningServer {
  readonly app: FastifyInstance;
  /** Where this instance listens, e.g. http://127.0.0.1:40123 */
  readonly origin: string;
  readonly baseUrl: string;
}

/**
 * Builds an app with the authorization server and listens on 127.0.0.1. `baseUrl` defaults to the
 * instance's own address; several instances of one deployment pass the same one.
 */
export async function startServer(
  world: OauthWorld,
  options: {
    baseUrl?: string;
    port?: number;
    refreshTokenGraceSeconds?: number;
    registrationRateLimit?: { max: number; timeWindowMs: number } | 'default';
    redis?: Redis;
    resourceServers?: readonly ResourceName[];
    clientIdMetadataDocuments?: ClientIdMetadataDocumentOptions;
  } = {},
): Promise<RunningServer> {
  const port = options.port ?? (await freePort());
  const origin = `http://127.0.0.1:${port}`;
  const baseUrl = options.baseUrl ?? origin;
  const app = await buildServerApp(world, { ...options, baseUrl });
  await app.listen({ port, host: '127.0.0.1' });
  return { app, origin, baseUrl };
}

/** The app of {@link startServer}, not listening (for `inject`). */
export async function buildServerApp(
  world: OauthWorld,
  options: {
    baseUrl: string;
    refreshTokenGraceSeconds?: number;
    /** `default`: the authorization server's own; unset: 10,000 a minute, more than any test registers. */
    registrationRateLimit?: { max: number; timeWindowMs: number } | 'default';
    redis?: Redis;
    /** Resource servers mounted next to it, as the apps mount them; each serves its metadata. */
    resourceServers?: readonly ResourceName[];
    /** How Client ID Metadata Documents are fetched (a test's own https server needs its CA trusted). */
    clientIdMetadataDocuments?: ClientIdMetadataDocumentOptions;
  },
): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  await app.register(authorizationServer, {
    db: world.db,
    baseUrl: options.baseUrl,
    secretKeys: oauthSecretKeys,
    signingKeys: [testSigningKey()],
    identity: world.identity,
    clock: world.clock,
    ...(options.refreshTokenGraceSeconds === undefined
      ? {}
      : { refreshTokenGraceSeconds: options.refreshTokenGraceSeconds }),
    // Every test registers its own clients from 127.0.0.1; the limit itself is tested on its own.
    registrationRateLimit:
      options.registrationRateLimit === 'default'
        ? undefined
        : (options.registrationRateLimit ?? { max: 10_000, timeWindowMs: 60_000 }),
    redis: options.redis,
    clientIdMetadataDocuments: options.clientIdMetadataDocuments,
  });
  for (const resource of options.resourceServers ?? []) {
    await app.register(async (scope) => {
      await scope.register(resourceServer, {
        baseUrl: options.baseUrl,
        resource,
        verifier: createAccessTokenVerifier({
          db: world.db,
          resource: resourceUrl(options.baseUrl, resource),
          clock: world.clock,
        }),
        metadataAtWellKnownRoot: resource === 'mcp',
        refuse: (_request, reply, refusal) => reply.send({ message: refusal.message, code: refusal.code }),
      });
    });
  }
  return app;
}

/** A finished authorization: the client, its redirect URI, the code and the PKCE verifier. */
export interface AuthorizedCode {
  readonly client: RegisteredClient;
  readonly redirectUri: string;
  readonly code: string;
  readonly verifier: string;
  readonly browser: Browser;
}

/**
 * Registers a public loopback client (unless one is given), signs `user` in and approves the consent
 * page, and returns the authorization code. `extra` adds or overrides authorization parameters.
 */
export async function authorizedCode(
  server: RunningServer,
  user: { email: string; password: string },
  options: {
    client?: RegisteredClient;
    extra?: Record<string, string>;
    consent?: ConsentChoice;
    browser?: Browser;
  } = {},
): Promise<AuthorizedCode> {
  const client =
    options.client ??
    (await registerClient(server.origin, {
      client_name: 'Test assistant',
      redirect_uris: ['http://127.0.0.1:48123/callback'],
    }));
  const redirectUri = client.redirect_uris[0] ?? '';
  const { verifier, challenge } = pkcePair();
  const browser = options.browser ?? new Browser();
  const outcome = await authorizeInBrowser(
    browser,
    authorizeUrl(
      server.baseUrl,
      { client_id: client.client_id, redirect_uri: redirectUri },
      challenge,
      options.extra,
    ),
    user,
    options.consent,
  );
  const code = outcome.redirect.searchParams.get('code');
  if (code === null) throw new Error(`no code in ${outcome.redirect.href}`);
  return { client, redirectUri, code, verifier, browser };
}

/** Tokens of a finished authorization code exchange. */
export interface IssuedTokens {
  readonly client: RegisteredClient;
  readonly accessToken: string;
  readonly refreshToken: string;
  readonly scope: string;
}

/** {@link authorizedCode}, then the token exchange; fails the test unless it answers 200. */
export async function issueTokens(
  server: RunningServer,
  user: { email: string; password: string },
  options: Parameters<typeof authorizedCode>[2] = {},
): Promise<IssuedTokens> {
  const { client, redirectUri, code, verifier } = await authorizedCode(server, user, options);
  const token = await tokenRequest(server.origin, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirectUri,
    code_verifier: verifier,
    client_id: client.client_id,
  });
  if (token.status !== 200) throw new Error(`token exchange failed: ${JSON.stringify(token.body)}`);
  return {
    client,
    accessToken: String(token.body.access_token),
    refreshToken: String(token.body.refresh_token),
    scope: String(token.body.scope),
  };
}

/** A refresh-token grant for a public client. */
export function refresh(origin: string, clientId: string, refreshToken: string) {
  return tokenRequest(origin, {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: clientId,
  });
}
