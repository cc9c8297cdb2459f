import {
  type Actor,
  actorFromPrincipal,
  DomainError,
  errorCatalogue,
  type ListingUseCases,
  type Principal,
} from '@innkeep/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { renderMessagePage } from './account-views.ts';
import { formField } from './forms.ts';
import {
  channelSectionId,
  type ListingChannelsView,
  listingChannelsPath,
  type RefusedChannelForm,
  renderListingChannelsPage,
  renderListingsPage,
} from './listing-views.ts';
import type { AccountPageContext } from './webhook-pages.ts';

// Listing and channel account ids are `lst_…` and `cha_…`; the domain accepts up to 64 characters.
const idPattern = /^[A-Za-z0-9_-]{1,64}$/;
// A form of the channels page carries at most a URL of 2,000 characters and the CSRF token.
const formBodyLimit = 16 * 1024;
const listingsPerPage = 50;
const listPath = '/listings';
const channelNotices: Readonly<Record<string, string>> = {
  export_replaced:
    'The calendar export URL is replaced and the old one no longer works: paste the new one into the channel’s calendar import.',
  import_saved:
    'The channel’s calendar URL is saved. Innkeep reads it within minutes; until then its status is “Not fetched yet”.',
  import_stopped:
    'Innkeep no longer reads that channel’s calendar, and the nights still to come that its stays held here are free again.',
};

function notFoundPage(context: AccountPageContext, reply: FastifyReply, message: string): FastifyReply {
  return context.sendPage(
    reply,
    404,
    renderMessagePage({ title: 'Not found', message, link: { href: listPath, label: 'Back to listings' } }),
  );
}

/** The ids in a path, or null when one could not be any id: refused before the domain, like a foreign id. */
function pathIds(
  request: FastifyRequest,
): { listingId: string; channelAccountId: string | undefined } | null {
  const listingId = formField(request.params, 'listingId') ?? '';
  const channelAccountId = formField(request.params, 'channelAccountId');
  if (!idPattern.test(listingId)) return null;
  if (channelAccountId !== undefined && !idPattern.test(channelAccountId)) return null;
  return { listingId, channelAccountId };
}

/**
 * What to tell someone whose form the domain refused: for invalid input, the rules the fields broke (the
 * domain's own words, without its field paths); else the error's message.
 */
function refusalMessage(error: DomainError): string {
  const issues = error.details?.issues;
  if (error.code !== 'invalid_argument' || !Array.isArray(issues)) return error.message;
  const reasons = issues
    .map((issue: unknown) => formField(issue, 'message'))
    .filter((message): message is string => message !== undefined);
  return reasons.length === 0 ? error.message : reasons.join(' ');
}

/** What the listings pages are built from. */
export interface ListingPagesSources {
  readonly listings: ListingUseCases;
  /** The public URL of the service, which completes export URLs the domain gives as paths. */
  readonly baseUrl: string;
}

/**
 * Registers the listings pages on the account pages' app: `GET /listings` (the account's listings, a page
 * at a time) and `GET /listings/:listingId/channels` (each channel link's calendar export URL and calendar
 * import), with the posts behind its forms: replace an export URL, set an import URL, stop importing. Every
 * write goes through the domain's use cases as the signed-in user, so a viewer's is refused there; viewers
 * are shown no forms to begin with.
 */
