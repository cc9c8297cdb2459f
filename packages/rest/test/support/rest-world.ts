import {
  authorizationServer,
  createAccessTokenVerifier,
  generateSigningKey,
  type SigningKey,
  withAuthTables,
} from '@innkeep/auth';
import { freePort, obtainAccessToken, openAuthTestDatabase } from '@innkeep/auth/testing';
import { demoLogin, seedDemoData } from '@innkeep/demo';
import type { Clock, InnkeepDomain, OperatorUseCases, Scope } from '@innkeep/domain';
import { createIdentityUseCases, createOperatorUseCases, createPostgresDomain } from '@innkeep/storage';
import type { TestDatabaseKind } from '@innkeep/storage/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { buildOpenApiDocument } from '../../src/openapi/openapi-document.ts';
import { defaultRestRateLimits, restApi } from '../../src/rest-api.ts';
import { restRoutes } from '../../src/route-catalogue.ts';
import type { RestRoute } from '../../src/route-definition.ts';
import { restServerOptions } from '../../src/server-options.ts';
import { checkResponsesAgainstDocument, describeMismatches, type ResponseMismatch } from './openapi-check.ts';

/** The demo's users: the owner, its manager, and the owner of the lapsed (past-due) account. */
export const demoUsers = {
  owner: demoLogin.email,
  manager: 'manager@innkeep.test',
  lapsedOwner: 'lapsed@innkeep.test',
} as const;

/** A database holding the demo accounts, shared by the apps of one test file. */
export interface RestWorld {
  readonly kind: TestDatabaseKind;
  readonly db: ReturnType<typeof withAuthTables>;
  /** The PostgreSQL database's URL, for a second instance's own pool; undefined on PGlite. */
  readonly url: string | undefined;
  readonly clock: Clock;
  readonly domain: InnkeepDomain;
  readonly operator: OperatorUseCases;
  /** Unexpected failures the apps reported; tests that expect none check it stays empty. */
  readonly reported: { reference: string; cause: unknown }[];
  /** Answers of the apps that do not fit the OpenAPI document; an app's `close()` fails on its own. */
  readonly responseMismatches: ResponseMismatch[];
  close(): Promise<void>;
}

/** Opens a private database of `kind` with the domain and auth tables and seeds the demo accounts. */
export async function openRestWorld(kind: TestDatabaseKind): Promise<RestWorld> {
  const handle = await openAuthTestDatabase(kind);
  const db = withAuthTables(handle.db);
  const clock: Clock = { now: () => new Date() };
  await seedDemoData(handle.db, { today: clock.now().toISOString().slice(0, 10) });
  return {
    kind,
    db,
    url: handle.url,
    clock,
    domain: createPostgresDomain({ db, clock }),
    operator: createOperatorUseCases({ db, clock }),
    reported: [],
    responseMismatches: [],
    close: () => handle.close(),
  };
}

/** A fresh authToken for the user with `email` (revoking any earlier one of that user). */
export async function authTokenOf(world: RestWorld, email: string): Promise<string> {
  return (await world.operator.issueAuthToken({ email })).authToken;
}

/** A viewer added to the demo account, with an authToken. */
export async function demoViewer(world: RestWorld): Promise<{ email: string; authToken: string }> {
  const owner = await world.operator.findUserByEmail(demoUsers.owner);
  if (owner === null) throw new Error('the demo owner is missing');
  const email = `viewer-${Math.random().toString(36).slice(2, 10)}@innkeep.test`;
  await world.operator.addSubUser({
    accountId: owner.accountId,
    email,
    password: demoLogin.password,
    firstName: 'Vera',
    lastName: 'Viewer',
    role: 'viewer',
  });
  return { email, authToken: await authTokenOf(world, email) };
}

/** A listening app serving the authorization server and the REST API. */
export interface RunningRestApp {
  readonly app: FastifyInstance;
  /** Its BASE_URL (where it listens, unless told otherwise). */
  readonly baseUrl: string;
  /** Where its API answers: `/api` at the address it listens on. */
  readonly apiUrl: string;
  close(): Promise<void>;
}

