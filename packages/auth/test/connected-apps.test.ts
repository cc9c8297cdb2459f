import { testDatabaseKinds } from '@innkeep/storage/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { disconnectApp, grantedScopes, listConnectedApps } from '../src/postgres/connected-apps.ts';
import {
  browse,
  buildPagesApp,
  CookieJar,
  createHost,
  csrfFrom,
  openPagesWorld,
  type PagesWorld,
  signIn,
  type TestHost,
} from './support/account-pages-harness.ts';

const mcpResource = 'https://innkeep.test/mcp';
let sequence = 0;

/** Inserts a Client row unless it exists, registered to return to `redirectUris`. */
async function insertClient(
  world: PagesWorld,
  clientId: string,
  clientName?: string,
  redirectUris: readonly string[] = ['https://assistant.example/callback'],
): Promise<void> {
  await world.db
    .insertInto('oidc_model')
    .values({
      model: 'Client',
      id: clientId,
      payload: JSON.stringify({
        client_id: clientId,
        redirect_uris: redirectUris,
        ...(clientName === undefined ? {} : { client_name: clientName }),
      }),
      grant_id: null,
      uid: null,
      user_code: null,
      account_id: null,
      client_id: null,
      expires_at: null,
      consumed_at: null,
      last_used_at: null,
    })
    .onConflict((conflict) => conflict.columns(['model', 'id']).doNothing())
    .execute();
}

/**
 * Inserts a Grant the way oidc-provider 9 stores one (scopes per resource, refused ones under `rejected`),
 * with an access token, a refresh token, a used authorization code and the remembered consent.
 */
async function insertGrant(
  world: PagesWorld,
  grant: {
    userId: string;
    clientId: string;
    scope?: string;
    rejectedScope?: string;
    createdAt?: string;
    expiresAt?: string;
    tokenLastUsedAt?: string | null;
  },
): Promise<string> {
  sequence += 1;
  const grantId = `grant${sequence}_${Math.random().toString(36).slice(2, 10)}`;
  const base = {
    uid: null,
    user_code: null,
    consumed_at: null,
    last_used_at: null,
  };
  await world.db
    .insertInto('oidc_model')
    .values({
      ...base,
      model: 'Grant',
      id: grantId,
      payload: JSON.stringify({
        kind: 'Grant',
        jti: grantId,
        accountId: grant.userId,
        clientId: grant.clientId,
        openid: { scope: 'openid offline_access' },
        resources: { [mcpResource]: grant.scope ?? 'listings:read reservations:read' },
        ...(grant.rejectedScope === undefined
          ? {}
          : { rejected: { resources: { [mcpResource]: grant.rejectedScope } } }),
      }),
      grant_id: null,
      account_id: grant.userId,
      client_id: grant.clientId,
      expires_at: new Date(grant.expiresAt ?? '2027-03-31T12:00:00Z'),
      created_at: grant.createdAt ?? '2027-02-20T15:30:00Z',
    })
    .execute();
  const token = (
    model: string,
    suffix: string,
    extra: { last_used_at?: Date | null; consumed_at?: Date } = {},
  ) => ({
    ...base,
    model,
    id: `${grantId}_${suffix}`,
    payload: JSON.stringify({ kind: model, grantId, accountId: grant.userId, clientId: grant.clientId }),
    grant_id: grantId,
    account_id: grant.userId,
    client_id: grant.clientId,
    expires_at: new Date('2027-03-31T12:00:00Z'),
    ...extra,
  });
  await world.db
    .insertInto('oidc_model')
    .values([
      token('AccessToken', 'at', {
        last_used_at:
          grant.tokenLastUsedAt === undefined || grant.tokenLastUsedAt === null
            ? null
            : new Date(grant.tokenLastUsedAt),
      }),
      token('RefreshToken', 'rt'),
      token('AuthorizationCode', 'code', { consumed_at: new Date('2027-02-20T15:30:05Z') }),
    ])
    .execute();
  await world.db
    .insertInto('oauth_consents')
    .values({ user_id: grant.userId, client_id: grant.clientId, grant_id: grantId })
    .onConflict((conflict) => conflict.columns(['user_id', 'client_id']).doUpdateSet({ grant_id: grantId }))
    .execute();
  return grantId;
}

