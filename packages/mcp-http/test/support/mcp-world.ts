import { randomBytes } from 'node:crypto';
import {
  authorizationServer,
  createAccessTokenVerifier,
  createStepUpMarks,
  generateSigningKey,
  type SigningKey,
  withAuthTables,
} from '@innkeep/auth';
import { freePort, obtainAccessToken, openAuthTestDatabase } from '@innkeep/auth/testing';
import { demoLogin, seedDemoData } from '@innkeep/demo';
import type { Clock, OperatorUseCases } from '@innkeep/domain';
import { innkeepServerInfo } from '@innkeep/mcp-tools';
import { createIdentityUseCases, createOperatorUseCases, createPostgresDomain } from '@innkeep/storage';
import type { TestDatabaseKind } from '@innkeep/storage/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { mcpRoute } from '../../src/mcp-route.ts';
import { type McpFixtures, servingFixtures } from './fixture-dispatcher.ts';

/** A TCP port nothing listens on right now (re-exported for this package's tests). */
export { freePort };

/** A clock at real time plus an offset the test may move either way (the provider checks real time). */
export interface MovableClock extends Clock {
  shift(ms: number): void;
}

/** Real time plus an offset. */
export function movableClock(): MovableClock {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    shift(ms) {
      offset += ms;
    },
  };
}

/** A database with the demo account, shared by the apps of one test file. */
export interface McpWorld {
  readonly db: ReturnType<typeof withAuthTables>;
  /** The PostgreSQL database's URL, for a second instance's own pool; undefined on PGlite. */
  readonly url: string | undefined;
  readonly clock: MovableClock;
  readonly operator: OperatorUseCases;
  /** Unexpected failures the apps reported; a test that expects none checks it stays empty. */
  readonly reported: { reference: string; cause: unknown }[];
  close(): Promise<void>;
}

/** Opens a private database of `kind` with the domain and auth tables and seeds the demo account into it. */
export async function openMcpWorld(kind: TestDatabaseKind): Promise<McpWorld> {
  const handle = await openAuthTestDatabase(kind);
  const db = withAuthTables(handle.db);
  const clock = movableClock();
  await seedDemoData(handle.db, { today: clock.now().toISOString().slice(0, 10) });
  return {
    db,
    url: handle.url,
    clock,
    operator: createOperatorUseCases({ db, clock }),
    reported: [],
    close: () => handle.close(),
  };
}

/** A listening app. */
export interface RunningApp {
  readonly app: FastifyInstance;
  /** Where this instance listens. */
  readonly origin: string;
  /** Its BASE_URL; `${baseUrl}/mcp` is the token audience. */
  readonly baseUrl: string;
  readonly mcpUrl: string;
}

const secretKeys = ['mcp-http-test-key-0123456789abcdefghij'];
let signingKey: SigningKey | undefined;

/** Options of {@link startApp}. */
export interface AppOptions {
  readonly baseUrl?: string;
  readonly rateLimit?: { max: number; timeWindow: number };
  readonly redis?: Redis;
  /** The clock the token check runs on (default: the world's), so a test can age tokens on one app only. */
  readonly verifierClock?: Clock;
  /** The instance's own connection to the world's database (default: the world's). */
  readonly db?: McpWorld['db'];
  /** Test-only tools, resources and prompts served after Innkeep's own (the conformance suite's). */
  readonly fixtures?: McpFixtures;
}

/**
 * Starts what apps/server is for /mcp: the authorization server and the /mcp route on one Fastify app,
 * on 127.0.0.1, with tokens bound to `${baseUrl}/mcp` (the instance's own address by default).
 */
export async function startApp(world: McpWorld, options: AppOptions = {}): Promise<RunningApp> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const baseUrl = options.baseUrl ?? origin;
  signingKey ??= generateSigningKey();
  const db = options.db ?? world.db;
  const app = Fastify({ logger: false });
  await app.register(authorizationServer, {
    db,
    baseUrl,
    secretKeys,
    signingKeys: [signingKey],
    identity: createIdentityUseCases({ db, clock: world.clock }),
    clock: world.clock,
    registrationRateLimit: { max: 10_000, timeWindowMs: 60_000 },
  });
  const domain = createPostgresDomain({ db, clock: world.clock });
  const report = (reference: string, cause: unknown) => world.reported.push({ reference, cause });
  await app.register(mcpRoute, {
    dispatcher: {
      domain,
      clock: world.clock,
      serverInfo: innkeepServerInfo,
      report,
      wrap:
        options.fixtures === undefined
          ? undefined
          : servingFixtures(options.fixtures, {
              domain,
              clock: world.clock,
              report,
              serverInfo: innkeepServerInfo,
            }),
    },
    verifier: createAccessTokenVerifier({
      db,
      resource: `${baseUrl}/mcp`,
      clock: options.verifierClock ?? world.clock,
    }),
    baseUrl,
    rateLimit: options.rateLimit,
    redis: options.redis,
    stepUpMarks: createStepUpMarks(db, world.clock),
  });
  await app.listen({ port, host: '127.0.0.1' });
  return { app, origin, baseUrl, mcpUrl: `${origin}/mcp` };
}

/** Someone who can sign in. */
export interface Person {
  readonly email: string;
  readonly password: string;
  readonly accountId: string;
}

/** The demo account's owner. */
export async function demoOwner(world: McpWorld): Promise<Person> {
  const found = await world.operator.findUserByEmail(demoLogin.email);
  if (found === null) throw new Error('the demo owner is missing');
  return { ...demoLogin, accountId: found.accountId };
}

/** A new account with an active subscription, and its owner. */
export async function newOwner(world: McpWorld): Promise<Person> {
  const email = `owner-${randomBytes(4).toString('hex')}@example.test`;
  const password = 'correct horse battery';
  const { accountId } = await world.operator.createOwnerAccount({
    accountName: 'Harbour Stays',
    email,
    password,
    firstName: 'Olivia',
    lastName: 'Owner',
    timeZone: 'Europe/Lisbon',
    currency: 'EUR',
    subscriptionStatus: 'active',
  });
  return { email, password, accountId };
}

/**
 * Makes `person` a manager of their account from now on, as when ownership passes to someone else after
 * they connected an assistant. (The consent page never grants a team member a token, so a token of a
 * team member comes about only this way.) Written straight to the table: no use case changes roles.
 */
export async function demoteToManager(world: McpWorld, person: Person): Promise<void> {
  await world.db.updateTable('users').set({ role: 'manager' }).where('email', '=', person.email).execute();
}

/** A real access token for `person` on `app`, through the real HTTP flow, with `scopes` (default all). */
export async function tokenFor(app: RunningApp, person: Person, scopes?: readonly string[]): Promise<string> {
  const tokens = await obtainAccessToken({
    baseUrl: app.baseUrl,
    origin: app.origin,
    email: person.email,
    password: person.password,
    ...(scopes === undefined ? {} : { scopes }),
  });
  return tokens.accessToken;
}

/** What a POST to /mcp answered. */
export interface McpReply {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The parsed body; undefined when there was none. */
  readonly body: unknown;
}

/** POSTs `message` to `url` as an MCP client would, with `token` (if any) and extra headers. */
export async function post(
  url: string,
  message: unknown,
  token?: string,
  headers: Record<string, string> = {},
): Promise<McpReply> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...headers,
    },
    body: typeof message === 'string' ? message : JSON.stringify(message),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    body: text === '' ? undefined : JSON.parse(text),
  };
}

/** A JSON-RPC request. */
export function rpc(method: string, params: Record<string, unknown> = {}, id: string | number = 1) {
  return { jsonrpc: '2.0', id, method, params };
}
