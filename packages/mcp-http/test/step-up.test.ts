import {
  authorizeInBrowser,
  authorizeUrl,
  Browser,
  pkcePair,
  registerClient,
  SdkOauthClient,
  type SdkOauthClientOptions,
  tokenRequest,
} from '@innkeep/auth/testing';
import { mcpFirstConnectionScopes } from '@innkeep/mcp-tools';
import { testDatabaseKinds } from '@innkeep/storage/testing';
import {
  Client,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { UnauthorizedError as V1UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  demoOwner,
  type McpWorld,
  openMcpWorld,
  type Person,
  post,
  type RunningApp,
  rpc,
  startApp,
  tokenFor,
} from './support/mcp-world.ts';

const redirectUrl = 'http://127.0.0.1:48998/callback';

/**
 * The step-up tests' SDK clients but for what sets the SDKs apart: the person's browser is one for all of a
 * client's authorizations, so the second finds them signed in.
 */
function stepUpClientOptions(person: Person): SdkOauthClientOptions {
  return { person, clientName: 'Step-up end to end', redirectUrl, browser: new Browser() };
}

/** A v2 SDK client: it also keeps what it discovered. */
class V2OauthClient extends SdkOauthClient implements OAuthClientProvider {
  discovery: OAuthDiscoveryState | undefined;

  constructor(person: Person) {
    super(stepUpClientOptions(person));
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }
}

/** The scopes a consent page sets apart as newly asked for (empty on a first connection). */
function newScopesOn(page: string | undefined): string[] {
  const list = /<ul class="scopes new">([\s\S]*?)<\/ul>/.exec(page ?? '')?.[1] ?? '';
  return [...list.matchAll(/name="scope" value="([^"]+)"/g)].map((match) => match[1] ?? '');
}

/** The scopes a consent page asks for again, marked as allowed before. */
function scopesAllowedBeforeOn(page: string | undefined): string[] {
  const list = /<ul class="scopes again">([\s\S]*?)<\/ul>/.exec(page ?? '')?.[1] ?? '';
  return [...list.matchAll(/name="scope" value="([^"]+)"/g)].map((match) => match[1] ?? '');
}

/** Words of a space-separated scope parameter, without the OpenID ones the client may add. */
function innkeepScopes(scope: string | null | undefined): string[] {
  return (scope ?? '').split(' ').filter((word) => word !== '' && word !== 'offline_access');
}

/**
 * Checks a client's second authorization, the step-up: it asks for what the first got plus calendar:write,
 * and the consent page sets calendar:write apart as new from what was allowed before.
 */
function expectSteppedUp(oauth: SdkOauthClient): void {
  expect(oauth.authorizations).toHaveLength(2);
  const stepUp = oauth.authorizations[1];
  expect(innkeepScopes(stepUp?.url.searchParams.get('scope')).sort()).toEqual(
    [...mcpFirstConnectionScopes, 'calendar:write'].sort(),
  );
  expect(newScopesOn(stepUp?.outcome.consentPage)).toEqual(['calendar:write']);
  expect(scopesAllowedBeforeOn(stepUp?.outcome.consentPage)).toEqual(mcpFirstConnectionScopes);
  expect(stepUp?.outcome.consentPage).toContain('New: it also asks to');
}

/** Two nights `days` ahead, far enough that no demo reservation holds them. */
function nightsAhead(days: number): { startDate: string; endDate: string } {
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  return { startDate: day(days), endDate: day(days + 1) };
}

describe.each(testDatabaseKinds)('step-up of scopes on /mcp on %s', (kind) => {
  let world: McpWorld;
  let server: RunningApp;
  let owner: Person;
  let listingId: string;

  beforeAll(async () => {
    world = await openMcpWorld(kind);
    server = await startApp(world);
    owner = await demoOwner(world);
    const listed = await post(
      server.mcpUrl,
      rpc('tools/call', { name: 'list_listings', arguments: { limit: 1 } }),
      await tokenFor(server, owner),
    );
    listingId =
      (listed.body as { result: { structuredContent: { items: { id: string }[] } } }).result.structuredContent
        .items[0]?.id ?? '';
  }, 180_000);

  afterAll(async () => {
    await server?.app.close();
    await world?.close();
  });

  /** The 403 message of set_availability without calendar:write, which tells the person what to do. */
  const instruction =
    'insufficient_scope: The tool set_availability needs calendar:write, which this connection was not ' +
    "granted. Reconnect Innkeep in the assistant and, on Innkeep's consent page, allow calendar:write " +
    '(“Block dates and change prices”).';

  /** Blocks two nights `days` ahead: a call that needs calendar:write. */
  const blockNights = (days: number, note?: string) => ({
    name: 'set_availability',
    arguments: { listingId, ...nightsAhead(days), available: false, ...(note === undefined ? {} : { note }) },
  });

  /**
   * Blocks the two nights `days` ahead with a client now granted calendar:write, and checks that the
   * calendar shows them blocked with `note`.
   */
  async function expectBlocksNights(
    callTool: (call: {
      name: string;
      arguments: Record<string, unknown>;
    }) => Promise<Record<string, unknown>>,
    days: number,
    note: string,
  ): Promise<void> {
    const blocked = await callTool(blockNights(days, note));
    expect(blocked.structuredContent).toMatchObject({ changedNights: 2 });
    const calendar = await callTool({ name: 'get_calendar', arguments: { listingId, ...nightsAhead(days) } });
    expect(calendar.structuredContent).toMatchObject({
      days: [
        { status: 'blocked', note },
        { status: 'blocked', note },
      ],
    });
  }

  it('v2 client: read-only first, then a write asks for its scope, the page shows it as new, and the call succeeds', async () => {
    const oauth = new V2OauthClient(owner);
    const url = new URL(server.mcpUrl);
    const client = new Client({ name: 'step-up-v2', version: '1.0.0' });
    try {
      const first = new StreamableHTTPClientTransport(url, { authProvider: oauth });
      await expect(client.connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
      const [connecting] = oauth.authorizations;
      expect(innkeepScopes(connecting?.url.searchParams.get('scope'))).toEqual(mcpFirstConnectionScopes);
      expect(connecting?.outcome.offered).toEqual(mcpFirstConnectionScopes);
      expect(newScopesOn(connecting?.outcome.consentPage)).toEqual([]);
      await first.finishAuth(oauth.callback);
      expect(innkeepScopes(oauth.saved?.scope)).toEqual(mcpFirstConnectionScopes);

      const transport = new StreamableHTTPClientTransport(url, { authProvider: oauth });
      await client.connect(transport);
      // 403 insufficient_scope → the client authorizes again for what it had plus calendar:write.
      await expect(client.callTool(blockNights(300, 'step-up'))).rejects.toBeInstanceOf(UnauthorizedError);
      expectSteppedUp(oauth);
      await transport.finishAuth(oauth.callback);
      expect(innkeepScopes(oauth.saved?.scope)).toContain('calendar:write');

      await expectBlocksNights((call) => client.callTool(call), 300, 'step-up');
    } finally {
      await client.close();
    }
  });

  it('v1 client: its refresh after the 403 is refused, so it authorizes again with the wider scope and the call succeeds', async () => {
    // SDK 1.x drops what the server refused through the provider, then starts over without it.
    const oauth = new SdkOauthClient({ ...stepUpClientOptions(owner), invalidatesCredentials: true });
    const url = new URL(server.mcpUrl);
    // What came back on each 403 of /mcp and each refused token request, as the client received them.
    const refusals: string[] = [];
    const tokenRefusals: { status: number; body: unknown }[] = [];
    const recordingFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (response.status === 403) refusals.push(await response.clone().text());
      const target = input instanceof Request ? input.url : String(input);
      if (target.endsWith('/oauth/token') && !response.ok) {
        tokenRefusals.push({ status: response.status, body: await response.clone().json() });
      }
      return response;
    };
    const client = new V1Client({ name: 'step-up-v1', version: '1.0.0' });
    try {
      const first = new V1StreamableHTTPClientTransport(url, { authProvider: oauth, fetch: recordingFetch });
      await expect(client.connect(first)).rejects.toBeInstanceOf(V1UnauthorizedError);
      expect(innkeepScopes(oauth.authorizations[0]?.url.searchParams.get('scope'))).toEqual(
        mcpFirstConnectionScopes,
      );
      await first.finishAuth(oauth.callback.get('code') ?? '');
      const transport = new V1StreamableHTTPClientTransport(url, {
        authProvider: oauth,
        fetch: recordingFetch,
      });
      await client.connect(transport);
      const readOnly = oauth.saved;
      expect(readOnly?.refresh_token).toBeDefined();

      // 403 → SDK 1.x refreshes → the refresh is refused → it drops its tokens and authorizes again with
      // the scope of the challenge, which names calendar:write beside what it had.
      await expect(client.callTool(blockNights(310, 'step-up-v1'))).rejects.toBeInstanceOf(
        V1UnauthorizedError,
      );
      expect(refusals.map((refusal) => JSON.parse(refusal).error.message)).toEqual([instruction]);
      expect(tokenRefusals).toHaveLength(1);
      expect(tokenRefusals[0]?.status).toBe(400);
      expect(tokenRefusals[0]?.body).toEqual({
        error: 'invalid_grant',
        error_description:
          'This connection must be authorized again to allow calendar:write, which a refused request ' +
          'needed: a refresh cannot add scopes. This refresh token no longer works.',
      });
      expectSteppedUp(oauth);

      // The refused refresh token is gone: retrying it cannot lead back to the same refusal.
      const retried = await tokenRequest(server.origin, {
        grant_type: 'refresh_token',
        refresh_token: readOnly?.refresh_token ?? '',
        client_id: String(oauth.information?.client_id),
      });
      expect(retried.body).toMatchObject({ error: 'invalid_grant' });

      await transport.finishAuth(oauth.callback.get('code') ?? '');
      expect(innkeepScopes(oauth.saved?.scope)).toContain('calendar:write');
      await expectBlocksNights((call) => client.callTool(call), 310, 'step-up-v1');
    } finally {
      await client.close();
    }
  });

  /**
   * A client of its own, authorized on /mcp step by step in one browser of the person, who asks Innkeep to
   * remember each decision: a later authorization then adds to the same grant.
   */
  async function rememberedConnection({ confidential = false } = {}) {
    // Registered by hand, with what the SDK clients register with (and a secret, when confidential).
    const client = await registerClient(server.origin, {
      ...new SdkOauthClient(stepUpClientOptions(owner)).clientMetadata,
      ...(confidential ? { token_endpoint_auth_method: 'client_secret_post' } : {}),
    });
    const secret: Record<string, string> = confidential
      ? { client_secret: String(client.client_secret) }
      : {};
    const browser = new Browser();
    return {
      /** Authorizes `scopes`, of which the person leaves `allowed` ticked, and exchanges the code. */
      async authorize(scopes: readonly string[], allowed: readonly string[] = scopes) {
        const { verifier, challenge } = pkcePair();
        const asked = { resource: server.mcpUrl, scope: scopes.join(' ') };
        const outcome = await authorizeInBrowser(
          browser,
          authorizeUrl(
            server.baseUrl,
            { client_id: client.client_id, redirect_uri: redirectUrl },
            challenge,
            asked,
          ),
          owner,
          { decision: 'allow', scopes: allowed, remember: true },
        );
        const token = await tokenRequest(server.origin, {
          grant_type: 'authorization_code',
          code: outcome.redirect.searchParams.get('code') ?? '',
          redirect_uri: redirectUrl,
          code_verifier: verifier,
          client_id: client.client_id,
          ...secret,
          resource: server.mcpUrl,
        });
        expect(token.status).toBe(200);
        return {
          outcome,
          clientId: client.client_id,
          tokens: token.body as { access_token: string; refresh_token: string },
        };
      },
      refresh: (refreshToken: string) =>
        tokenRequest(server.origin, {
          grant_type: 'refresh_token',
          refresh_token: refreshToken,
          client_id: client.client_id,
          ...secret,
        }),
      /** The scopes of each step-up mark on the client's grants. */
      async marks(): Promise<string[][]> {
        const rows = await world.db
          .selectFrom('oauth_step_up_marks')
          .innerJoin('oidc_model', (join) =>
            join
              .on('oidc_model.model', '=', 'Grant')
              .onRef('oidc_model.id', '=', 'oauth_step_up_marks.grant_id'),
          )
          .select('oauth_step_up_marks.scopes')
          .where(sql<string>`oidc_model.payload->>'clientId'`, '=', client.client_id)
          .execute();
        return rows.map((row) => row.scopes.split(' ').sort());
      },
    };
  }

  it('a refresh whose grant has since got the marked scopes goes through and takes the mark', async () => {
    const connection = await rememberedConnection();
    const readOnly = await connection.authorize(mcpFirstConnectionScopes);
    const refused = await post(
      server.mcpUrl,
      rpc('tools/call', blockNights(320)),
      readOnly.tokens.access_token,
    );
    expect(refused.status).toBe(403);
    expect(await connection.marks()).toEqual([[...mcpFirstConnectionScopes, 'calendar:write'].sort()]);
    // A request in another client's name is the provider's to refuse; it leaves the mark alone.
    const stranger = await tokenRequest(server.origin, {
      grant_type: 'refresh_token',
      refresh_token: readOnly.tokens.refresh_token,
      client_id: 'another-client',
    });
    expect(stranger.body).toMatchObject({ error: 'invalid_client' });
    expect(await connection.marks()).toHaveLength(1);

    // The client authorizes again for calendar:write, as a v2 client does after the 403, and the person
    // allows it: the remembered grant now has it, so a refresh gets it and is not refused.
    const widened = await connection.authorize([...mcpFirstConnectionScopes, 'calendar:write']);
    expect(newScopesOn(widened.outcome.consentPage)).toEqual(['calendar:write']);
    const refreshed = await connection.refresh(widened.tokens.refresh_token);
    expect(refreshed.status).toBe(200);
    expect(innkeepScopes(String(refreshed.body.scope))).toContain('calendar:write');
    expect(await connection.marks()).toEqual([]);
  });

  it('a confidential client’s refresh is left to the provider, which alone can authenticate it', async () => {
    const connection = await rememberedConnection({ confidential: true });
    const readOnly = await connection.authorize(mcpFirstConnectionScopes);
    const refused = await post(
      server.mcpUrl,
      rpc('tools/call', blockNights(330)),
      readOnly.tokens.access_token,
    );
    expect(refused.status).toBe(403);
    expect(await connection.marks()).toHaveLength(1);
    // Whoever holds the refresh token without the secret cannot have it deleted by the step-up check.
    const withoutSecret = await tokenRequest(server.origin, {
      grant_type: 'refresh_token',
      refresh_token: readOnly.tokens.refresh_token,
      client_id: readOnly.clientId,
    });
    expect(withoutSecret.body).toMatchObject({ error: 'invalid_client' });
    const refreshed = await connection.refresh(readOnly.tokens.refresh_token);
    expect(refreshed.status).toBe(200);
  });

  it('a refresh is not refused for a scope the person unticked: authorizing again would not ask for it', async () => {
    const connection = await rememberedConnection();
    const withoutReviews = mcpFirstConnectionScopes.filter((scope) => scope !== 'reviews:read');
    const granted = await connection.authorize(mcpFirstConnectionScopes, withoutReviews);
    const refused = await post(
      server.mcpUrl,
      rpc('tools/call', { name: 'get_reviews', arguments: {} }),
      granted.tokens.access_token,
    );
    expect(refused.status).toBe(403);
    expect(await connection.marks()).toEqual([[...withoutReviews, 'reviews:read'].sort()]);

    // The remembered grant holds reviews:read as refused, so the consent page would never offer it again:
    // refusing the refresh would only send the client round in circles. The 403's message says what to do.
    const refreshed = await connection.refresh(granted.tokens.refresh_token);
    expect(refreshed.status).toBe(200);
    expect(innkeepScopes(String(refreshed.body.scope))).not.toContain('reviews:read');
    expect(await connection.marks()).toEqual([]);
  });

  it('a database fault while marking the grant still answers 403 with the instruction', async () => {
    const token = await tokenFor(server, owner, mcpFirstConnectionScopes);
    await sql`alter table oauth_step_up_marks rename to oauth_step_up_marks_away`.execute(world.db);
    try {
      const refused = await post(server.mcpUrl, rpc('tools/call', blockNights(330)), token);
      expect(refused.status).toBe(403);
      expect(refused.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
      expect((refused.body as { error: { message: string } }).error.message).toBe(instruction);
    } finally {
      await sql`alter table oauth_step_up_marks_away rename to oauth_step_up_marks`.execute(world.db);
    }
  });

  it('v1 client given the token as a header: the 403 message says to reconnect and allow the scope', async () => {
    // No OAuth provider to retry with: the client throws with the server's message, which is what the
    // person and the model read.
    const withHeader = new V1Client({ name: 'step-up-v1-header', version: '1.0.0' });
    try {
      await withHeader.connect(
        new V1StreamableHTTPClientTransport(new URL(server.mcpUrl), {
          requestInit: {
            headers: { authorization: `Bearer ${await tokenFor(server, owner, mcpFirstConnectionScopes)}` },
          },
        }),
      );
      const refused = await withHeader.callTool(blockNights(340)).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toMatchObject({ code: 403 });
      expect(String((refused as Error).message)).toContain(JSON.stringify(instruction));
    } finally {
      await withHeader.close();
    }
  });
});
