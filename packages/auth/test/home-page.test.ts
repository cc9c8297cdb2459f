import type { Actor } from '@innkeep/domain';
import { testDatabaseKinds } from '@innkeep/storage/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountPages } from '../src/web/account-pages.ts';
import {
  browse,
  CookieJar,
  createHost,
  openPagesWorld,
  type PagesWorld,
  signIn,
  type TestHost,
  testBaseUrl,
  testSecretKeys,
} from './support/account-pages-harness.ts';

const mcpResource = `${testBaseUrl}/mcp`;
let grantCount = 0;

/** A Client row and a Grant of it for `userId`, as oidc-provider stores them, so the client is connected. */
async function connectClient(world: PagesWorld, userId: string, clientId: string, clientName: string) {
  grantCount += 1;
  const row = { uid: null, user_code: null, consumed_at: null, grant_id: null, expires_at: null };
  await world.db
    .insertInto('oidc_model')
    .values([
      {
        ...row,
        model: 'Client',
        id: clientId,
        payload: JSON.stringify({ client_id: clientId, client_name: clientName }),
        account_id: null,
        client_id: null,
        last_used_at: null,
      },
      {
        ...row,
        model: 'Grant',
        id: `grant_home_${grantCount}`,
        payload: JSON.stringify({
          kind: 'Grant',
          accountId: userId,
          clientId,
          resources: { [mcpResource]: 'user:read user:write' },
        }),
        account_id: userId,
        client_id: clientId,
        last_used_at: new Date('2027-03-01T11:00:00Z'),
      },
    ])
    .execute();
}

function actorOf(host: TestHost, via: Actor['via'], clientId: string | null): Actor {
  return { accountId: host.accountId, userId: host.userId, role: 'owner', via, clientId };
}

