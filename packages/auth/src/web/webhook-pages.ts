import {
  type Actor,
  actorFromPrincipal,
  DomainError,
  errorCatalogue,
  maxWebhooksPerAccount,
  notFound,
  type Principal,
  type Webhook,
  type WebhookDeliveryUseCases,
  type WebhookUseCases,
  webhookEvents,
} from '@innkeep/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { renderMessagePage } from './account-views.ts';
import { formField } from './forms.ts';
import type { ServedPages } from './site-nav.ts';
import {
  renderDeleteWebhookPage,
  renderWebhookPage,
  renderWebhooksPage,
  type ShownSecret,
  type WebhookDraft,
  type WebhookPageView,
} from './webhook-views.ts';

/** The use cases behind the webhooks page: the domain's `webhooks` and `webhookDeliveries`. */
export interface WebhookPagesOptions {
  readonly subscriptions: WebhookUseCases;
  readonly deliveries: WebhookDeliveryUseCases;
}

/** What the account pages lend the webhooks page: who is signed in, and how their forms are checked. */
export interface AccountPageContext {
  /** The signed-in principal, or null (its cookie cleared) when nobody is. */
  signedIn(request: FastifyRequest, reply: FastifyReply): Promise<Principal | null>;
  /** Redirects to sign-in, coming back to `next` afterwards. */
  toSignIn(reply: FastifyReply, next: string): FastifyReply;
  /** True when a form post comes from our own page with a valid CSRF token. */
  isTrustedFormPost(request: FastifyRequest): boolean;
  /** Answers a form post that is not trusted, changing nothing. */
  refuseForm(reply: FastifyReply): FastifyReply;
  /** The `csrf` value for the forms of the page being rendered. */
  csrfToken(request: FastifyRequest, reply: FastifyReply): string;
  /** Sends an HTML page with `status`. */
  sendPage(reply: FastifyReply, status: number, page: string): FastifyReply;
  /** The optional pages this server serves, which the navigation links to. */
  readonly served: ServedPages;
}

// Subscription and delivery ids are `whk_…` and `whd_…`; the domain accepts up to 64 characters.
const idPattern = /^[A-Za-z0-9_-]{1,64}$/;
// A form of the webhooks page carries a URL of at most 2,000 characters and a few event names.
const formBodyLimit = 16 * 1024;
const deliveriesPerPage = 20;
const listPath = '/settings/webhooks';
const webhookNotices: Readonly<Record<string, string>> = {
  saved: 'Your changes are saved.',
  unchanged: 'Nothing was changed: the form matched the webhook’s settings.',
  turned_off: 'Deliveries are off. New events wait, pending, until you turn them on again.',
  turned_on: 'Deliveries are on again, and the failure count is reset.',
  test_sent: 'A webhook.test event is on its way; it appears in the log below within seconds.',
  redelivered: 'The delivery is pending again and is sent within seconds.',
};
const listNotices: Readonly<Record<string, string>> = { deleted: 'The webhook is deleted.' };

