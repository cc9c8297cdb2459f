import { type Actor, addDays } from '@innkeep/domain';
import {
  getLockOperation,
  getMessageThreadOperation,
  getReservationsOperation,
  getReviewsOperation,
  listAccessCodesOperation,
  listLocksOperation,
  updateReservationOperation,
} from '@innkeep/operations';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
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

// Innkeep's own Reservations, Messages, Reviews and Locks routes, served from the full route catalogue.

// On PostgreSQL only: the routes run the operations the storage suite tests on both drivers, and the
// host-tools and plugin suites serve REST from the embedded database too; one kind keeps CI's time down.
describe.each(['postgres'] as const)(
  'Innkeep’s reservations, messages, reviews and locks routes on %s',
  (kind) => {
    let world: RestWorld;
    let running: RunningRestApp;
    let demo: Actor;
    let owner: { authToken: string };
    let viewer: { authToken: string };
    let readToken: { authorization: string };
    let writeToken: { authorization: string };
    let otherListingId: string;
    let otherReservationId: string;

    /** Every reservation id `/listReservations` answers for `query`, following the cursor page by page. */
    async function allReservationIds(query: string): Promise<string[]> {
      const ids: string[] = [];
      let cursor: string | null = null;
      do {
        const path: string = `/listReservations?${query}&limit=500${cursor === null ? '' : `&cursor=${cursor}`}`;
        const page = answerOf(
          await callApi(running, 'GET', path, { headers: owner }),
          200,
          getReservationsOperation.output,
        );
        ids.push(...page.items.map((reservation) => reservation.id));
        cursor = page.nextCursor;
      } while (cursor !== null);
      return ids;
    }

    /** An accepted reservation of the demo account, the `index`-th by the list's order. */
    async function acceptedReservation(index: number) {
      const page = await world.domain.reservations.list(demo, { statuses: ['accepted'], limit: index + 1 });
      const reservation = page.items[index];
      if (reservation === undefined) throw new Error('the demo has too few accepted reservations');
      return reservation;
    }

    beforeAll(async () => {
      world = await openRestWorld(kind);
      running = await startRestApp(world, { rateLimits: { perCredential: 10_000, withApiKey: 10_000 } });
      demo = await ownerActor(world, demoUsers.owner);
      owner = { authToken: await authTokenOf(world, demoUsers.owner) };
      viewer = { authToken: (await demoViewer(world)).authToken };
      const readScopes = ['reservations:read', 'messages:read', 'reviews:read', 'locks:read'] as const;
      readToken = { authorization: `Bearer ${await bearerTokenOf(running, { scopes: readScopes })}` };
      writeToken = {
        authorization: `Bearer ${await bearerTokenOf(running, { scopes: ['reservations:write'] })}`,
      };
      const lapsed = await ownerActor(world, demoUsers.lapsedOwner);
      otherListingId = (await world.domain.listings.list(lapsed, { limit: 1 })).items[0]?.id ?? '';
      otherReservationId = (await world.domain.reservations.list(lapsed, { limit: 1 })).items[0]?.id ?? '';
    }, 300_000);

    afterAll(async () => {
      await running?.close();
      await world?.close();
    });

    describe('Reservations', () => {
      it('pages listReservations with limit, cursor and hasMore', async () => {
        const fourteen = answerOf(
          await callApi(running, 'GET', '/listReservations?limit=14', { headers: viewer }),
          200,
          getReservationsOperation.output,
        );
        expect(fourteen.items).toHaveLength(14);
        const first = answerOf(
          await callApi(running, 'GET', '/listReservations?limit=7', { headers: owner }),
          200,
          getReservationsOperation.output,
        );
        expect(first).toMatchObject({ hasMore: true, nextCursor: expect.any(String) });
        const second = answerOf(
          await callApi(running, 'GET', `/listReservations?limit=7&cursor=${first.nextCursor}`, {
            headers: readToken,
          }),
          200,
          getReservationsOperation.output,
        );
        expect([...first.items, ...second.items].map((reservation) => reservation.id)).toEqual(
          fourteen.items.map((reservation) => reservation.id),
        );
        const byDefault = answerOf(
          await callApi(running, 'GET', '/listReservations', { headers: owner }),
          200,
          getReservationsOperation.output,
        );
        expect(byDefault.items).toHaveLength(50);
        expectError(
          await callApi(running, 'GET', '/listReservations?limit=501', { headers: owner }),
          400,
          'invalid_argument',
          'limit',
        );
      });

      it('filters listReservations by listing, stay dates, statuses (comma-separated or repeated) and channel', async () => {
        const listingId = (await acceptedReservation(0)).listingId;
        const query = `listingId=${listingId}&startDate=2025-01-01&endDate=2025-12-31`;
        const ids = await allReservationIds(query);
        const page = answerOf(
          await callApi(running, 'GET', `/listReservations?${query}&limit=500`, { headers: owner }),
          200,
          getReservationsOperation.output,
        );
        expect(ids.length).toBeGreaterThan(0);
        for (const reservation of page.items) {
          expect(reservation.listingId).toBe(listingId);
          expect(reservation.endDate > '2025-01-01').toBe(true);
          expect(reservation.startDate <= '2025-12-31').toBe(true);
        }
        const comma = await allReservationIds('statuses=cancelled,declined');
        const repeated = await allReservationIds('statuses=cancelled&statuses=declined');
        expect(comma.length).toBeGreaterThan(0);
        expect(repeated).toEqual(comma);
        const cancelled = answerOf(
          await callApi(
            running,
            'GET',
            '/listReservations?statuses=cancelled,declined&channel=airbnb&limit=500',
            {
              headers: owner,
            },
          ),
          200,
          getReservationsOperation.output,
        );
        expect(cancelled.items.length).toBeGreaterThan(0);
        for (const reservation of cancelled.items) {
          expect(['cancelled', 'declined']).toContain(reservation.status);
          expect(reservation.channel).toBe('airbnb');
        }
      });

      it('names bad listReservations filters and reads another account’s listing as 404', async () => {
        expectError(
          await callApi(running, 'GET', '/listReservations?statuses=accepted,booked', { headers: owner }),
          400,
          'invalid_argument',
          'statuses.1',
        );
        expectError(
          await callApi(running, 'GET', '/listReservations?updatedSince=yesterday', { headers: owner }),
          400,
          'invalid_argument',
          'updatedSince',
        );
        expectError(
          await callApi(running, 'GET', '/listReservations?startDate=2026-03-10&endDate=2026-03-01', {
            headers: owner,
          }),
          400,
          'invalid_argument',
          'endDate',
        );
        expectError(
          await callApi(running, 'GET', `/listReservations?listingId=${otherListingId}`, { headers: owner }),
          404,
          'not_found',
        );
      });

      it('answers updatedSince with only the reservations changed since', async () => {
        const since = new Date().toISOString();
        // The demo may date its latest changes later today; those count as changed since, before and after.
        const before = await allReservationIds(`updatedSince=${since}`);
        const changedLater = await acceptedReservation(1);
        expect(changedLater.updatedAt < since).toBe(true);
        expect(before).not.toContain(changedLater.id);
        answerOf(
          await callApi(running, 'POST', `/updateReservation/${changedLater.id}`, {
            headers: owner,
            body: { notes: 'Synced by the updatedSince test' },
          }),
          200,
          updateReservationOperation.output,
        );
        const after = await allReservationIds(`updatedSince=${since}`);
        expect([...after].sort()).toEqual([...before, changedLater.id].sort());
      });

      it('changes a reservation with native field names', async () => {
        const reservation = await acceptedReservation(2);
        const changed = answerOf(
          await callApi(running, 'POST', `/updateReservation/${reservation.id}`, {
            headers: writeToken,
            body: { notes: 'Late arrival', accessCode: '4321', guest: { phone: '+15551234567' } },
          }),
          200,
          updateReservationOperation.output,
        );
        expect(changed).toMatchObject({
          id: reservation.id,
          notes: 'Late arrival',
          accessCode: '4321',
          guest: { firstName: reservation.guest.firstName, phone: '+15551234567' },
        });
        expectError(
          await callApi(running, 'POST', `/updateReservation/${reservation.id}`, {
            headers: owner,
            body: { adults: 0 },
          }),
          400,
          'invalid_argument',
          'adults',
        );
      });

      it('refuses viewers, other accounts and Bearer tokens without reservations:write, changing nothing', async () => {
        const reservation = await acceptedReservation(3);
        const body = { notes: 'Should not be written' };
        expectError(
          await callApi(running, 'POST', `/updateReservation/${reservation.id}`, { headers: viewer, body }),
          403,
          'permission_denied',
        );
        const refused = await callApi(running, 'POST', `/updateReservation/${reservation.id}`, {
          headers: readToken,
          body,
        });
        expectError(refused, 403, 'insufficient_scope');
        expect(refused.body).toMatchObject({ details: { required: ['reservations:write'] } });
        expect((await world.domain.reservations.get(demo, reservation.id)).notes).toBe(reservation.notes);
        expectError(
          await callApi(running, 'POST', `/updateReservation/${otherReservationId}`, {
            headers: owner,
            body,
          }),
          404,
          'not_found',
        );
        const lapsed = await ownerActor(world, demoUsers.lapsedOwner);
        expect((await world.domain.reservations.get(lapsed, otherReservationId)).notes).not.toBe(body.notes);
        const unread = await callApi(running, 'GET', '/listReservations', { headers: writeToken });
        expectError(unread, 403, 'insufficient_scope');
        expect(unread.body).toMatchObject({ details: { required: ['reservations:read'] } });
      });
    });

    describe('Messages', () => {
      it('pages a reservation’s message thread', async () => {
        const reservation = await acceptedReservation(0);
        const whole = answerOf(
          await callApi(running, 'GET', `/getMessageThread/${reservation.id}?limit=500`, { headers: owner }),
          200,
          getMessageThreadOperation.output,
        );
        expect(whole.reservation.id).toBe(reservation.id);
        expect(whole.messages.items.length).toBeGreaterThan(2);
        expect(whole.messages.hasMore).toBe(false);
        const first = answerOf(
          await callApi(running, 'GET', `/getMessageThread/${reservation.id}?limit=2`, {
            headers: readToken,
          }),
          200,
          getMessageThreadOperation.output,
        );
        expect(first.messages).toMatchObject({ hasMore: true, items: whole.messages.items.slice(0, 2) });
        const second = answerOf(
          await callApi(
            running,
            'GET',
            `/getMessageThread/${reservation.id}?limit=2&cursor=${first.messages.nextCursor}`,
            { headers: viewer },
          ),
          200,
          getMessageThreadOperation.output,
        );
        expect(second.messages.items[0]).toEqual(whole.messages.items[2]);
      });

      it('names a bad limit, reads other accounts’ reservations as 404, asks for messages:read', async () => {
        const reservation = await acceptedReservation(0);
        expectError(
          await callApi(running, 'GET', `/getMessageThread/${reservation.id}?limit=ten`, { headers: owner }),
          400,
          'invalid_argument',
          'limit',
        );
        expectError(
          await callApi(running, 'GET', `/getMessageThread/${otherReservationId}`, { headers: owner }),
          404,
          'not_found',
        );
        const refused = await callApi(running, 'GET', `/getMessageThread/${reservation.id}`, {
          headers: writeToken,
        });
        expectError(refused, 403, 'insufficient_scope');
        expect(refused.body).toMatchObject({ details: { required: ['messages:read'] } });
      });
    });

    describe('Reviews', () => {
      it('lists reviews across listings, filtered by rating and listing, paged', async () => {
        const first = answerOf(
          await callApi(running, 'GET', '/listReviews?limit=5', { headers: readToken }),
          200,
          getReviewsOperation.output,
        );
        expect(first).toMatchObject({ hasMore: true });
        expect(first.items).toHaveLength(5);
        expect(new Set(first.items.map((review) => review.listingId)).size).toBeGreaterThan(1);
        const low = answerOf(
          await callApi(running, 'GET', '/listReviews?maxRating=3&limit=500', { headers: owner }),
          200,
          getReviewsOperation.output,
        );
        expect(low.items.length).toBeGreaterThan(0);
        for (const review of low.items) expect(review.rating).toBeLessThanOrEqual(3);
        const listingId = first.items[0]?.listingId ?? '';
        const ofListing = answerOf(
          await callApi(running, 'GET', `/listReviews?listingId=${listingId}&unanswered=false`, {
            headers: viewer,
          }),
          200,
          getReviewsOperation.output,
        );
        for (const review of ofListing.items) {
          expect(review.listingId).toBe(listingId);
          expect(review.hostResponse).not.toBeNull();
        }
      });

      it('names bad review filters, reads another account’s listing as 404, asks for reviews:read', async () => {
        expectError(
          await callApi(running, 'GET', '/listReviews?minRating=5&maxRating=3', { headers: owner }),
          400,
          'invalid_argument',
          'minRating',
        );
        expectError(
          await callApi(running, 'GET', `/listReviews?listingId=${otherListingId}`, { headers: owner }),
          404,
          'not_found',
        );
        const refused = await callApi(running, 'GET', '/listReviews', { headers: writeToken });
        expectError(refused, 403, 'insufficient_scope');
        expect(refused.body).toMatchObject({ details: { required: ['reviews:read'] } });
      });
    });

    describe('Locks', () => {
      it('lists locks, reads one, and lists a stay’s access codes', async () => {
        const locks = answerOf(
          await callApi(running, 'GET', '/listLocks', { headers: readToken }),
          200,
          listLocksOperation.output,
        );
        expect(locks.items.length).toBeGreaterThan(1);
        const first = answerOf(
          await callApi(running, 'GET', '/listLocks?limit=1', { headers: viewer }),
          200,
          listLocksOperation.output,
        );
        expect(first).toMatchObject({ hasMore: true, items: locks.items.slice(0, 1) });
        const lock = locks.items[0];
        if (lock === undefined) throw new Error('the demo has no locks');
        expect(
          answerOf(
            await callApi(running, 'GET', `/getLock/${lock.id}`, { headers: owner }),
            200,
            getLockOperation.output,
          ),
        ).toEqual(lock);
        const stays = await world.domain.reservations.list(demo, {
          listingId: lock.listingIds[0],
          statuses: ['accepted'],
          // Codes are kept for stays not yet over; tomorrow is past today in every listing's zone.
          startDate: addDays(new Date().toISOString().slice(0, 10), 1),
          limit: 20,
        });
        let codes: z.output<typeof listAccessCodesOperation.output> = { accessCodes: [] };
        for (const stay of stays.items) {
          codes = answerOf(
            await callApi(running, 'GET', `/listAccessCodes?reservationId=${stay.id}`, {
              headers: readToken,
            }),
            200,
            listAccessCodesOperation.output,
          );
          if (codes.accessCodes.length > 0) {
            for (const code of codes.accessCodes) expect(code.reservationId).toBe(stay.id);
            break;
          }
        }
        expect(codes.accessCodes.map((code) => code.lockId)).toContain(lock.id);
      });

      it('reads unknown locks and other accounts’ stays as 404, names a missing reservationId, asks for locks:read', async () => {
        expectError(
          await callApi(running, 'GET', '/getLock/lck_unknown', { headers: owner }),
          404,
          'not_found',
        );
        expectError(
          await callApi(running, 'GET', `/listAccessCodes?reservationId=${otherReservationId}`, {
            headers: owner,
          }),
          404,
          'not_found',
        );
        expectError(
          await callApi(running, 'GET', '/listAccessCodes', { headers: owner }),
          400,
          'invalid_argument',
          'reservationId',
        );
        const refused = await callApi(running, 'GET', '/listLocks', { headers: writeToken });
        expectError(refused, 403, 'insufficient_scope');
        expect(refused.body).toMatchObject({ details: { required: ['locks:read'] } });
        expect(world.reported).toEqual([]);
      });
    });
  },
);