/** The activity entries of a dashboard, one string each, tags and all. */
function entriesOf(page: string): string[] {
  const list = /<ol class="activity">([\s\S]*?)<\/ol>/.exec(page)?.[1] ?? '';
  return [...list.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((match) => match[1] ?? '');
}

/** The href of the link labelled `label`, entities decoded. */
function linkTo(page: string, label: string): string | undefined {
  const href = new RegExp(`<a href="([^"]+)">${label}</a>`).exec(page)?.[1];
  return href?.replaceAll('&amp;', '&');
}

describe.each(testDatabaseKinds)('home page on %s', (kind) => {
  let world: PagesWorld;
  let app: FastifyInstance;

  beforeAll(async () => {
    world = await openPagesWorld(kind);
    app = Fastify({ logger: false });
    await app.register(accountPages, {
      db: world.db,
      identity: world.identity,
      clock: world.clock,
      baseUrl: testBaseUrl,
      secretKeys: testSecretKeys,
      webhooks: { subscriptions: world.domain.webhooks, deliveries: world.domain.webhookDeliveries },
      home: { audit: world.domain.audit },
    });
    await app.ready();
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    await world?.close();
  });

  async function signedInJar(credentials: { email: string; password: string }): Promise<CookieJar> {
    const jar = new CookieJar();
    expect((await signIn(app, jar, credentials)).statusCode).toBe(303);
    return jar;
  }

  it('tells someone signed out what Innkeep is, how to sign in, and both ways in', async () => {
    const response = await browse(app, new CookieJar(), { url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const page = response.body;
    expect(page).toContain('<a class="skip-link" href="#main">Skip to content</a>');
    expect(page).toContain('<main id="main"');
    expect(page).toMatch(/<nav class="site" aria-label="Site">\s*<a href="\/" aria-current="page">Home<\/a>/);
    expect(page).toContain('Innkeep runs a short-term-rental business');
    expect(page).toContain('<a href="/login?next=%2F">Sign in</a>');
    expect(page).toContain('<p class="copyable" id="mcp-url"><code>https://innkeep.test/mcp</code></p>');
    expect(page).toContain('data-copy="mcp-url" hidden>Copy address</button>');
    // Signed out, nobody is offered the account's pages.
    expect(page).not.toContain('href="/settings"');
    expect(page).toContain('Settings → Connectors → Add custom connector');
    expect(page).toContain('Streamable HTTP');
    expect(page).toContain('<a href="/api/docs">REST API reference</a>');
    expect(page).toContain('<a href="https://innkeep.test/api/docs">REST API reference</a>');
    // The skip link comes before every other link and control; the navigation before the content.
    expect(page.indexOf('skip-link')).toBeLessThan(page.indexOf('class="brand"'));
    expect(page.indexOf('aria-label="Site"')).toBeLessThan(page.indexOf('<main id="main" tabindex="-1">'));
  });

  it('gives the sign-in page the signed-out navigation, marking sign-in', async () => {
    const page = (await browse(app, new CookieJar(), { url: '/login' })).body;
    expect(page).toMatch(
      /<nav class="site" aria-label="Site">\n<a href="\/">Home<\/a>\n<a href="\/login\?next=%2F" aria-current="page">Sign in<\/a>\n<a href="\/api\/docs">REST API reference<\/a>\n<\/nav>/,
    );
    expect(page).toContain('<a class="brand" href="/">Innkeep</a>');
    expect(page).not.toContain('action="/logout"');
  });

  it('signs in back to the dashboard, with subscription, connected assistants and activity', async () => {
    const host = await createHost(world, { subscriptionStatus: 'active' });
    await connectClient(world, host.userId, 'client_claude_home', 'Claude');
    await world.identity.updateProfile(actorOf(host, 'mcp', 'client_claude_home'), { lastName: 'Harbour' });
    const webhook = await world.domain.webhooks.create(actorOf(host, 'web', null), {
      url: 'https://hooks.example.com/innkeep',
      events: ['reservation.created'],
    });

    const jar = new CookieJar();
    const signedIn = await signIn(app, jar, host, '/');
    expect(signedIn.headers.location).toBe('/');
    const response = await browse(app, jar, { url: '/' });
    expect(response.statusCode).toBe(200);
    const page = response.body;
    expect(page).toContain('<a class="skip-link" href="#main">Skip to content</a>');
    expect(page).toMatch(
      /<nav class="site" aria-label="Site">\n<a href="\/" aria-current="page">Home<\/a>\n<a href="\/settings">Settings<\/a>\n<a href="\/settings\/apps">Connected assistants<\/a>\n<a href="\/settings\/webhooks">Webhooks<\/a>\n<form method="post" action="\/logout">/,
    );
    expect(page).toContain('<a class="brand" href="/">Innkeep</a>');
    expect(page).toContain('In good standing');
    expect(page).toMatch(/<strong class="wrap">Claude<\/strong> <span class="hint">last used Mar 1, 2027/);
    expect(page).toContain('<p class="copyable" id="mcp-url"><code>https://innkeep.test/mcp</code></p>');

    const [created, renamed] = entriesOf(page);
    expect(created).toContain('<code>webhook.create</code> · Webhook ');
    expect(created).toContain(`<a href="/settings/webhooks/${webhook.id}"><code>${webhook.id}</code></a>`);
    expect(created).toContain('By Hannah Harbour through these pages');
    expect(renamed).toContain('<code>user.update_profile</code> · User');
    expect(renamed).toContain('<p class="hint">Fields: lastName</p>');
    expect(renamed).toContain('through <strong>Claude</strong>, an assistant (MCP)');
    // Recorded at the database's time, shown in the account's zone.
    expect(renamed).toMatch(
      /<time datetime="[\d-]+T[\d:.]+Z">\w{3} \d{1,2}, \d{4}, \d{1,2}:\d\d [AP]M E[SD]T<\/time>/,
    );
  });

  it('filters by app and by kind of record, and keeps the filters in the form', async () => {
    const host = await createHost(world);
    await connectClient(world, host.userId, 'client_gpt_home', 'ChatGPT');
    await world.identity.updateProfile(actorOf(host, 'mcp', 'client_gpt_home'), { firstName: 'Hana' });
    await world.identity.updateProfile(actorOf(host, 'rest', 'client_unknown'), { firstName: 'Hanna' });
    await world.domain.webhooks.create(actorOf(host, 'mcp', 'client_gpt_home'), {
      url: 'https://hooks.example.com/gpt',
      events: ['review.created'],
    });
    const jar = await signedInJar(host);

    const byApp = (await browse(app, jar, { url: '/?app=client_gpt_home' })).body;
    expect(entriesOf(byApp).map((entry) => /<code>([a-z_.]+)<\/code>/.exec(entry)?.[1])).toEqual([
      'webhook.create',
      'user.update_profile',
    ]);
    expect(byApp).toContain('<option value="client_gpt_home" selected>ChatGPT</option>');

    const byBoth = (await browse(app, jar, { url: '/?app=client_gpt_home&kind=user' })).body;
    expect(entriesOf(byBoth)).toHaveLength(1);
    expect(byBoth).toContain('<option value="user" selected>User</option>');

    // A client with no grant to name it shows as its id, in the entry and in the form.
    const unknown = (await browse(app, jar, { url: '/?app=client_unknown' })).body;
    expect(entriesOf(unknown)[0]).toContain('through the REST API, client <code>client_unknown</code>');
    expect(unknown).toContain('<option value="client_unknown" selected>client_unknown</option>');

    const none = (await browse(app, jar, { url: '/?kind=review' })).body;
    expect(none).toContain('Nothing matches these filters.');
    // "All" sends empty values: no filter.
    const all = (await browse(app, jar, { url: '/?app=&kind=' })).body;
    // The account's creation, two renames and the webhook.
    expect(entriesOf(all)).toHaveLength(4);
  });

  it('pages with the audit cursor, keeping the filters, and refuses a cursor it did not make', async () => {
    const host = await createHost(world);
    for (let count = 1; count <= 30; count += 1) {
      await world.identity.updateProfile(actorOf(host, 'web', null), { firstName: `Name${count}` });
    }
    const jar = await signedInJar(host);
    const first = (await browse(app, jar, { url: '/?kind=user' })).body;
    expect(entriesOf(first)).toHaveLength(25);
    expect(first).not.toContain('Newest entries');
    const older = linkTo(first, 'Older entries');
    expect(older).toMatch(/^\/\?kind=user&cursor=[A-Za-z0-9_-]+#activity$/);

    const second = await browse(app, jar, { url: older?.replace('#activity', '') ?? '' });
    expect(second.statusCode).toBe(200);
    // 30 renames, the user's only entries: five more, none repeated.
    expect(entriesOf(second.body)).toHaveLength(5);
    expect(linkTo(second.body, 'Newest entries')).toBe('/?kind=user#activity');
    expect(second.body).not.toContain('Older entries');

    const refused = await browse(app, jar, { url: '/?cursor=not-a-cursor' });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('The cursor is not one this list produced');
  });

  it('shows a team member the dashboard without activity, and says why', async () => {
    const host = await createHost(world);
    const manager = { email: `manager.${host.userId}@example.test`, password: 'manager password 1' };
    await world.operator.addSubUser({
      accountId: host.accountId,
      firstName: 'Mo',
      lastName: 'Manager',
      role: 'manager',
      ...manager,
    });
    const response = await browse(app, await signedInJar(manager), { url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<h2>Subscription</h2>');
    expect(response.body).toContain('Only the account owner can read the account’s activity');
    expect(response.body).not.toContain('<ol class="activity">');
    expect(response.body).not.toContain('<form class="filters"');
  });

  it('escapes what users, clients and the query string put on the page', async () => {
    const host = await createHost(world);
    const attack = '<img src=x onerror=alert(1)>';
    await connectClient(world, host.userId, 'client_evil_home', `Evil ${attack}`);
    await world.identity.updateProfile(actorOf(host, 'mcp', 'client_evil_home'), { lastName: '<b>Bold</b>' });
    const jar = await signedInJar(host);
    const page = (await browse(app, jar, { url: `/?app=${encodeURIComponent(`"><script>x</script>`)}` }))
      .body;
    expect(page).not.toContain(attack);
    expect(page).not.toContain('<script>');
    expect(page).toContain('Evil &lt;img src=x onerror=alert(1)&gt;');
    expect(page).toContain('&quot;&gt;&lt;script&gt;x&lt;/script&gt;');

    const unfiltered = (await browse(app, jar, { url: '/' })).body;
    expect(entriesOf(unfiltered)[0]).toContain(
      'By Hannah &lt;b&gt;Bold&lt;/b&gt; through <strong>Evil &lt;img src=x onerror=alert(1)&gt;</strong>',
    );
  });
});