/** Options of {@link startRestApp}. */
export interface RestAppOptions {
  readonly routes?: readonly RestRoute[];
  readonly redis?: Redis;
  readonly rateLimits?: { perCredential: number; withApiKey: number };
  /** The instance's own connection to the world's database (default: the world's). */
  readonly db?: RestWorld['db'];
  /** BASE_URL when it is not the instance's own address (two instances of one deployment). */
  readonly baseUrl?: string;
}

const secretKeys = ['rest-test-key-0123456789abcdefghijklmn'];
let signingKey: SigningKey | undefined;

/**
 * Starts what apps/server serves for REST: the authorization server and the REST API on one Fastify app
 * made with `restServerOptions`, listening on 127.0.0.1, its own address as BASE_URL. Every answer of a
 * route is checked against the OpenAPI document of the routes, and `close()` throws if one did not fit.
 */
export async function startRestApp(world: RestWorld, options: RestAppOptions = {}): Promise<RunningRestApp> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const baseUrl = options.baseUrl ?? origin;
  signingKey ??= generateSigningKey();
  const db = options.db ?? world.db;
  const identity = createIdentityUseCases({ db, clock: world.clock });
  const app = Fastify({ logger: false, ...restServerOptions });
  const routes = options.routes ?? restRoutes;
  const mismatches: ResponseMismatch[] = [];
  const document = buildOpenApiDocument({
    routes,
    baseUrl,
    rateLimits: options.rateLimits ?? defaultRestRateLimits,
  });
  checkResponsesAgainstDocument(app, document, (mismatch) => {
    mismatches.push(mismatch);
    world.responseMismatches.push(mismatch);
  });
  await app.register(authorizationServer, {
    db,
    baseUrl,
    secretKeys,
    signingKeys: [signingKey],
    identity,
    clock: world.clock,
    registrationRateLimit: { max: 10_000, timeWindowMs: 60_000 },
  });
  const verifier = createAccessTokenVerifier({ db, resource: `${baseUrl}/api`, clock: world.clock });
  await app.register(restApi, {
    routes,
    domain: options.db === undefined ? world.domain : createPostgresDomain({ db, clock: world.clock }),
    identity,
    verifier,
    clock: world.clock,
    baseUrl,
    redis: options.redis,
    rateLimits: options.rateLimits,
    report: (reference, cause) => world.reported.push({ reference, cause }),
  });
  await app.listen({ port, host: '127.0.0.1' });
  return {
    app,
    baseUrl,
    apiUrl: `${origin}/api`,
    close: async () => {
      await app.close();
      await verifier.close();
      if (mismatches.length > 0) throw new Error(describeMismatches(mismatches));
    },
  };
}

/** An OAuth access token for the demo owner (or `email`), asked for `resource` (default `api`) and `scopes`. */
export async function bearerTokenOf(
  running: RunningRestApp,
  options: { scopes?: readonly Scope[]; resource?: 'api' | 'mcp' | null; email?: string } = {},
): Promise<string> {
  const tokens = await obtainAccessToken({
    baseUrl: running.baseUrl,
    email: options.email ?? demoUsers.owner,
    password: demoLogin.password,
    resource: options.resource === undefined ? 'api' : options.resource,
    ...(options.scopes === undefined ? {} : { scopes: options.scopes }),
  });
  return tokens.accessToken;
}

/** An answer: status, headers and the JSON body (undefined when there is none). */
export interface RestAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: unknown;
}

/** Calls the API with `credentials` as headers (`{authToken}`, `{authorization: 'Bearer …'}` …). */
export async function callApi(
  running: RunningRestApp,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: unknown; rawBody?: string } = {},
): Promise<RestAnswer> {
  const hasBody = options.body !== undefined || options.rawBody !== undefined;
  const response = await fetch(`${running.apiUrl}${path}`, {
    method,
    headers: {
      accept: 'application/json',
      ...(hasBody ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    },
    ...(hasBody ? { body: options.rawBody ?? JSON.stringify(options.body) } : {}),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text === '' ? undefined : JSON.parse(text),
  };
}