async function rowsOfGrant(world: PagesWorld, grantId: string): Promise<string[]> {
  const rows = await world.db
    .selectFrom('oidc_model')
    .select('model')
    .where((eb) =>
      eb.or([eb('grant_id', '=', grantId), eb.and([eb('model', '=', 'Grant'), eb('id', '=', grantId)])]),
    )
    .orderBy('model')
    .execute();
  return rows.map((row) => row.model);
}

describe('grantedScopes', () => {
  it('reads oidc-provider grant payloads: resource and openid scopes, minus rejected ones, in catalogue order', () => {
    expect(
      grantedScopes({
        openid: { scope: 'openid offline_access user:read' },
        resources: {
          [mcpResource]: 'reservations:read calendar:write listings:read',
          'https://other.test': 'help:read',
        },
        rejected: { resources: { [mcpResource]: 'calendar:write' }, openid: { scope: 'user:read' } },
      }),
    ).toEqual(['listings:read', 'reservations:read', 'help:read']);
    expect(grantedScopes({})).toEqual([]);
    expect(grantedScopes({ resources: { [mcpResource]: 42 }, rejected: 'nonsense' })).toEqual([]);
  });
});

describe.each(testDatabaseKinds)('connected assistants on %s', (kind) => {
  let world: PagesWorld;
  let app: FastifyInstance;
  let host: TestHost;
  let other: TestHost;

  beforeAll(async () => {
    world = await openPagesWorld(kind);
    app = await buildPagesApp(world);
    host = await createHost(world, { timeZone: 'America/New_York' });
    other = await createHost(world);
    await insertClient(world, 'client_claude', 'Claude');
    await insertClient(world, 'client_nameless');
    await insertClient(world, 'client_sneaky', '<img src=x onerror=alert(1)>');
    // The same app registered again from a desktop, which returns to a loopback port.
    await insertClient(world, 'client_claude_desktop', 'Claude', ['http://127.0.0.1:33418/callback']);
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    await world?.close();
  });

  it('lists the user’s unexpired grants with names, allowed scopes and times, newest first', async () => {
    const user = await createHost(world);
    const claude = await insertGrant(world, {
      userId: user.userId,
      clientId: 'client_claude',
      scope: 'listings:read reservations:read calendar:write',
      rejectedScope: 'calendar:write',
      createdAt: '2027-02-20T15:30:00Z',
      tokenLastUsedAt: '2027-03-01T11:00:00Z',
    });
    const nameless = await insertGrant(world, {
      userId: user.userId,
      clientId: 'client_nameless',
      scope: 'help:read',
      createdAt: '2027-02-25T09:00:00Z',
    });
    await insertGrant(world, {
      userId: user.userId,
      clientId: 'client_claude',
      expiresAt: '2027-03-01T11:59:59Z',
    });
    await insertGrant(world, { userId: other.userId, clientId: 'client_claude' });
    // A client whose registration is not stored here (a metadata-document client, say).
    const unregistered = await insertGrant(world, {
      userId: user.userId,
      clientId: 'client_unregistered',
      scope: 'help:read',
      createdAt: '2027-02-26T09:00:00Z',
    });

    const apps = await listConnectedApps(world.db, user.userId, { now: world.clock.now() });
    expect(apps).toEqual([
      {
        grantId: unregistered,
        clientId: 'client_unregistered',
        clientName: 'client_unregistered',
        redirectUris: [],
        scopes: ['help:read'],
        connectedAt: '2027-02-26T09:00:00.000Z',
        lastUsedAt: null,
      },
      {
        grantId: nameless,
        clientId: 'client_nameless',
        clientName: 'client_nameless',
        redirectUris: ['https://assistant.example/callback'],
        scopes: ['help:read'],
        connectedAt: '2027-02-25T09:00:00.000Z',
        lastUsedAt: null,
      },
      {
        grantId: claude,
        clientId: 'client_claude',
        clientName: 'Claude',
        redirectUris: ['https://assistant.example/callback'],
        scopes: ['listings:read', 'reservations:read'],
        connectedAt: '2027-02-20T15:30:00.000Z',
        lastUsedAt: '2027-03-01T11:00:00.000Z',
      },
    ]);
  });

  it('disconnects: every record of the grant and its consent go, in one go, and it is audited', async () => {
    const user = await createHost(world);
    const doomed = await insertGrant(world, { userId: user.userId, clientId: 'client_claude' });
    const kept = await insertGrant(world, { userId: user.userId, clientId: 'client_nameless' });
    expect(await rowsOfGrant(world, doomed)).toEqual([
      'AccessToken',
      'AuthorizationCode',
      'Grant',
      'RefreshToken',
    ]);

    expect(await disconnectApp(world.db, user.userId, doomed)).toEqual({
      clientId: 'client_claude',
      clientName: 'Claude',
    });
    expect(await rowsOfGrant(world, doomed)).toEqual([]);
    expect(await rowsOfGrant(world, kept)).toEqual([
      'AccessToken',
      'AuthorizationCode',
      'Grant',
      'RefreshToken',
    ]);
    const consents = await world.db
      .selectFrom('oauth_consents')
      .select('grant_id')
      .where('user_id', '=', user.userId)
      .execute();
    expect(consents).toEqual([{ grant_id: kept }]);
    const audit = await world.db
      .selectFrom('audit_log')
      .select(['account_id', 'user_id', 'via', 'client_id', 'target_type', 'target_id', 'details'])
      .where('action', '=', 'oauth.disconnect')
      .where('target_id', '=', doomed)
      .execute();
    expect(audit).toEqual([
      {
        account_id: user.accountId,
        user_id: user.userId,
        via: 'web',
        client_id: 'client_claude',
        target_type: 'oauth_grant',
        target_id: doomed,
        details: { clientName: 'Claude', removedRecords: 3 },
      },
    ]);
    // The client itself stays registered: other people may use it.
    const client = await world.db
      .selectFrom('oidc_model')
      .select('id')
      .where('model', '=', 'Client')
      .where('id', '=', 'client_claude')
      .execute();
    expect(client).toHaveLength(1);
  });

  it('refuses to disconnect another user’s grant, or an unknown one, changing nothing', async () => {
    const theirs = await insertGrant(world, { userId: other.userId, clientId: 'client_claude' });
    await expect(disconnectApp(world.db, host.userId, theirs)).rejects.toMatchObject({ code: 'not_found' });
    await expect(disconnectApp(world.db, host.userId, 'no_such_grant')).rejects.toMatchObject({
      code: 'not_found',
    });
    expect(await rowsOfGrant(world, theirs)).toEqual([
      'AccessToken',
      'AuthorizationCode',
      'Grant',
      'RefreshToken',
    ]);
  });

  it('shows each grant as a card with name, plain-words scopes, times, where it returns to, escaped', async () => {
    const user = await createHost(world, { timeZone: 'America/New_York' });
    const claude = await insertGrant(world, {
      userId: user.userId,
      clientId: 'client_claude',
      scope: 'listings:read reservations:read',
      createdAt: '2027-02-20T15:30:00Z',
      tokenLastUsedAt: '2027-03-01T11:00:00Z',
    });
    const desktop = await insertGrant(world, {
      userId: user.userId,
      clientId: 'client_claude_desktop',
      scope: 'help:read',
      createdAt: '2027-02-22T15:30:00Z',
    });
    await insertGrant(world, {
      userId: user.userId,
      clientId: 'client_sneaky',
      createdAt: '2027-02-21T15:30:00Z',
    });
    const jar = new CookieJar();
    await signIn(app, jar, user);
    const response = await browse(app, jar, { url: '/settings/apps' });
    expect(response.statusCode).toBe(200);
    const page = response.body;
    const card = (grantId: string) => {
      const start = page.indexOf(`<li aria-labelledby="grant-${grantId}">`);
      expect(start).toBeGreaterThan(-1);
      return page.slice(start, page.indexOf('</form>\n</li>', start));
    };

    // Two grants of one app ("Claude"), told apart by when, where it returns to, its client and scopes.
    const web = card(claude);
    expect(web).toContain(`<h2 id="grant-${claude}">Claude</h2>`);
    // 15:30 UTC is 10:30 in New York; 11:00 UTC is 6:00.
    expect(web).toContain(
      '<dt>Connected</dt><dd><time datetime="2027-02-20T15:30:00.000Z">Feb 20, 2027, 10:30 AM EST</time></dd>',
    );
    expect(web).toContain('>Mar 1, 2027, 6:00 AM EST</time></dd>');
    expect(web).toContain('<code>https://assistant.example/callback</code>');
    expect(web).toContain('<code>client_claude</code>');
    expect(web).toContain('<li>See your listings and their settings</li>');
    expect(web).toContain('<li>See reservations and guest details</li>');
    expect(web).toContain(`action="/settings/apps/${claude}/disconnect"`);
    expect(web).toContain(`aria-describedby="grant-${claude}">Disconnect</button>`);
    const fromDesktop = card(desktop);
    expect(fromDesktop).toContain(`<h2 id="grant-${desktop}">Claude</h2>`);
    expect(fromDesktop).toContain('>Feb 22, 2027, 10:30 AM EST</time></dd>');
    expect(fromDesktop).toContain('<dt>Last used</dt><dd>never</dd>');
    expect(fromDesktop).toContain('<code>http://127.0.0.1:33418/callback</code>');
    expect(fromDesktop).not.toContain('See your listings');
    // Newest connection first.
    expect(page.indexOf(desktop)).toBeLessThan(page.indexOf(claude));
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(page).not.toContain('<img');
    expect(page).not.toContain('<table');
  });

  it('says so when nothing is connected, and tells team members only owners connect assistants', async () => {
    await world.operator.addSubUser({
      accountId: host.accountId,
      email: `manager.${process.pid}@example.test`,
      firstName: 'Max',
      lastName: 'Manager',
      role: 'manager',
      password: 'manager password 1',
    });
    const jar = new CookieJar();
    await signIn(app, jar, { email: `manager.${process.pid}@example.test`, password: 'manager password 1' });
    const page = (await browse(app, jar, { url: '/settings/apps' })).body;
    expect(page).toContain('No assistants are connected.');
    expect(page).toContain('Assistants connect through the account owner');
  });

  it('disconnects from the page and confirms; another user’s grant is a 404 page; a missing token a 403', async () => {
    const user = await createHost(world);
    const mine = await insertGrant(world, { userId: user.userId, clientId: 'client_claude' });
    const theirs = await insertGrant(world, { userId: other.userId, clientId: 'client_claude' });
    const jar = new CookieJar();
    await signIn(app, jar, user);
    const csrf = csrfFrom((await browse(app, jar, { url: '/settings/apps' })).body);

    const unguarded = await browse(app, jar, {
      url: `/settings/apps/${mine}/disconnect`,
      form: { csrf: 'forged' },
    });
    expect(unguarded.statusCode).toBe(403);
    expect(await rowsOfGrant(world, mine)).toHaveLength(4);

    const foreign = await browse(app, jar, { url: `/settings/apps/${theirs}/disconnect`, form: { csrf } });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(await rowsOfGrant(world, theirs)).toHaveLength(4);

    const response = await browse(app, jar, { url: `/settings/apps/${mine}/disconnect`, form: { csrf } });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/settings/apps?disconnected=1');
    expect(await rowsOfGrant(world, mine)).toEqual([]);
    const after = (await browse(app, jar, { url: '/settings/apps?disconnected=1' })).body;
    expect(after).toContain('The assistant was disconnected');
    expect(after).not.toContain(mine);
  });
});