export function registerListingPages(
  app: FastifyInstance,
  { listings, baseUrl }: ListingPagesSources,
  context: AccountPageContext,
): void {
  async function channelsPage(
    request: FastifyRequest,
    reply: FastifyReply,
    principal: Principal,
    listingId: string,
    extra: Pick<ListingChannelsView, 'notice' | 'error' | 'refused'> = {},
  ): Promise<string> {
    const found = await listings.get(actorFromPrincipal(principal, 'web', null), listingId);
    // A domain built without the public address gives export URLs as paths; a channel needs them whole.
    const channels = found.channels.map((link) => ({
      ...link,
      calendarExportUrl: new URL(link.calendarExportUrl, baseUrl).href,
    }));
    const listing = { ...found, channels };
    return renderListingChannelsPage({
      signedInAs: principal.email,
      csrfToken: context.csrfToken(request, reply),
      served: context.served,
      listing,
      canChange: principal.role !== 'viewer',
      ...extra,
    });
  }

  /**
   * Answers a write the domain refused: a 404 page for a listing or link not in this account, else the
   * channels page with why — beside the form that was sent (`refused`) for invalid input, at the top
   * otherwise — under the code's status. Nothing was changed either way.
   */
  async function refused(
    request: FastifyRequest,
    reply: FastifyReply,
    error: unknown,
    post: { principal: Principal; listingId: string; refused: Omit<RefusedChannelForm, 'message'> },
  ): Promise<FastifyReply> {
    if (!(error instanceof DomainError)) throw error;
    if (error.code === 'not_found') return notFoundPage(context, reply, error.message);
    const message = refusalMessage(error);
    const shown =
      error.code === 'invalid_argument' ? { refused: { ...post.refused, message } } : { error: message };
    const page = await channelsPage(request, reply, post.principal, post.listingId, shown);
    return context.sendPage(reply, errorCatalogue[error.code].httpStatus, page);
  }

  /**
   * The common start of every post: a trusted form, a signed-in person, ids that could exist. Null when
   * the answer (refusal, sign-in redirect, 404) has been sent.
   */
  async function startPost(
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<{ principal: Principal; actor: Actor; listingId: string; channelAccountId: string } | null> {
    if (!context.isTrustedFormPost(request)) {
      context.refuseForm(reply);
      return null;
    }
    const principal = await context.signedIn(request, reply);
    const ids = pathIds(request);
    if (principal === null) {
      context.toSignIn(reply, ids === null ? listPath : listingChannelsPath(ids.listingId));
      return null;
    }
    if (ids === null || ids.channelAccountId === undefined) {
      notFoundPage(context, reply, 'There is no such listing or channel link in this account.');
      return null;
    }
    return {
      principal,
      actor: actorFromPrincipal(principal, 'web', null),
      listingId: ids.listingId,
      channelAccountId: ids.channelAccountId,
    };
  }

  /** After a change: back to the channels page, at the link's section, saying what happened. */
  function changed(reply: FastifyReply, listingId: string, channelAccountId: string, done: string) {
    const section = encodeURIComponent(channelSectionId(channelAccountId));
    return reply.redirect(`${listingChannelsPath(listingId)}?done=${done}#${section}`, 303);
  }

  app.get(listPath, async (request, reply) => {
    const principal = await context.signedIn(request, reply);
    if (principal === null) return context.toSignIn(reply, request.url);
    const cursor = formField(request.query, 'cursor');
    const page = await listings.list(actorFromPrincipal(principal, 'web', null), {
      limit: listingsPerPage,
      ...(cursor === undefined ? {} : { cursor }),
    });
    return context.sendPage(
      reply,
      200,
      renderListingsPage({
        signedInAs: principal.email,
        csrfToken: context.csrfToken(request, reply),
        served: context.served,
        listings: page,
        paged: cursor !== undefined,
      }),
    );
  });

  app.get(`${listPath}/:listingId/channels`, async (request, reply) => {
    const principal = await context.signedIn(request, reply);
    if (principal === null) return context.toSignIn(reply, request.url);
    const ids = pathIds(request);
    if (ids === null) return notFoundPage(context, reply, 'There is no such listing in this account.');
    const notice = channelNotices[formField(request.query, 'done') ?? ''];
    try {
      return context.sendPage(
        reply,
        200,
        await channelsPage(request, reply, principal, ids.listingId, { notice }),
      );
    } catch (error) {
      if (error instanceof DomainError && error.code === 'not_found') {
        return notFoundPage(context, reply, error.message);
      }
      throw error;
    }
  });

  app.post(
    `${listPath}/:listingId/channels/:channelAccountId/export-url`,
    { bodyLimit: formBodyLimit },
    async (request, reply) => {
      const started = await startPost(request, reply);
      if (started === null) return reply;
      const { principal, actor, listingId, channelAccountId } = started;
      const form = { channelAccountId, form: 'export' } as const;
      try {
        // The old URL stops working at once, so a replacement takes the ticked box, never a stray click.
        if (formField(request.body, 'confirm') !== 'yes') {
          const message = 'Tick the box to confirm: the current URL stops working once it is replaced.';
          const page = await channelsPage(request, reply, principal, listingId, {
            refused: { ...form, message },
          });
          return context.sendPage(reply, 400, page);
        }
        await listings.reissueCalendarExportUrl(actor, { listingId, channelAccountId });
      } catch (error) {
        return refused(request, reply, error, { principal, listingId, refused: form });
      }
      return changed(reply, listingId, channelAccountId, 'export_replaced');
    },
  );

  app.post(
    `${listPath}/:listingId/channels/:channelAccountId/import`,
    { bodyLimit: formBodyLimit },
    async (request, reply) => {
      const started = await startPost(request, reply);
      if (started === null) return reply;
      const { principal, actor, listingId, channelAccountId } = started;
      const url = (formField(request.body, 'url') ?? '').trim();
      try {
        await listings.setCalendarImportUrl(actor, { listingId, channelAccountId, url });
      } catch (error) {
        return refused(request, reply, error, {
          principal,
          listingId,
          refused: { channelAccountId, form: 'import', url },
        });
      }
      return changed(reply, listingId, channelAccountId, 'import_saved');
    },
  );

  app.post(
    `${listPath}/:listingId/channels/:channelAccountId/import/stop`,
    { bodyLimit: formBodyLimit },
    async (request, reply) => {
      const started = await startPost(request, reply);
      if (started === null) return reply;
      const { principal, actor, listingId, channelAccountId } = started;
      try {
        await listings.setCalendarImportUrl(actor, { listingId, channelAccountId, url: null });
      } catch (error) {
        return refused(request, reply, error, {
          principal,
          listingId,
          refused: { channelAccountId, form: 'import' },
        });
      }
      return changed(reply, listingId, channelAccountId, 'import_stopped');
    },
  );
}
