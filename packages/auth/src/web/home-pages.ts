import {
  type Actor,
  type AuditEntryView,
  type AuditUseCases,
  actorFromPrincipal,
  DomainError,
  type IdentityUseCases,
  type Principal,
  pageLimits,
} from '@innkeep/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ConnectedApp } from '../postgres/connected-apps.ts';
import { formField } from './forms.ts';
import {
  type ActivityView,
  type DashboardActivity,
  renderDashboardPage,
  renderWelcomePage,
  type WaysIn,
} from './home-views.ts';
import type { AccountPageContext } from './webhook-pages.ts';

/**
 * What the home page needs beyond the account pages: the audit log behind the dashboard's activity. Give
 * it only to an app that also serves `/mcp` and `/api` (with `/api/docs`), which the home page points to.
 */
export interface HomePagesOptions {
  readonly audit: AuditUseCases;
}

/** What the account pages lend the home page besides their {@link AccountPageContext}. */
export interface HomePageSources {
  readonly identity: IdentityUseCases;
  /** The assistants the user connected, as the connected-apps page lists them. */
  connectedApps(userId: string): Promise<readonly ConnectedApp[]>;
  /** The public URL of the service without a trailing slash, e.g. `https://innkeep.example`. */
  readonly baseUrl: string;
  /** True when the webhooks pages are served, so webhook entries link to them. */
  readonly webhookPages: boolean;
}

// A screenful: enough to answer "what did my assistant do yesterday?" on most days, small enough to read.
const entriesPerPage = 25;

/** A filter value from the query string; an empty one (the form's "All") is no filter. */
function queryFilter(request: FastifyRequest, name: string): string | undefined {
  const value = formField(request.query, name)?.trim();
  return value === undefined || value === '' ? undefined : value;
}

/**
 * Names of the users who may appear in the log: the account's team, on one page (an account's team is far
 * smaller than the largest page). Someone not among them, a deleted user, shows as an id.
 */
async function userNames(identity: IdentityUseCases, actor: Actor): Promise<Map<string, string>> {
  const { items } = await identity.listUsers(actor, { limit: pageLimits.max });
  return new Map(
    items.map((user) => {
      const name = `${user.firstName} ${user.lastName}`.trim();
      return [user.id, name === '' ? user.email : name];
    }),
  );
}

/**
 * Names of OAuth clients: the connected assistants, and those a disconnection entry on the page named (the
 * client may have no grant left to name it by). Any other client shows as its id.
 */
function clientNames(apps: readonly ConnectedApp[], entries: readonly AuditEntryView[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const entry of entries) {
    const named = entry.details.clientName;
    if (entry.action === 'oauth.disconnect' && entry.clientId !== null && typeof named === 'string') {
      names.set(entry.clientId, named);
    }
  }
  for (const app of apps) names.set(app.clientId, app.clientName);
  return names;
}

/**
 * Registers `GET /` on the account pages' app: for someone signed out, what Innkeep is and how to connect
 * an assistant or use the REST API; for someone signed in, the dashboard — subscription, connected
 * assistants and, for the owner, the account's activity, filtered by app and kind of record and paged.
 */
export function registerHomePages(
  app: FastifyInstance,
  home: HomePagesOptions,
  sources: HomePageSources,
  context: AccountPageContext,
): void {
  const ways: WaysIn = {
    mcpUrl: `${sources.baseUrl}/mcp`,
    apiUrl: `${sources.baseUrl}/api`,
    apiDocsUrl: `${sources.baseUrl}/api/docs`,
  };

  /** The owner's page of activity; `owner_only` for anyone else, as the domain decides. */
  async function activityFor(
    request: FastifyRequest,
    actor: Actor,
    apps: readonly ConnectedApp[],
  ): Promise<DashboardActivity> {
    const filter = { clientId: queryFilter(request, 'app'), targetType: queryFilter(request, 'kind') };
    const cursor = queryFilter(request, 'cursor');
    const shared = { filter, paged: cursor !== undefined, webhookPages: sources.webhookPages };
    try {
      const entries = await home.audit.list(actor, {
        limit: entriesPerPage,
        ...(filter.clientId === undefined ? {} : { clientId: filter.clientId }),
        ...(filter.targetType === undefined ? {} : { targetType: filter.targetType }),
        ...(cursor === undefined ? {} : { cursor }),
      });
      const view: ActivityView = {
        ...shared,
        entries,
        userNames: await userNames(sources.identity, actor),
        clientNames: clientNames(apps, entries.items),
      };
      return { kind: 'shown', view };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      if (error.code === 'permission_denied') return { kind: 'owner_only' };
      if (error.code !== 'invalid_argument') throw error;
      const view = { ...shared, userNames: new Map(), clientNames: clientNames(apps, []) };
      return { kind: 'refused', message: error.message, view };
    }
  }

  async function dashboard(
    request: FastifyRequest,
    reply: FastifyReply,
    principal: Principal,
  ): Promise<FastifyReply> {
    const actor = actorFromPrincipal(principal, 'web', null);
    const profile = await sources.identity.getUser(actor);
    const apps = await sources.connectedApps(principal.userId);
    const activity = await activityFor(request, actor, apps);
    const page = renderDashboardPage({
      profile,
      csrfToken: context.csrfToken(request, reply),
      apps,
      activity,
      ways,
      served: context.served,
    });
    return context.sendPage(reply, activity.kind === 'refused' ? 400 : 200, page);
  }

  app.get('/', async (request, reply) => {
    const principal = await context.signedIn(request, reply);
    if (principal === null) return context.sendPage(reply, 200, renderWelcomePage(ways, context.served));
    return dashboard(request, reply, principal);
  });
}