/** Every value of a form field that may repeat (checkboxes); one value arrives as a string, several as an array. */
function formValues(source: unknown, name: string): string[] {
  if (typeof source !== 'object' || source === null) return [];
  const value = (source as Record<string, unknown>)[name];
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** The subscription form as typed: the URL, and the checked events in the catalogue's order. */
function draftFrom(body: unknown): WebhookDraft {
  const checked = new Set(formValues(body, 'events'));
  return {
    url: (formField(body, 'url') ?? '').trim(),
    events: webhookEvents.filter((event) => checked.has(event)),
  };
}

/** True when both lists name the same events, in whatever order. */
function sameEvents(some: readonly string[], others: readonly string[]): boolean {
  return some.length === others.length && some.every((event) => others.includes(event));
}

function notFoundPage(context: AccountPageContext, reply: FastifyReply, message: string): FastifyReply {
  return context.sendPage(
    reply,
    404,
    renderMessagePage({ title: 'Not found', message, link: { href: listPath, label: 'Back to webhooks' } }),
  );
}

/**
 * The ids in a path, or null when one could not be any id: refused before the domain, like a foreign id.
 */
function pathIds(request: FastifyRequest): { webhookId: string; deliveryId: string | undefined } | null {
  const webhookId = formField(request.params, 'webhookId') ?? '';
  const deliveryId = formField(request.params, 'deliveryId');
  if (!idPattern.test(webhookId)) return null;
  if (deliveryId !== undefined && !idPattern.test(deliveryId)) return null;
  return { webhookId, deliveryId };
}

/**
 * Registers the webhooks page on the account pages' app: `GET /settings/webhooks` (list and add),
 * `GET /settings/webhooks/:webhookId` (settings, on/off, test, secret, delivery log), the delete
 * confirmation, and the posts behind each form. Every write goes through the domain's use cases as the
 * signed-in user, so a viewer's is refused there and shown on the page.
 */
export function registerWebhookPages(
  app: FastifyInstance,
  webhooks: WebhookPagesOptions,
  context: AccountPageContext,
): void {
  const { subscriptions, deliveries } = webhooks;

  /** One subscription of the actor's account; `not_found` for any other id. */
  async function findWebhook(actor: Actor, webhookId: string): Promise<Webhook> {
    // An account has at most maxWebhooksPerAccount subscriptions, so one page holds them all.
    const { items } = await subscriptions.list(actor, { limit: maxWebhooksPerAccount });
    const webhook = items.find((item) => item.id === webhookId);
    if (webhook === undefined) throw notFound('webhook', webhookId);
    return webhook;
  }

  /** The subscription's page, with its newest deliveries unless `cursor` names an older page. */
  async function webhookPage(
    request: FastifyRequest,
    reply: FastifyReply,
    principal: Principal,
    webhookId: string,
    extra: Pick<WebhookPageView, 'notice' | 'error' | 'shown' | 'draft' | 'settingsError'> & {
      cursor?: string | undefined;
    } = {},
  ): Promise<string> {
    const { cursor, ...shown } = extra;
    const actor = actorFromPrincipal(principal, 'web', null);
    const webhook = await findWebhook(actor, webhookId);
    const log = await deliveries.listDeliveries(actor, {
      webhookId,
      limit: deliveriesPerPage,
      ...(cursor === undefined ? {} : { cursor }),
    });
    return renderWebhookPage({
      signedInAs: principal.email,
      csrfToken: context.csrfToken(request, reply),
      served: context.served,
      webhook,
      deliveries: log,
      paged: cursor !== undefined,
      ...shown,
    });
  }

  async function listPage(
    request: FastifyRequest,
    reply: FastifyReply,
    principal: Principal,
    extra: { notice?: string | undefined; error?: string; draft?: WebhookDraft } = {},
  ): Promise<string> {
    const actor = actorFromPrincipal(principal, 'web', null);
    const { items } = await subscriptions.list(actor, { limit: maxWebhooksPerAccount });
    return renderWebhooksPage({
      signedInAs: principal.email,
      csrfToken: context.csrfToken(request, reply),
      served: context.served,
      webhooks: items,
      ...extra,
    });
  }

  /**
   * Answers a write the domain refused: a 404 page for an id not in this account, else `again` — the page
   * the form was on, with the domain's message — under the code's status. Nothing was changed either way.
   */
  async function refused(
    reply: FastifyReply,
    error: unknown,
    again: (message: string) => Promise<string>,
  ): Promise<FastifyReply> {
    if (!(error instanceof DomainError)) throw error;
    if (error.code === 'not_found') return notFoundPage(context, reply, error.message);
    return context.sendPage(reply, errorCatalogue[error.code].httpStatus, await again(error.message));
  }

  /**
   * The common start of every post: a trusted form, a signed-in person, ids that could exist. Null when
   * the answer (refusal, sign-in redirect, 404) has been sent.
   */
  async function startPost(
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<{
    principal: Principal;
    actor: Actor;
    webhookId: string;
    deliveryId: string | undefined;
  } | null> {
    if (!context.isTrustedFormPost(request)) {
      context.refuseForm(reply);
      return null;
    }
    const principal = await context.signedIn(request, reply);
    if (principal === null) {
      context.toSignIn(reply, listPath);
      return null;
    }
    const ids = pathIds(request);
    if (ids === null) {
      notFoundPage(context, reply, 'There is no such webhook or delivery in this account.');
      return null;
    }
    return { principal, actor: actorFromPrincipal(principal, 'web', null), ...ids };
  }

  app.get(listPath, async (request, reply) => {
    const principal = await context.signedIn(request, reply);
    if (principal === null) return context.toSignIn(reply, request.url);
    const notice = listNotices[formField(request.query, 'done') ?? ''];
    return context.sendPage(reply, 200, await listPage(request, reply, principal, { notice }));
  });

  app.post(listPath, { bodyLimit: formBodyLimit }, async (request, reply) => {
    if (!context.isTrustedFormPost(request)) return context.refuseForm(reply);
    const principal = await context.signedIn(request, reply);
    if (principal === null) return context.toSignIn(reply, listPath);
    const draft = draftFrom(request.body);
    const again = (error: string) => listPage(request, reply, principal, { error, draft });
    if (draft.events.length === 0)
      return context.sendPage(reply, 400, await again('Choose at least one event.'));
    let created: Awaited<ReturnType<WebhookUseCases['create']>>;
    try {
      created = await subscriptions.create(actorFromPrincipal(principal, 'web', null), {
        url: draft.url,
        events: [...draft.events],
      });
    } catch (error) {
      return refused(reply, error, again);
    }
    // Rendered in this response rather than after a redirect: the secret must never travel in a URL, and
    // nothing but this one page ever shows it.
    const shown: ShownSecret = { secret: created.secret, rotated: false, previousSecretExpiresAt: null };
    const page = await webhookPage(request, reply, principal, created.id, {
      notice: 'The webhook is added. Events are sent to it from now on.',
      shown,
    });
    return context.sendPage(reply, 200, page);
  });

  app.get(`${listPath}/:webhookId`, async (request, reply) => {
    const principal = await context.signedIn(request, reply);
    if (principal === null) return context.toSignIn(reply, request.url);
    const ids = pathIds(request);
    if (ids === null) return notFoundPage(context, reply, 'There is no such webhook in this account.');
    const cursor = formField(request.query, 'cursor');
    const notice = webhookNotices[formField(request.query, 'done') ?? ''];
    try {
      return context.sendPage(
        reply,
        200,
        await webhookPage(request, reply, principal, ids.webhookId, { cursor, notice }),
      );
    } catch (error) {
      if (error instanceof DomainError && error.code === 'not_found') {
        return notFoundPage(context, reply, error.message);
      }
      throw error;
    }
  });

  app.post(`${listPath}/:webhookId`, { bodyLimit: formBodyLimit }, async (request, reply) => {
    const started = await startPost(request, reply);
    if (started === null) return reply;
    const { principal, actor, webhookId } = started;
    const draft = draftFrom(request.body);
    const again = (settingsError: string) =>
      webhookPage(request, reply, principal, webhookId, { draft, settingsError });
    try {
      if (draft.events.length === 0) {
        // Looked up first, so a foreign id answers 404 whatever the form held.
        await findWebhook(actor, webhookId);
        return context.sendPage(reply, 400, await again('Choose at least one event.'));
      }
      const current = await findWebhook(actor, webhookId);
      // Only what differs is sent, so saving an untouched form changes and audits nothing.
      const changes = {
        ...(draft.url === current.url ? {} : { url: draft.url }),
        ...(sameEvents(draft.events, current.events) ? {} : { events: [...draft.events] }),
      };
      if (Object.keys(changes).length === 0) {
        return reply.redirect(`${listPath}/${webhookId}?done=unchanged`, 303);
      }
      await subscriptions.update(actor, { webhookId, ...changes });
    } catch (error) {
      return refused(reply, error, again);
    }
    return reply.redirect(`${listPath}/${webhookId}?done=saved`, 303);
  });

  app.post(`${listPath}/:webhookId/active`, { bodyLimit: formBodyLimit }, async (request, reply) => {
    const started = await startPost(request, reply);
    if (started === null) return reply;
    const { principal, actor, webhookId } = started;
    const active = formField(request.body, 'active') === 'true';
    try {
      await subscriptions.update(actor, { webhookId, active });
    } catch (error) {
      return refused(reply, error, (message) =>
        webhookPage(request, reply, principal, webhookId, { error: message }),
      );
    }
    return reply.redirect(`${listPath}/${webhookId}?done=${active ? 'turned_on' : 'turned_off'}`, 303);
  });

  app.post(`${listPath}/:webhookId/test`, { bodyLimit: formBodyLimit }, async (request, reply) => {
    const started = await startPost(request, reply);
    if (started === null) return reply;
    const { principal, actor, webhookId } = started;
    try {
      await deliveries.sendTest(actor, { webhookId });
    } catch (error) {
      return refused(reply, error, (message) =>
        webhookPage(request, reply, principal, webhookId, { error: message }),
      );
    }
    return reply.redirect(`${listPath}/${webhookId}?done=test_sent#log`, 303);
  });

  app.post(`${listPath}/:webhookId/rotate-secret`, { bodyLimit: formBodyLimit }, async (request, reply) => {
    const started = await startPost(request, reply);
    if (started === null) return reply;
    const { principal, actor, webhookId } = started;
    const overlapField = formField(request.body, 'overlap_hours');
    // Anything but whole hours is left to the domain, which answers with its own rule.
    const overlapHours = overlapField === undefined || overlapField === '' ? undefined : Number(overlapField);
    let rotated: Awaited<ReturnType<WebhookUseCases['rotateSecret']>>;
    try {
      rotated = await subscriptions.rotateSecret(actor, {
        webhookId,
        ...(overlapHours === undefined ? {} : { overlapHours }),
      });
    } catch (error) {
      return refused(reply, error, (message) =>
        webhookPage(request, reply, principal, webhookId, { error: message }),
      );
    }
    // Shown on this response only, as a new subscription's secret is.
    const shown: ShownSecret = {
      secret: rotated.secret,
      rotated: true,
      previousSecretExpiresAt: rotated.previousSecretExpiresAt,
    };
    return context.sendPage(reply, 200, await webhookPage(request, reply, principal, webhookId, { shown }));
  });

  app.get(`${listPath}/:webhookId/delete`, async (request, reply) => {
    const principal = await context.signedIn(request, reply);
    if (principal === null) return context.toSignIn(reply, request.url);
    const ids = pathIds(request);
    if (ids === null) return notFoundPage(context, reply, 'There is no such webhook in this account.');
    try {
      const webhook = await findWebhook(actorFromPrincipal(principal, 'web', null), ids.webhookId);
      const page = renderDeleteWebhookPage({
        signedInAs: principal.email,
        csrfToken: context.csrfToken(request, reply),
        served: context.served,
        webhook,
      });
      return context.sendPage(reply, 200, page);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'not_found') {
        return notFoundPage(context, reply, error.message);
      }
      throw error;
    }
  });

  app.post(`${listPath}/:webhookId/delete`, { bodyLimit: formBodyLimit }, async (request, reply) => {
    const started = await startPost(request, reply);
    if (started === null) return reply;
    const { principal, actor, webhookId } = started;
    try {
      await subscriptions.delete(actor, { webhookId });
    } catch (error) {
      return refused(reply, error, async (message) =>
        renderDeleteWebhookPage({
          signedInAs: principal.email,
          csrfToken: context.csrfToken(request, reply),
          served: context.served,
          webhook: await findWebhook(actor, webhookId),
          error: message,
        }),
      );
    }
    return reply.redirect(`${listPath}?done=deleted`, 303);
  });

  app.post(
    `${listPath}/:webhookId/deliveries/:deliveryId/redeliver`,
    { bodyLimit: formBodyLimit },
    async (request, reply) => {
      const started = await startPost(request, reply);
      if (started === null) return reply;
      const { principal, actor, webhookId, deliveryId } = started;
      try {
        await deliveries.redeliver(actor, { deliveryId: deliveryId ?? '' });
      } catch (error) {
        return refused(reply, error, (message) =>
          webhookPage(request, reply, principal, webhookId, { error: message }),
        );
      }
      return reply.redirect(`${listPath}/${webhookId}?done=redelivered#log`, 303);
    },
  );
}
