import type { Clock, IdentityUseCases, InnkeepDomain, OperatorUseCases } from '@innkeep/domain';
import { createIdentityUseCases, createOperatorUseCases, createPostgresDomain } from '@innkeep/storage';
import type { TestDatabaseKind } from '@innkeep/storage/testing';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import { withAuthTables } from '../../src/postgres/auth-database.ts';
import type { AuthDatabase } from '../../src/postgres/database.ts';
import { openAuthTestDatabase } from '../../src/testing.ts';
import { accountPages } from '../../src/web/account-pages.ts';

/** Two valid secret keys (at least 32 characters each). */
export const testSecretKeys = [
  'test-key-one-0123456789abcdefghijklmnop',
  'test-key-two-0123456789abcdefghijklmnop',
];

/** The public URL the test apps believe they run at. */
export const testBaseUrl = 'https://innkeep.test';

/** A clock the test moves by hand. */
export interface TestClock extends Clock {
  advance(ms: number): void;
}

/** A clock standing at `start` until advanced. */
export function createTestClock(start: Date): TestClock {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    advance(ms) {
      now += ms;
    },
  };
}

/** A database, the domain use cases over it, and a clock, for building account-page apps. */
export interface PagesWorld {
  readonly db: Kysely<AuthDatabase>;
  readonly clock: TestClock;
  readonly identity: IdentityUseCases;
  readonly operator: OperatorUseCases;
  /** Every use case over the same database, for pages (webhooks) that need more than identity. */
  readonly domain: InnkeepDomain;
  close(): Promise<void>;
}

/** Opens a private database of `kind` with a clock at 2027-03-01T12:00:00Z. */
export async function openPagesWorld(kind: TestDatabaseKind): Promise<PagesWorld> {
  const handle = await openAuthTestDatabase(kind);
  const db: Kysely<AuthDatabase> = withAuthTables(handle.db);
  const clock = createTestClock(new Date('2027-03-01T12:00:00Z'));
  return {
    db,
    clock,
    identity: createIdentityUseCases({ db, clock }),
    operator: createOperatorUseCases({ db, clock }),
    domain: createPostgresDomain({ db, clock }),
    close: () => handle.close(),
  };
}

/** A Fastify app holding only the account pages, and the webhooks page when `webhooks` is true. */
export async function buildPagesApp(
  world: PagesWorld,
  options: { secretKeys?: readonly string[]; secureCookies?: boolean; webhooks?: boolean } = {},
): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  await app.register(accountPages, {
    db: world.db,
    identity: world.identity,
    clock: world.clock,
    baseUrl: testBaseUrl,
    secretKeys: options.secretKeys ?? testSecretKeys,
    ...(options.secureCookies === undefined ? {} : { secureCookies: options.secureCookies }),
    ...(options.webhooks === true
      ? { webhooks: { subscriptions: world.domain.webhooks, deliveries: world.domain.webhookDeliveries } }
      : {}),
  });
  await app.ready();
  return app;
}

let hostCounter = 0;

/** A host created through the operator use cases, with the password it signs in with. */
export interface TestHost {
  readonly accountId: string;
  readonly userId: string;
  readonly email: string;
  readonly password: string;
}

/** Creates an account and its owner (trialing unless said otherwise). */
export async function createHost(
  world: PagesWorld,
  overrides: { timeZone?: string; subscriptionStatus?: 'trialing' | 'active' | 'past_due' } = {},
): Promise<TestHost> {
  hostCounter += 1;
  const email = `Host${hostCounter}.${process.pid}@Example.test`;
  const password = `correct horse ${hostCounter}`;
  const created = await world.operator.createOwnerAccount({
    accountName: `Seaside Stays ${hostCounter}`,
    email,
    password,
    firstName: 'Hannah',
    lastName: 'Host',
    timeZone: overrides.timeZone ?? 'America/New_York',
    currency: 'USD',
    subscriptionStatus: overrides.subscriptionStatus ?? 'trialing',
    plan: 'standard',
  });
  return { ...created, email, password };
}

/** Cookies a browser would keep between requests to the app. */
export class CookieJar {
  readonly values = new Map<string, string>();

  /** Stores (or, for expired ones, drops) the cookies a response set. */
  take(response: LightMyRequestResponse): void {
    for (const cookie of response.cookies) {
      const expired =
        cookie.maxAge === 0 || (cookie.expires !== undefined && cookie.expires.getTime() <= Date.now());
      if (expired || cookie.value === '') this.values.delete(cookie.name);
      else this.values.set(cookie.name, cookie.value);
    }
  }

  /** The `cookie` request header. */
  header(): string {
    return [...this.values].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/** What a browser does: send the jar's cookies, keep the ones that come back. */
export async function browse(
  app: FastifyInstance,
  jar: CookieJar,
  request: {
    method?: 'GET' | 'POST';
    url: string;
    form?: Record<string, string>;
    headers?: Record<string, string>;
    /** The client address the app sees (`request.ip`); light-my-request's default otherwise. */
    remoteAddress?: string;
  },
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { ...request.headers };
  if (jar.values.size > 0) headers.cookie = jar.header();
  if (request.form !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
  const response = await app.inject({
    method: request.method ?? (request.form === undefined ? 'GET' : 'POST'),
    url: request.url,
    headers,
    ...(request.form === undefined ? {} : { payload: new URLSearchParams(request.form).toString() }),
    ...(request.remoteAddress === undefined ? {} : { remoteAddress: request.remoteAddress }),
  });
  jar.take(response);
  return response;
}

/** The `csrf` value of the first form on a page. */
export function csrfFrom(page: string): string {
  const match = /name="csrf" value="([^"]+)"/.exec(page);
  if (match?.[1] === undefined) throw new Error('The page has no csrf field');
  return match[1];
}

/** Opens /login and signs in (from `remoteAddress`, when given); returns the sign-in response. */
export async function signIn(
  app: FastifyInstance,
  jar: CookieJar,
  credentials: { email: string; password: string },
  next?: string,
  remoteAddress?: string,
): Promise<LightMyRequestResponse> {
  const query = next === undefined ? '' : `?next=${encodeURIComponent(next)}`;
  const from = remoteAddress === undefined ? {} : { remoteAddress };
  const page = await browse(app, jar, { url: `/login${query}`, ...from });
  return browse(app, jar, {
    url: `/login${query}`,
    form: { email: credentials.email, password: credentials.password, csrf: csrfFrom(page.body) },
    ...from,
  });
}
