import type { Actor } from '@innkeep/domain';
import {
  createMessageRuleOperation,
  createPricingRuleOperation,
  deleteMessageRuleOperation,
  deletePricingRuleOperation,
  getMessageRulesOperation,
  getPricingRulesOperation,
  pauseMessageRuleOperation,
  reorderPricingRulesOperation,
  resumeMessageRuleOperation,
  updateMessageRuleOperation,
  updatePricingRuleOperation,
} from '@innkeep/operations';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

// Innkeep's own Message rules and Pricing rules routes, served from the full route catalogue.

// On PostgreSQL only: the routes run the operations the storage suite tests on both drivers, and the
// host-tools and plugin suites serve REST from the embedded database too; one kind keeps CI's time down.
describe.each(['postgres'] as const)('Innkeep’s message-rule and pricing-rule routes on %s', (kind) => {
  let world: RestWorld;
  let running: RunningRestApp;
  let demo: Actor;
  let lapsed: Actor;
  let owner: { authToken: string };
  let viewer: { authToken: string };
  let messageRulesReader: { authorization: string };
  let rulesWriter: { authorization: string };
  let listingIds: string[];
  let otherListingId: string;

  /** The ids `/getMessageRules` (or `/getPricingRules`) lists for `query`, in order. */
  async function listedRuleIds(path: '/getMessageRules' | '/getPricingRules', query = ''): Promise<string[]> {
    const schema =
      path === '/getMessageRules' ? getMessageRulesOperation.output : getPricingRulesOperation.output;
    const page = answerOf(
      await callApi(running, 'GET', `${path}?limit=500${query}`, { headers: owner }),
      200,
      schema,
    );
    expect(page.hasMore).toBe(false);
    return page.items.map((rule) => rule.id);
  }

  beforeAll(async () => {
    world = await openRestWorld(kind);
    running = await startRestApp(world, { rateLimits: { perCredential: 10_000, withApiKey: 10_000 } });
    demo = await ownerActor(world, demoUsers.owner);
    lapsed = await ownerActor(world, demoUsers.lapsedOwner);
    owner = { authToken: await authTokenOf(world, demoUsers.owner) };
    viewer = { authToken: (await demoViewer(world)).authToken };
    messageRulesReader = {
      authorization: `Bearer ${await bearerTokenOf(running, { scopes: ['messageRules:read'] })}`,
    };
    rulesWriter = {
      authorization: `Bearer ${await bearerTokenOf(running, { scopes: ['messageRules:write', 'pricing:write'] })}`,
    };
    listingIds = (await world.domain.listings.list(demo, { limit: 500 })).items.map((listing) => listing.id);
    otherListingId = (await world.domain.listings.list(lapsed, { limit: 1 })).items[0]?.id ?? '';
  }, 300_000);

  afterAll(async () => {
    await running?.close();
    await world?.close();
  });

  describe('Message rules', () => {
    it('creates, lists, changes, pauses, resumes and deletes a message rule', async () => {
      const [first, second] = listingIds;
      const created = answerOf(
        await callApi(running, 'POST', '/createMessageRule', {
          headers: rulesWriter,
          body: {
            name: 'REST check-in',
            trigger: 'check_in',
            sendTime: '15:00',
            body: 'Hi {{guest_first_name}}, your door code is {{access_code}}.',
            listingIds: [first],
          },
        }),
        201,
        createMessageRuleOperation.output,
      );
      expect(created).toMatchObject({
        trigger: 'check_in',
        offsetDays: 0,
        paused: false,
        listingIds: [first],
      });
      expect(await listedRuleIds('/getMessageRules', `&listingId=${first}`)).toContain(created.id);
      expect(await listedRuleIds('/getMessageRules', `&listingId=${second}`)).not.toContain(created.id);

      const changed = answerOf(
        await callApi(running, 'POST', `/updateMessageRule/${created.id}`, {
          headers: owner,
          body: { name: 'REST check-in, all listings', listingIds: null, sendTime: null },
        }),
        200,
        updateMessageRuleOperation.output,
      );
      expect(changed).toMatchObject({
        id: created.id,
        name: 'REST check-in, all listings',
        listingIds: null,
      });
      expect(changed.sendTime).toBeNull();
      expect(await listedRuleIds('/getMessageRules', `&listingId=${second}`)).toContain(created.id);

      const paused = answerOf(
        // The body is ignored: pausing is what the path says.
        await callApi(running, 'POST', `/pauseMessageRule/${created.id}`, {
          headers: owner,
          body: { paused: false },
        }),
        200,
        pauseMessageRuleOperation.output,
      );
      expect(paused).toMatchObject({ id: created.id, paused: true, pausedAt: expect.any(String) });
      const resumed = answerOf(
        await callApi(running, 'POST', `/resumeMessageRule/${created.id}`, { headers: rulesWriter }),
        200,
        resumeMessageRuleOperation.output,
      );
      expect(resumed).toMatchObject({ id: created.id, paused: false, pausedAt: null });

      expect(
        answerOf(
          await callApi(running, 'DELETE', `/deleteMessageRule/${created.id}`, { headers: owner }),
          200,
          deleteMessageRuleOperation.output,
        ),
      ).toEqual({ id: created.id, deleted: true });
      expect(await listedRuleIds('/getMessageRules')).not.toContain(created.id);
      expectError(
        await callApi(running, 'DELETE', `/deleteMessageRule/${created.id}`, { headers: owner }),
        404,
        'not_found',
      );
      expectError(
        await callApi(running, 'POST', `/pauseMessageRule/${created.id}`, { headers: owner }),
        404,
        'not_found',
      );
    });

    it('names invalid message rules and refuses other accounts’ listings', async () => {
      const valid = { name: 'Welcome', trigger: 'booking_confirmed', body: 'Thanks {{guest_first_name}}!' };
      expectError(
        await callApi(running, 'POST', '/createMessageRule', {
          headers: owner,
          body: { ...valid, body: 'Your size: {{guest_shoe_size}}' },
        }),
        400,
        'invalid_argument',
        'body',
      );
      expectError(
        await callApi(running, 'POST', '/createMessageRule', {
          headers: owner,
          body: { ...valid, lastMinuteBody: 'Too late for this trigger' },
        }),
        400,
        'invalid_argument',
        'lastMinuteBody',
      );
      expectError(
        await callApi(running, 'POST', '/createMessageRule', {
          headers: owner,
          body: { ...valid, listingIds: [otherListingId] },
        }),
        404,
        'not_found',
      );
      const ruleId = (await listedRuleIds('/getMessageRules'))[0] ?? '';
      expectError(
        await callApi(running, 'POST', `/updateMessageRule/${ruleId}`, { headers: owner, body: {} }),
        400,
        'invalid_argument',
      );
      expectError(
        await callApi(running, 'GET', '/getMessageRules?listingId=', { headers: owner }),
        400,
        'invalid_argument',
        'listingId',
      );
    });

    it('reads another account’s message rule as 404 on every write and changes nothing', async () => {
      const theirs = await world.domain.messageRules.create(lapsed, {
        name: 'Lapsed welcome',
        trigger: 'booking_confirmed',
        body: 'Welcome, {{guest_first_name}}.',
      });
      for (const [method, path, body] of [
        ['POST', `/updateMessageRule/${theirs.id}`, { name: 'Taken over' }],
        ['POST', `/pauseMessageRule/${theirs.id}`, undefined],
        ['POST', `/resumeMessageRule/${theirs.id}`, undefined],
        ['DELETE', `/deleteMessageRule/${theirs.id}`, undefined],
      ] as const) {
        expectError(await callApi(running, method, path, { headers: owner, body }), 404, 'not_found');
      }
      const still = await world.domain.messageRules.list(lapsed, { limit: 500 });
      expect(still.items.find((rule) => rule.id === theirs.id)).toEqual(theirs);
    });

    it('lets viewers list message rules but not change them; Bearer callers need the rule scopes', async () => {
      const before = await world.domain.messageRules.list(demo, { limit: 500 });
      const ruleId = before.items[0]?.id ?? '';
      answerOf(
        await callApi(running, 'GET', '/getMessageRules', { headers: viewer }),
        200,
        getMessageRulesOperation.output,
      );
      expectError(
        await callApi(running, 'POST', `/pauseMessageRule/${ruleId}`, { headers: viewer }),
        403,
        'permission_denied',
      );
      expectError(
        await callApi(running, 'POST', '/createMessageRule', {
          headers: viewer,
          body: { name: 'Viewer rule', trigger: 'inquiry', body: 'Hello' },
        }),
        403,
        'permission_denied',
      );
      expect(await world.domain.messageRules.list(demo, { limit: 500 })).toEqual(before);
      answerOf(
        await callApi(running, 'GET', '/getMessageRules?limit=2', { headers: messageRulesReader }),
        200,
        getMessageRulesOperation.output,
      );
      const cannotWrite = await callApi(running, 'POST', `/pauseMessageRule/${ruleId}`, {
        headers: messageRulesReader,
      });
      expectError(cannotWrite, 403, 'insufficient_scope');
      expect(cannotWrite.body).toMatchObject({ details: { required: ['messageRules:write'] } });
      const cannotRead = await callApi(running, 'GET', '/getMessageRules', { headers: rulesWriter });
      expectError(cannotRead, 403, 'insufficient_scope');
      expect(cannotRead.body).toMatchObject({ details: { required: ['messageRules:read'] } });
    });
  });

  describe('Pricing rules', () => {
    it('creates, changes, reorders and deletes pricing rules', async () => {
      const existing = await listedRuleIds('/getPricingRules');
      const weekend = answerOf(
        await callApi(running, 'POST', '/createPricingRule', {
          headers: rulesWriter,
          body: { name: 'REST weekend', adjustment: { kind: 'percent', amount: 12.5 }, daysOfWeek: [5, 6] },
        }),
        201,
        createPricingRuleOperation.output,
      );
      const lastMinute = answerOf(
        await callApi(running, 'POST', '/createPricingRule', {
          headers: owner,
          body: {
            name: 'REST last minute',
            adjustment: { kind: 'fixed', amount: -10 },
            lastMinuteDays: 3,
            listingIds: [listingIds[0]],
          },
        }),
        201,
        createPricingRuleOperation.output,
      );
      expect(lastMinute).toMatchObject({ enabled: true, lastMinuteDays: 3, listingIds: [listingIds[0]] });
      expect(await listedRuleIds('/getPricingRules')).toEqual([...existing, weekend.id, lastMinute.id]);

      const changed = answerOf(
        await callApi(running, 'POST', `/updatePricingRule/${weekend.id}`, {
          headers: owner,
          body: { adjustment: { kind: 'percent', amount: 15 }, daysOfWeek: null, enabled: false },
        }),
        200,
        updatePricingRuleOperation.output,
      );
      expect(changed).toMatchObject({
        id: weekend.id,
        adjustment: { kind: 'percent', amount: 15 },
        daysOfWeek: null,
        enabled: false,
        position: weekend.position,
      });

      const order = [lastMinute.id, weekend.id, ...existing];
      const reordered = answerOf(
        await callApi(running, 'POST', '/reorderPricingRules', {
          headers: rulesWriter,
          body: { ruleIds: order },
        }),
        200,
        reorderPricingRulesOperation.output,
      );
      expect(reordered.rules.map((rule) => rule.id)).toEqual(order);
      expect(await listedRuleIds('/getPricingRules')).toEqual(order);

      expect(
        answerOf(
          await callApi(running, 'DELETE', `/deletePricingRule/${weekend.id}`, { headers: owner }),
          200,
          deletePricingRuleOperation.output,
        ),
      ).toEqual({ id: weekend.id, deleted: true });
      expect(await listedRuleIds('/getPricingRules')).toEqual([lastMinute.id, ...existing]);
      expectError(
        await callApi(running, 'DELETE', `/deletePricingRule/${weekend.id}`, { headers: owner }),
        404,
        'not_found',
      );
    });

    it('names invalid pricing rules and an incomplete order, and changes nothing', async () => {
      const before = await listedRuleIds('/getPricingRules');
      expectError(
        await callApi(running, 'POST', '/createPricingRule', {
          headers: owner,
          body: { name: 'Nothing', adjustment: { kind: 'percent', amount: 0 } },
        }),
        400,
        'invalid_argument',
        'adjustment.amount',
      );
      expectError(
        await callApi(running, 'POST', '/createPricingRule', {
          headers: owner,
          body: {
            name: 'Backwards',
            adjustment: { kind: 'fixed', amount: 5 },
            startDate: '2027-02-01',
            endDate: '2027-01-01',
          },
        }),
        400,
        'invalid_argument',
        'endDate',
      );
      expectError(
        await callApi(running, 'POST', '/createPricingRule', {
          headers: owner,
          body: { name: 'Theirs', adjustment: { kind: 'fixed', amount: 5 }, listingIds: [otherListingId] },
        }),
        404,
        'not_found',
      );
      expectError(
        await callApi(running, 'POST', '/reorderPricingRules', {
          headers: owner,
          body: { ruleIds: before.slice(1) },
        }),
        400,
        'invalid_argument',
      );
      expectError(
        await callApi(running, 'POST', '/reorderPricingRules', { headers: owner, body: { ruleIds: 'all' } }),
        400,
        'invalid_argument',
        'ruleIds',
      );
      expect(await listedRuleIds('/getPricingRules')).toEqual(before);
    });

    it('reads another account’s pricing rule as 404, refuses viewers, asks Bearer callers for pricing scopes', async () => {
      const theirs = await world.domain.pricing.createRule(lapsed, {
        name: 'Lapsed uplift',
        adjustment: { kind: 'percent', amount: 5 },
      });
      expectError(
        await callApi(running, 'POST', `/updatePricingRule/${theirs.id}`, {
          headers: owner,
          body: { name: 'Mine' },
        }),
        404,
        'not_found',
      );
      expectError(
        await callApi(running, 'DELETE', `/deletePricingRule/${theirs.id}`, { headers: owner }),
        404,
        'not_found',
      );
      const still = await world.domain.pricing.listRules(lapsed, { limit: 500 });
      expect(still.items.find((rule) => rule.id === theirs.id)).toEqual(theirs);

      const ruleId = (await listedRuleIds('/getPricingRules'))[0] ?? '';
      answerOf(
        await callApi(running, 'GET', '/getPricingRules', { headers: viewer }),
        200,
        getPricingRulesOperation.output,
      );
      expectError(
        await callApi(running, 'DELETE', `/deletePricingRule/${ruleId}`, { headers: viewer }),
        403,
        'permission_denied',
      );
      expect(await listedRuleIds('/getPricingRules')).toContain(ruleId);
      const cannotRead = await callApi(running, 'GET', '/getPricingRules', { headers: rulesWriter });
      expectError(cannotRead, 403, 'insufficient_scope');
      expect(cannotRead.body).toMatchObject({ details: { required: ['pricing:read'] } });
      const cannotWrite = await callApi(running, 'DELETE', `/deletePricingRule/${ruleId}`, {
        headers: messageRulesReader,
      });
      expectError(cannotWrite, 403, 'insufficient_scope');
      expect(cannotWrite.body).toMatchObject({ details: { required: ['pricing:write'] } });
      expect(world.reported).toEqual([]);
    });
  });
});
