import type { Actor, WebhookDeliveryQueue } from '@innkeep/domain';
import {
  createListingGroupOperation,
  createWebhookOperation,
  deleteListingGroupOperation,
  deleteWebhookOperation,
  listListingGroupsOperation,
  listWebhookDeliveriesOperation,
  listWebhooksOperation,
  redeliverWebhookDeliveryOperation,
  regenerateOwnerImportLinkOperation,
  rotateWebhookSecretOperation,
  sendWebhookTestOperation,
  updateListingGroupOperation,
  updateWebhookOperation,
} from '@innkeep/operations';
import { createWebhookDeliveryStore } from '@innkeep/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answerOf, expectError, ownerActor } from './support/rest-expectations.ts';
import {
  authTokenOf,
  bearerTokenOf,
  callApi,
  demoUsers,
  demoViewer,
  openRestWorld,
  type RestWorld,
  type RunningRestApp,
  startRestApp,
} from './support/rest-world.ts';

// Innkeep's own Listing groups and Webhooks routes, served from the full route catalogue.

// On PostgreSQL only: the routes run the operations the storage suite tests on both drivers, and the
// host-tools and plugin suites serve REST from the embedded database too; one kind keeps CI's time down.
describe.each(['postgres'] as const)('Innkeep’s listing-group and webhook routes on %s', (kind) => {
  let world: RestWorld;
  let running: RunningRestApp;
  let demo: Actor;
  let lapsed: Actor;
  let owner: { authToken: string };
  let viewer: { authToken: string };
  let groupsReader: { authorization: string };
  let webhooksManager: { authorization: string };
  let listingIds: string[];
  let otherListingId: string;

  beforeAll(async () => {
    world = await openRestWorld(kind);
    running = await startRestApp(world, { rateLimits: { perCredential: 10_000, withApiKey: 10_000 } });
    demo = await ownerActor(world, demoUsers.owner);
    lapsed = await ownerActor(world, demoUsers.lapsedOwner);
    owner = { authToken: await authTokenOf(world, demoUsers.owner) };
    viewer = { authToken: (await demoViewer(world)).authToken };
    groupsReader = {
      authorization: `Bearer ${await bearerTokenOf(running, { scopes: ['listingGroups:read'] })}`,
    };
    webhooksManager = {
      authorization: `Bearer ${await bearerTokenOf(running, { scopes: ['webhooks:manage', 'listingGroups:write'] })}`,
    };
    listingIds = (await world.domain.listings.list(demo, { limit: 500 })).items.map((listing) => listing.id);
    otherListingId = (await world.domain.listings.list(lapsed, { limit: 1 })).items[0]?.id ?? '';
  }, 300_000);

  afterAll(async () => {
    await running?.close();
    await world?.close();
  });

  describe('Listing groups', () => {
    it('lists listing groups with their sizes, paged', async () => {
      const whole = answerOf(
        await callApi(running, 'GET', '/listListingGroups?membersListed=1', { headers: groupsReader }),
        200,
        listListingGroupsOperation.output,
      );
      expect(whole.items.length).toBeGreaterThan(1);
      for (const group of whole.items) {
        expect(group.members.length).toBeLessThanOrEqual(1);
        expect(group.membersTruncated).toBe(group.memberCount > 1);
      }
      const first = answerOf(
        await callApi(running, 'GET', '/listListingGroups?limit=1&membersListed=1', { headers: viewer }),
        200,
        listListingGroupsOperation.output,
      );
      expect(first).toMatchObject({ hasMore: true, items: whole.items.slice(0, 1) });
      const second = answerOf(
        await callApi(
          running,
          'GET',
          `/listListingGroups?limit=1&membersListed=1&cursor=${first.nextCursor}`,
          {
            headers: owner,
          },
        ),
        200,
        listListingGroupsOperation.output,
      );
      expect(second.items[0]).toEqual(whole.items[1]);
      // The operation pages at most 100 groups; a larger REST limit is lowered to that, not refused.
      answerOf(
        await callApi(running, 'GET', '/listListingGroups?limit=500', { headers: owner }),
        200,
        listListingGroupsOperation.output,
      );
      expectError(
        await callApi(running, 'GET', '/listListingGroups?membersListed=many', { headers: owner }),
        400,
        'invalid_argument',
        'membersListed',
      );
    });

    it('creates, changes, relinks and deletes a listing group', async () => {
      const [first, second, third] = listingIds;
      const created = answerOf(
        await callApi(running, 'POST', '/createListingGroup', {
          headers: webhooksManager,
          body: { name: 'REST owners', listingIds: [first, second], ownerName: 'Olive Owner' },
        }),
        201,
        createListingGroupOperation.output,
      );
      expect(created).toMatchObject({
        name: 'REST owners',
        listingIds: [first, second],
        ownerImportLink: null,
      });
      const changed = answerOf(
        await callApi(running, 'POST', `/updateListingGroup/${created.id}`, {
          headers: owner,
          body: { name: 'REST owners, renamed', listingIds: [third], ownerName: null },
        }),
        200,
        updateListingGroupOperation.output,
      );
      expect(changed).toMatchObject({ id: created.id, name: 'REST owners, renamed', listingIds: [third] });
      expect(changed.ownerName).toBeNull();
      const linked = answerOf(
        await callApi(running, 'POST', `/regenerateOwnerImportLink/${created.id}`, { headers: owner }),
        200,
        regenerateOwnerImportLinkOperation.output,
      );
      expect(linked.ownerImportLink).toMatch(/^\/owner-import\//);
      const relinked = answerOf(
        await callApi(running, 'POST', `/regenerateOwnerImportLink/${created.id}`, { headers: owner }),
        200,
        regenerateOwnerImportLinkOperation.output,
      );
      expect(relinked.ownerImportLink).not.toBe(linked.ownerImportLink);
      const listed = answerOf(
        await callApi(running, 'GET', '/listListingGroups?limit=500', { headers: owner }),
        200,
        listListingGroupsOperation.output,
      );
      expect(listed.items.find((group) => group.id === created.id)).toMatchObject({ memberCount: 1 });
      expect(
        answerOf(
          await callApi(running, 'DELETE', `/deleteListingGroup/${created.id}`, { headers: owner }),
          200,
          deleteListingGroupOperation.output,
        ),
      ).toEqual({ id: created.id, deleted: true });
      expectError(
        await callApi(running, 'POST', `/updateListingGroup/${created.id}`, {
          headers: owner,
          body: { name: 'x' },
        }),
        404,
        'not_found',
      );
      // Its listings stay.
      expect((await world.domain.listings.get(demo, third ?? '')).id).toBe(third);
    });

    it('names bad group input and reads other accounts’ listings and groups as 404, changing nothing', async () => {
      expectError(
        await callApi(running, 'POST', '/createListingGroup', { headers: owner, body: { listingIds: [] } }),
        400,
        'invalid_argument',
        'name',
      );
      expectError(
        await callApi(running, 'POST', '/createListingGroup', {
          headers: owner,
          body: { name: 'Twice', listingIds: [listingIds[0], listingIds[0]] },
        }),
        400,
        'invalid_argument',
        'listingIds',
      );
      expectError(
        await callApi(running, 'POST', '/createListingGroup', {
          headers: owner,
          body: { name: 'Theirs', listingIds: [otherListingId] },
        }),
        404,
        'not_found',
      );
      const theirs = await world.domain.listingGroups.create(lapsed, {
        name: 'Lapsed group',
        listingIds: [],
      });
      for (const [method, path, body] of [
        ['POST', `/updateListingGroup/${theirs.id}`, { name: 'Taken over' }],
        ['POST', `/regenerateOwnerImportLink/${theirs.id}`, undefined],
        ['DELETE', `/deleteListingGroup/${theirs.id}`, undefined],
      ] as const) {
        expectError(await callApi(running, method, path, { headers: owner, body }), 404, 'not_found');
      }
      expect(await world.domain.listingGroups.get(lapsed, theirs.id)).toEqual(theirs);
    });

    it('refuses viewers and Bearer tokens without listingGroups:write', async () => {
      const groups = await world.domain.listingGroups.list(demo, { limit: 500 });
      const group = groups.items[0];
      for (const headers of [viewer, groupsReader]) {
        const answer = await callApi(running, 'POST', `/updateListingGroup/${group?.id}`, {
          headers,
          body: { name: 'Refused' },
        });
        expect(answer.status).toBe(403);
      }
      const refused = await callApi(running, 'DELETE', `/deleteListingGroup/${group?.id}`, {
        headers: groupsReader,
      });
      expectError(refused, 403, 'insufficient_scope');
      expect(refused.body).toMatchObject({ details: { required: ['listingGroups:write'] } });
      expectError(
        await callApi(running, 'POST', '/createListingGroup', {
          headers: viewer,
          body: { name: 'Viewer group', listingIds: [] },
        }),
        403,
        'permission_denied',
      );
      expect(await world.domain.listingGroups.list(demo, { limit: 500 })).toEqual(groups);
      const cannotList = await callApi(running, 'GET', '/listListingGroups', { headers: webhooksManager });
      expectError(cannotList, 403, 'insufficient_scope');
      expect(cannotList.body).toMatchObject({ details: { required: ['listingGroups:read'] } });
    });
  });

  describe('Webhooks', () => {
    it('creates a subscription with its secret once, lists, changes and deletes it', async () => {
      const created = answerOf(
        await callApi(running, 'POST', '/createWebhookSubscription', {
          headers: webhooksManager,
          body: {
            url: 'https://hooks.example.com/innkeep',
            events: ['reservation.created', 'message.created'],
          },
        }),
        201,
        createWebhookOperation.output,
      );
      expect(created).toMatchObject({
        url: 'https://hooks.example.com/innkeep',
        events: ['reservation.created', 'message.created'],
        format: 'innkeep',
        active: true,
      });
      expect(created.secret).toMatch(/^whsec_/);
      const listed = answerOf(
        await callApi(running, 'GET', '/listWebhookSubscriptions', { headers: owner }),
        200,
        listWebhooksOperation.output,
      );
      const { secret, ...withoutSecret } = created;
      expect(listed.items).toContainEqual(withoutSecret);
      expect(JSON.stringify(listed)).not.toContain(secret);

      const paused = answerOf(
        await callApi(running, 'POST', `/updateWebhookSubscription/${created.id}`, {
          headers: owner,
          body: { active: false, events: ['reservation.cancelled'] },
        }),
        200,
        updateWebhookOperation.output,
      );
      expect(paused).toMatchObject({ id: created.id, active: false, events: ['reservation.cancelled'] });
      expect(JSON.stringify(paused)).not.toContain(secret);
      const moved = answerOf(
        await callApi(running, 'POST', `/updateWebhookSubscription/${created.id}`, {
          headers: webhooksManager,
          body: { url: 'http://localhost:4000/hook', active: true },
        }),
        200,
        updateWebhookOperation.output,
      );
      expect(moved).toMatchObject({ url: 'http://localhost:4000/hook', active: true, disabledReason: null });

      expect(
        answerOf(
          await callApi(running, 'DELETE', `/deleteWebhookSubscription/${created.id}`, { headers: owner }),
          200,
          deleteWebhookOperation.output,
        ),
      ).toEqual({ id: created.id, deleted: true });
      const after = answerOf(
        await callApi(running, 'GET', '/listWebhookSubscriptions?limit=500', { headers: owner }),
        200,
        listWebhooksOperation.output,
      );
      expect(after.items.map((webhook) => webhook.id)).not.toContain(created.id);
      expectError(
        await callApi(running, 'DELETE', `/deleteWebhookSubscription/${created.id}`, { headers: owner }),
        404,
        'not_found',
      );
    });

    it('pages subscriptions and names bad webhook input', async () => {
      for (const path of ['/one', '/two', '/three']) {
        answerOf(
          await callApi(running, 'POST', '/createWebhookSubscription', {
            headers: owner,
            body: { url: `https://hooks.example.com${path}` },
          }),
          201,
          createWebhookOperation.output,
        );
      }
      const whole = answerOf(
        await callApi(running, 'GET', '/listWebhookSubscriptions', { headers: owner }),
        200,
        listWebhooksOperation.output,
      );
      const first = answerOf(
        await callApi(running, 'GET', '/listWebhookSubscriptions?limit=2', { headers: owner }),
        200,
        listWebhooksOperation.output,
      );
      expect(first).toMatchObject({ hasMore: true, items: whole.items.slice(0, 2) });
      const rest = answerOf(
        await callApi(running, 'GET', `/listWebhookSubscriptions?limit=2&cursor=${first.nextCursor}`, {
          headers: owner,
        }),
        200,
        listWebhooksOperation.output,
      );
      expect(rest.items[0]).toEqual(whole.items[2]);
      expectError(
        await callApi(running, 'POST', '/createWebhookSubscription', {
          headers: owner,
          body: { url: 'http://hooks.example.com/plain' },
        }),
        400,
        'invalid_argument',
        'url',
      );
      expectError(
        await callApi(running, 'POST', '/createWebhookSubscription', {
          headers: owner,
          body: { url: 'https://hooks.example.com/x', events: ['reservation.exploded'] },
        }),
        400,
        'invalid_argument',
        'events.0',
      );
      const webhookId = whole.items[0]?.id ?? '';
      expectError(
        await callApi(running, 'POST', `/updateWebhookSubscription/${webhookId}`, {
          headers: owner,
          body: {},
        }),
        400,
        'invalid_argument',
      );
    });

    it('lists a subscription’s deliveries after a write and a dispatch, newest first and paged, with each last attempt', async () => {
      const queue = createWebhookDeliveryStore({ db: world.db, clock: world.clock });
      const subscription = answerOf(
        await callApi(running, 'POST', '/createWebhookSubscription', {
          headers: webhooksManager,
          body: { url: 'https://hooks.example.com/deliveries', events: ['listing.updated'] },
        }),
        201,
        createWebhookOperation.output,
      );
      const logPath = `/listWebhookDeliveries?webhookId=${subscription.id}`;
      expect(
        answerOf(
          await callApi(running, 'GET', logPath, { headers: webhooksManager }),
          200,
          listWebhookDeliveriesOperation.output,
        ),
      ).toEqual({ items: [], nextCursor: null, hasMore: false });

      for (const nickname of ['Delivered once', 'Delivered twice', 'Delivered thrice']) {
        answerOf(
          await callApi(running, 'POST', `/updateListing/${listingIds[0]}`, {
            headers: owner,
            body: { nickname },
          }),
          200,
          z.object({ nickname: z.literal(nickname) }),
        );
      }
      await dispatchEverything(queue);
      const whole = answerOf(
        await callApi(running, 'GET', logPath, { headers: owner }),
        200,
        listWebhookDeliveriesOperation.output,
      );
      expect(whole.items).toHaveLength(3);
      expect(new Set(whole.items.map((delivery) => delivery.eventId)).size).toBe(3);
      for (const delivery of whole.items) {
        expect(delivery).toMatchObject({
          id: expect.stringMatching(/^whd_/),
          event: 'listing.updated',
          status: 'pending',
          attempts: 0,
          nextAttemptAt: expect.any(String),
          lastAttemptAt: null,
          lastStatusCode: null,
          lastError: null,
          lastLatencyMs: null,
          deliveredAt: null,
        });
      }

      const first = answerOf(
        await callApi(running, 'GET', `${logPath}&limit=2`, { headers: viewer }),
        200,
        listWebhookDeliveriesOperation.output,
      );
      expect(first).toMatchObject({ hasMore: true, items: whole.items.slice(0, 2) });
      const rest = answerOf(
        await callApi(running, 'GET', `${logPath}&limit=2&cursor=${first.nextCursor}`, { headers: owner }),
        200,
        listWebhookDeliveriesOperation.output,
      );
      expect(rest).toEqual({ items: whole.items.slice(2), nextCursor: null, hasMore: false });

      const [delivered, retried] = whole.items.map((delivery) => delivery.id);
      const attemptedAt = new Date();
      await queue.recordAttempt(
        delivered ?? '',
        { ok: true, statusCode: 204, latencyMs: 42 },
        attemptedAt,
        0.5,
      );
      await queue.recordAttempt(
        retried ?? '',
        { ok: false, statusCode: 503, error: 'The receiver answered 503.', latencyMs: 17 },
        attemptedAt,
        0.5,
      );
      const attempted = answerOf(
        await callApi(running, 'GET', logPath, { headers: owner }),
        200,
        listWebhookDeliveriesOperation.output,
      );
      expect(attempted.items.find((delivery) => delivery.id === delivered)).toMatchObject({
        status: 'delivered',
        attempts: 1,
        nextAttemptAt: null,
        lastAttemptAt: attemptedAt.toISOString(),
        lastStatusCode: 204,
        lastError: null,
        lastLatencyMs: 42,
        deliveredAt: attemptedAt.toISOString(),
      });
      const retry = attempted.items.find((delivery) => delivery.id === retried);
      expect(retry).toMatchObject({
        status: 'pending',
        attempts: 1,
        lastAttemptAt: attemptedAt.toISOString(),
        lastStatusCode: 503,
        lastError: 'The receiver answered 503.',
        lastLatencyMs: 17,
        deliveredAt: null,
      });
      expect(Date.parse(retry?.nextAttemptAt ?? '')).toBeGreaterThan(attemptedAt.getTime());
    });

    it('redelivers a failed delivery as pending and due now, refusing pending ones, viewers and other accounts', async () => {
      const queue = createWebhookDeliveryStore({ db: world.db, clock: world.clock });
      const subscription = await world.domain.webhooks.create(demo, {
        url: 'https://hooks.example.com/redelivered',
        events: ['listing.updated'],
      });
      await world.domain.listings.update(demo, { listingId: listingIds[1] ?? '', nickname: 'Redelivered' });
      await dispatchEverything(queue);
      const [pending] = (
        await world.domain.webhookDeliveries.listDeliveries(demo, { webhookId: subscription.id })
      ).items;
      const deliveryId = pending?.id ?? '';
      expectError(
        await callApi(running, 'POST', '/redeliverWebhookDelivery', { headers: owner, body: { deliveryId } }),
        422,
        'failed_precondition',
      );

      // Failing for more than a day gives the delivery up.
      const firstAttemptAt = new Date();
      const failure = { ok: false, error: 'connect ECONNREFUSED', latencyMs: 3 } as const;
      await queue.recordAttempt(deliveryId, failure, firstAttemptAt, 0.5);
      const lastAttemptAt = new Date(firstAttemptAt.getTime() + 25 * 60 * 60_000);
      expect(await queue.recordAttempt(deliveryId, failure, lastAttemptAt, 0.5)).toMatchObject({
        status: 'failed',
      });
      const listFailed = () =>
        world.domain.webhookDeliveries.listDeliveries(demo, { webhookId: subscription.id });
      const failed = await listFailed();
      expect(failed.items[0]).toMatchObject({ id: deliveryId, status: 'failed', attempts: 2 });

      expectError(
        await callApi(running, 'POST', '/redeliverWebhookDelivery', {
          headers: viewer,
          body: { deliveryId },
        }),
        403,
        'permission_denied',
      );
      const unscoped = await callApi(running, 'POST', '/redeliverWebhookDelivery', {
        headers: groupsReader,
        body: { deliveryId },
      });
      expectError(unscoped, 403, 'insufficient_scope');
      expect(unscoped.body).toMatchObject({ details: { required: ['webhooks:manage'] } });
      expectError(
        await callApi(running, 'POST', '/redeliverWebhookDelivery', { headers: owner, body: {} }),
        400,
        'invalid_argument',
        'deliveryId',
      );
      expect(await listFailed()).toEqual(failed);

      const asked = new Date();
      const redelivered = answerOf(
        await callApi(running, 'POST', '/redeliverWebhookDelivery', {
          headers: webhooksManager,
          body: { deliveryId },
        }),
        200,
        redeliverWebhookDeliveryOperation.output,
      );
      expect(redelivered).toMatchObject({
        id: deliveryId,
        eventId: pending?.eventId,
        status: 'pending',
        attempts: 0,
        deliveredAt: null,
      });
      expect(Date.parse(redelivered.nextAttemptAt ?? '')).toBeGreaterThanOrEqual(asked.getTime() - 1);
      expect(Date.parse(redelivered.nextAttemptAt ?? '')).toBeLessThanOrEqual(Date.now());
      const listed = answerOf(
        await callApi(running, 'GET', `/listWebhookDeliveries?webhookId=${subscription.id}`, {
          headers: owner,
        }),
        200,
        listWebhookDeliveriesOperation.output,
      );
      expect(listed.items).toEqual([redelivered]);
      // Due now again: once the host turns the subscription the failure disabled back on, the next claim takes it.
      expect((await world.domain.webhooks.list(demo, { limit: 500 })).items).toContainEqual(
        expect.objectContaining({ id: subscription.id, active: false }),
      );
      answerOf(
        await callApi(running, 'POST', `/updateWebhookSubscription/${subscription.id}`, {
          headers: owner,
          body: { active: true },
        }),
        200,
        updateWebhookOperation.output,
      );
      const claimed = await queue.claimDue(new Date(), 500, 60_000);
      expect(claimed.map((due) => due.deliveryId)).toContain(deliveryId);
    });

    it('rotates a subscription’s secret, shown once, the old one signing for the overlap', async () => {
      const hour = 60 * 60_000;
      const created = await world.domain.webhooks.create(demo, { url: 'https://hooks.example.com/rotated' });
      const asked = Date.now();
      const rotated = answerOf(
        await callApi(running, 'POST', `/rotateWebhookSecret/${created.id}`, { headers: owner }),
        200,
        rotateWebhookSecretOperation.output,
      );
      expect(rotated).toMatchObject({ id: created.id, url: created.url, active: true });
      expect(rotated.secret).toMatch(/^whsec_/);
      expect(rotated.secret).not.toBe(created.secret);
      const expiresAt = Date.parse(rotated.previousSecretExpiresAt ?? '');
      expect(expiresAt).toBeGreaterThanOrEqual(asked + 24 * hour - 1000);
      expect(expiresAt).toBeLessThanOrEqual(Date.now() + 24 * hour);

      const listed = answerOf(
        await callApi(running, 'GET', '/listWebhookSubscriptions?limit=500', { headers: owner }),
        200,
        listWebhooksOperation.output,
      );
      const { secret, ...withoutSecret } = rotated;
      expect(listed.items).toContainEqual(withoutSecret);
      expect(JSON.stringify(listed)).not.toContain(secret);
      expect(JSON.stringify(listed)).not.toContain(created.secret);

      const atOnce = answerOf(
        await callApi(running, 'POST', `/rotateWebhookSecret/${created.id}`, {
          headers: webhooksManager,
          body: { overlapHours: 0 },
        }),
        200,
        rotateWebhookSecretOperation.output,
      );
      expect(atOnce).toMatchObject({ id: created.id, previousSecretExpiresAt: null });
      expect(atOnce.secret).not.toBe(rotated.secret);
      const stored = await world.db
        .selectFrom('webhook_subscriptions')
        .select(['secret', 'previous_secret'])
        .where('id', '=', created.id)
        .executeTakeFirstOrThrow();
      expect(stored).toEqual({ secret: atOnce.secret, previous_secret: null });

      const before = await world.domain.webhooks.list(demo, { limit: 500 });
      expectError(
        await callApi(running, 'POST', `/rotateWebhookSecret/${created.id}`, {
          headers: owner,
          body: { overlapHours: 169 },
        }),
        400,
        'invalid_argument',
        'overlapHours',
      );
      expectError(
        await callApi(running, 'POST', `/rotateWebhookSecret/${created.id}`, { headers: viewer }),
        403,
        'permission_denied',
      );
      const unscoped = await callApi(running, 'POST', `/rotateWebhookSecret/${created.id}`, {
        headers: groupsReader,
      });
      expectError(unscoped, 403, 'insufficient_scope');
      expect(unscoped.body).toMatchObject({ details: { required: ['webhooks:manage'] } });
      const theirs = await world.domain.webhooks.create(lapsed, { url: 'https://lapsed.example.com/rotate' });
      expectError(
        await callApi(running, 'POST', `/rotateWebhookSecret/${theirs.id}`, { headers: owner }),
        404,
        'not_found',
      );
      expect(await world.domain.webhooks.list(demo, { limit: 500 })).toEqual(before);
      expect(world.reported).toEqual([]);
    });

    it('sends a test event to a turned-off subscription only, as one pending delivery in its log', async () => {
      const queue = createWebhookDeliveryStore({ db: world.db, clock: world.clock });
      const subscription = await world.domain.webhooks.create(demo, {
        url: 'https://hooks.example.com/tested',
        events: ['listing.updated'],
      });
      const bystander = await world.domain.webhooks.create(demo, {
        url: 'https://hooks.example.com/bystander',
      });
      await world.domain.webhooks.update(demo, { webhookId: subscription.id, active: false });

      const sent = answerOf(
        await callApi(running, 'POST', `/testWebhookSubscription/${subscription.id}`, { headers: owner }),
        200,
        sendWebhookTestOperation.output,
      );
      expect(sent).toMatchObject({
        id: expect.stringMatching(/^whd_/),
        event: 'webhook.test',
        status: 'pending',
        attempts: 0,
        lastAttemptAt: null,
      });
      const logOf = async (webhookId: string) =>
        answerOf(
          await callApi(running, 'GET', `/listWebhookDeliveries?webhookId=${webhookId}`, { headers: owner }),
          200,
          listWebhookDeliveriesOperation.output,
        ).items;
      expect(await logOf(subscription.id)).toEqual([sent]);
      await dispatchEverything(queue);
      expect(await logOf(bystander.id)).toEqual([]);

      const byBearer = answerOf(
        await callApi(running, 'POST', `/testWebhookSubscription/${subscription.id}`, {
          headers: webhooksManager,
        }),
        200,
        sendWebhookTestOperation.output,
      );
      expect(byBearer.eventId).not.toBe(sent.eventId);
      // Turned off, yet claimed: a test checks the receiver before the host turns deliveries back on.
      const claimed = (await queue.claimDue(new Date(), 500, 60_000)).filter((due) =>
        [sent.id, byBearer.id].includes(due.deliveryId),
      );
      expect(claimed).toHaveLength(2);
      for (const due of claimed) {
        expect(due).toMatchObject({ event: 'webhook.test', data: { webhookId: subscription.id } });
      }

      const before = await world.domain.webhookDeliveries.listDeliveries(demo, {
        webhookId: subscription.id,
      });
      expectError(
        await callApi(running, 'POST', `/testWebhookSubscription/${subscription.id}`, { headers: viewer }),
        403,
        'permission_denied',
      );
      const unscoped = await callApi(running, 'POST', `/testWebhookSubscription/${subscription.id}`, {
        headers: groupsReader,
      });
      expectError(unscoped, 403, 'insufficient_scope');
      const theirs = await world.domain.webhooks.create(lapsed, { url: 'https://lapsed.example.com/tested' });
      expectError(
        await callApi(running, 'POST', `/testWebhookSubscription/${theirs.id}`, { headers: owner }),
        404,
        'not_found',
      );
      expect(
        await world.domain.webhookDeliveries.listDeliveries(demo, { webhookId: subscription.id }),
      ).toEqual(before);
      expect(world.reported).toEqual([]);
    });

    it('reads another account’s deliveries as 404 and names a missing webhookId', async () => {
      const queue = createWebhookDeliveryStore({ db: world.db, clock: world.clock });
      const theirs = await world.domain.webhooks.create(lapsed, {
        url: 'https://lapsed.example.com/deliveries',
        events: ['listing.updated'],
      });
      await world.domain.listings.update(lapsed, { listingId: otherListingId, nickname: 'Lapsed delivery' });
      await dispatchEverything(queue);
      const [their] = (await world.domain.webhookDeliveries.listDeliveries(lapsed, { webhookId: theirs.id }))
        .items;
      expect(their).toBeDefined();
      await queue.recordAttempt(
        their?.id ?? '',
        { ok: true, statusCode: 200, latencyMs: 5 },
        new Date(),
        0.5,
      );
      const before = await world.domain.webhookDeliveries.listDeliveries(lapsed, { webhookId: theirs.id });

      expectError(
        await callApi(running, 'GET', `/listWebhookDeliveries?webhookId=${theirs.id}`, { headers: owner }),
        404,
        'not_found',
      );
      expectError(
        await callApi(running, 'POST', '/redeliverWebhookDelivery', {
          headers: owner,
          body: { deliveryId: their?.id },
        }),
        404,
        'not_found',
      );
      expect(await world.domain.webhookDeliveries.listDeliveries(lapsed, { webhookId: theirs.id })).toEqual(
        before,
      );
      expectError(
        await callApi(running, 'GET', '/listWebhookDeliveries', { headers: owner }),
        400,
        'invalid_argument',
        'webhookId',
      );
      const refused = await callApi(running, 'GET', `/listWebhookDeliveries?webhookId=${theirs.id}`, {
        headers: groupsReader,
      });
      expectError(refused, 403, 'insufficient_scope');
      expect(world.reported).toEqual([]);
    });

    it('reads another account’s subscription as 404, refuses viewers and tokens without webhooks:manage', async () => {
      const theirs = await world.domain.webhooks.create(lapsed, { url: 'https://lapsed.example.com/hook' });
      for (const [method, path, body] of [
        ['POST', `/updateWebhookSubscription/${theirs.id}`, { active: false }],
        ['DELETE', `/deleteWebhookSubscription/${theirs.id}`, undefined],
      ] as const) {
        expectError(await callApi(running, method, path, { headers: owner, body }), 404, 'not_found');
      }
      const { secret: _secret, ...theirsListed } = theirs;
      expect((await world.domain.webhooks.list(lapsed, { limit: 500 })).items).toContainEqual(theirsListed);

      const before = await world.domain.webhooks.list(demo, { limit: 500 });
      answerOf(
        await callApi(running, 'GET', '/listWebhookSubscriptions', { headers: viewer }),
        200,
        listWebhooksOperation.output,
      );
      expectError(
        await callApi(running, 'POST', '/createWebhookSubscription', {
          headers: viewer,
          body: { url: 'https://viewer.example.com/hook' },
        }),
        403,
        'permission_denied',
      );
      const refused = await callApi(running, 'GET', '/listWebhookSubscriptions', { headers: groupsReader });
      expectError(refused, 403, 'insufficient_scope');
      expect(refused.body).toMatchObject({ details: { required: ['webhooks:manage'] } });
      expect(
        (
          await callApi(running, 'POST', '/createWebhookSubscription', {
            headers: groupsReader,
            body: { url: 'https://reader.example.com/hook' },
          })
        ).status,
      ).toBe(403);
      expect(await world.domain.webhooks.list(demo, { limit: 500 })).toEqual(before);
      expect(world.reported).toEqual([]);
    });
  });
});

/** Fans every event recorded so far out to its subscriptions, as the sender's job does before it sends. */
async function dispatchEverything(queue: WebhookDeliveryQueue): Promise<void> {
  let events: number;
  do {
    ({ events } = await queue.dispatch(500));
  } while (events > 0);
}
