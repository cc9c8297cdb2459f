import {
  type Actor,
  afterFailedAttempt,
  assertCanWrite,
  DomainError,
  type DueWebhookDelivery,
  decodeCursor,
  failingSubscriptionReason,
  listWebhookDeliveriesInputSchema,
  newId,
  notFound,
  parseInput,
  subscriptionReceives,
  toPage,
  type WebhookDelivery,
  type WebhookDeliveryEvent,
  type WebhookDeliveryQueue,
  type WebhookDeliveryStatus,
  type WebhookEvent,
  type WebhookFormat,
  webhookDeliveryRefInputSchema,
  webhookRefInputSchema,
  webhookTestEvent,
} from '@innkeep/domain';
import { type Insertable, sql } from 'kysely';
import type { Executor, WebhookDeliveriesTable } from '../database.ts';
import { assertPositiveInteger } from '../queue-arguments.ts';
import type { StoreDeps } from '../store-deps.ts';
import { inTransaction, recordAudit } from '../transaction.ts';

// The queue lives in SQL so that any instance can work it and none needs to be told: claims are row locks
// taken with SKIP LOCKED (so concurrent workers pass each other's rows instead of waiting), and the state of
// every schedule is a committed row, so a restart resumes where the last instance stopped.

/** Deliveries inserted per statement, well inside PostgreSQL's 65,535 bind parameters at 7 per row. */
const insertChunk = 1000;

/** The delivery queue over PostgreSQL or PGlite; every time comes from `clock` or the caller, never the database. */
export function createWebhookDeliveryStore({ db, clock }: StoreDeps): WebhookDeliveryQueue {
  return {
    async dispatch(limit) {
      assertPositiveInteger('limit', limit);
      return inTransaction(db, async (trx) => {
        // Oldest first, over the partial index of undispatched events; a concurrent dispatcher skips these rows
        // and takes the next ones, and one that committed meanwhile has already marked them dispatched.
        const events = await trx
          .selectFrom('webhook_events')
          .select(['id', 'account_id', 'event'])
          .where('dispatched_at', 'is', null)
          .orderBy('created')
          .orderBy('id')
          .limit(limit)
          .forUpdate()
          .skipLocked()
          .execute();
        if (events.length === 0) return { events: 0, deliveries: 0 };
        // `for key share` keeps each subscription read here from being deleted before its deliveries are
        // inserted (one deleted a moment ago drops out of the result); a change to one waits for this commit.
        const subscriptions = await trx
          .selectFrom('webhook_subscriptions')
          .select(['id', 'account_id', 'events', 'format'])
          .where('account_id', 'in', [...new Set(events.map((event) => event.account_id))])
          .where('active', '=', true)
          .forKeyShare()
          .execute();
        const now = clock.now();
        const deliveries: Insertable<WebhookDeliveriesTable>[] = events.flatMap((event) =>
          subscriptions
            .filter(
              (subscription) =>
                subscription.account_id === event.account_id &&
                subscriptionReceives(subscription, event.event as WebhookEvent),
            )
            .map((subscription) => ({
              id: newId('webhookDelivery'),
              account_id: event.account_id,
              event_id: event.id,
              subscription_id: subscription.id,
              status: 'pending',
              next_attempt_at: now,
              created_at: now,
            })),
        );
        let inserted = 0;
        for (let start = 0; start < deliveries.length; start += insertChunk) {
          const rows = await trx
            .insertInto('webhook_deliveries')
            .values(deliveries.slice(start, start + insertChunk))
            .onConflict((conflict) => conflict.columns(['event_id', 'subscription_id']).doNothing())
            .returning('id')
            .execute();
          inserted += rows.length;
        }
        await trx
          .updateTable('webhook_events')
          .set({ dispatched_at: now })
          .where(
            'id',
            'in',
            events.map((event) => event.id),
          )
          .execute();
        return { events: events.length, deliveries: inserted };
      });
    },

    async claimDue(now, limit, leaseMs) {
      assertPositiveInteger('limit', limit);
      assertPositiveInteger('leaseMs', leaseMs);
      const leaseUntil = new Date(now.getTime() + leaseMs);
      // One statement: the subquery locks due rows nobody else has locked (skipping, not waiting for, those a
      // concurrent claimer holds), and the update stamps the lease before the locks are released, so a row is
      // either claimed here or by the other claimer, never both. A lease that ran out is due again.
      // Deliveries of a subscription turned off wait, pending, until it is turned on again, except a test,
      // which a host sends to check a receiver before turning it back on. The previous secret signs too while
      // a rotation's overlap lasts.
      const { rows } = await sql<ClaimedRow>`
        update webhook_deliveries as claimed
        set lease_until = ${leaseUntil}
        from webhook_events as event, webhook_subscriptions as subscription
        where claimed.id in (
            select due.id
            from webhook_deliveries as due
            join webhook_subscriptions as owner on owner.id = due.subscription_id
            where due.status = 'pending'
              and due.next_attempt_at <= ${now}
              and (due.lease_until is null or due.lease_until <= ${now})
              and (owner.active or exists (
                select 1 from webhook_events as test
                where test.id = due.event_id and test.event = ${webhookTestEvent}))
            order by due.next_attempt_at, due.id
            limit ${limit}
            for update of due skip locked)
          and event.id = claimed.event_id
          and subscription.id = claimed.subscription_id
        returning claimed.id as delivery_id, claimed.account_id, claimed.attempts + 1 as attempt,
          claimed.next_attempt_at,
          event.id as event_id, event.event, event.created, event.data,
          subscription.url, subscription.secret, subscription.format,
          case when subscription.previous_secret_expires_at > ${now} then subscription.previous_secret
          end as previous_secret`.execute(db);
      return rows
        .sort((a, b) => a.next_attempt_at.getTime() - b.next_attempt_at.getTime())
        .map(
          (row): DueWebhookDelivery => ({
            deliveryId: row.delivery_id,
            accountId: row.account_id,
            attempt: row.attempt,
            eventId: row.event_id,
            event: row.event as WebhookDeliveryEvent,
            created: row.created,
            data: row.data,
            url: row.url,
            secrets: row.previous_secret === null ? [row.secret] : [row.secret, row.previous_secret],
            format: row.format as WebhookFormat,
          }),
        );
    },

    async recordDelivered(attempts, now) {
      if (attempts.length === 0) return [];
      const ids = attempts.map((attempt) => attempt.deliveryId);
      const codes = attempts.map((attempt) => attempt.statusCode);
      const latencies = attempts.map((attempt) => Math.round(attempt.latencyMs));
      // One statement: the deliveries still pending become delivered, and the subscriptions among them that
      // had failures are reset, as recordAttempt does one by one; a test's success resets nothing.
      const { rows } = await sql<{ id: string }>`
        with done as (
          select * from unnest(${ids}::text[], ${codes}::int[], ${latencies}::int[]) as t(id, code, latency)),
        updated as (
          update webhook_deliveries as d
          set status = 'delivered', attempts = d.attempts + 1,
            first_attempt_at = coalesce(d.first_attempt_at, ${now}), last_attempt_at = ${now},
            lease_until = null, last_status_code = done.code, last_error = null,
            last_latency_ms = done.latency, next_attempt_at = null, delivered_at = ${now}
          from done
          where d.id = done.id and d.status = 'pending'
          returning d.id, d.subscription_id, d.event_id),
        reset as (
          update webhook_subscriptions
          set consecutive_failures = 0
          where id in (
              select updated.subscription_id
              from updated join webhook_events as event on event.id = updated.event_id
              where event.event <> ${webhookTestEvent})
            and consecutive_failures <> 0)
        select id from updated`.execute(db);
      return rows.map((row) => row.id);
    },

    async recordAttempt(deliveryId, outcome, now, random) {
      return inTransaction(db, async (trx) => {
        const delivery = await trx
          .selectFrom('webhook_deliveries as d')
          .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
          .select(['d.id', 'd.subscription_id', 'd.attempts', 'd.first_attempt_at', 'e.event'])
          .where('d.id', '=', deliveryId)
          .where('d.status', '=', 'pending')
          .forUpdate('d')
          .executeTakeFirst();
        // Delivered by a sender whose lease had run out, or redelivered meanwhile: nothing left to record.
        if (!delivery) return { recorded: false };
        const attempts = delivery.attempts + 1;
        const firstAttemptAt = delivery.first_attempt_at ?? now;
        const attempted = {
          attempts,
          first_attempt_at: firstAttemptAt,
          last_attempt_at: now,
          lease_until: null,
          last_status_code: outcome.statusCode ?? null,
          last_error: outcome.ok ? null : outcome.error,
          last_latency_ms: Math.round(outcome.latencyMs),
        };
        const updateDelivery = () => trx.updateTable('webhook_deliveries').where('id', '=', delivery.id);
        // A test says how the receiver answers now, once: it is not retried, and tells nothing about the
        // subscription's run of real deliveries, whose count and state it leaves alone.
        const isTest = delivery.event === webhookTestEvent;
        if (outcome.ok) {
          await updateDelivery()
            .set({ ...attempted, status: 'delivered', next_attempt_at: null, delivered_at: now })
            .execute();
          if (isTest) {
            return { recorded: true, status: 'delivered', nextAttemptAt: null, subscriptionDisabled: false };
          }
          // Only a subscription that had failures is written: a healthy one's row is not locked by every success.
          await trx
            .updateTable('webhook_subscriptions')
            .set({ consecutive_failures: 0 })
            .where('id', '=', delivery.subscription_id)
            .where('consecutive_failures', '<>', 0)
            .execute();
          return { recorded: true, status: 'delivered', nextAttemptAt: null, subscriptionDisabled: false };
        }
        if (isTest) {
          await updateDelivery()
            .set({ ...attempted, status: 'failed', next_attempt_at: null })
            .execute();
          return { recorded: true, status: 'failed', nextAttemptAt: null, subscriptionDisabled: false };
        }
        await trx
          .updateTable('webhook_subscriptions')
          .set((eb) => ({ consecutive_failures: eb('consecutive_failures', '+', 1) }))
          .where('id', '=', delivery.subscription_id)
          .execute();
        const next = afterFailedAttempt({ attempts, firstAttemptAt, now, random });
        if (next.kind === 'retry') {
          await updateDelivery()
            .set({ ...attempted, next_attempt_at: next.nextAttemptAt })
            .execute();
          return {
            recorded: true,
            status: 'pending',
            nextAttemptAt: next.nextAttemptAt,
            subscriptionDisabled: false,
          };
        }
        await updateDelivery()
          .set({ ...attempted, status: 'failed', next_attempt_at: null })
          .execute();
        const subscriptionDisabled = await disableIfNothingDelivered(
          trx,
          delivery.subscription_id,
          firstAttemptAt,
          failingSubscriptionReason(outcome),
        );
        return { recorded: true, status: 'failed', nextAttemptAt: null, subscriptionDisabled };
      });
    },

    async redeliver(actor, rawInput) {
      assertCanWrite(actor);
      const { deliveryId } = parseInput(webhookDeliveryRefInputSchema, rawInput);
      return inTransaction(db, async (trx) => {
        const current = await trx
          .selectFrom('webhook_deliveries')
          .select(['id', 'status', 'subscription_id', 'event_id'])
          .where('id', '=', deliveryId)
          .where('account_id', '=', actor.accountId)
          .forUpdate()
          .executeTakeFirst();
        if (!current) throw notFound('webhook delivery', deliveryId);
        if (current.status === 'pending') {
          throw new DomainError(
            'failed_precondition',
            'This delivery is still pending: it is sent again when its next attempt is due.',
            { details: { deliveryId, status: current.status } },
          );
        }
        // A new schedule: due now, a full day of retries from its first attempt, backing off from the start.
        await trx
          .updateTable('webhook_deliveries')
          .set({
            status: 'pending',
            next_attempt_at: clock.now(),
            lease_until: null,
            attempts: 0,
            first_attempt_at: null,
            delivered_at: null,
          })
          .where('id', '=', current.id)
          .execute();
        await recordAudit(trx, actor, {
          action: 'webhook.redeliver',
          targetType: 'webhook',
          targetId: current.subscription_id,
          details: { deliveryId: current.id, eventId: current.event_id, previousStatus: current.status },
        });
        const delivery = await selectDeliveries(trx, actor)
          .where('d.id', '=', current.id)
          .executeTakeFirstOrThrow();
        return toWebhookDelivery(delivery);
      });
    },

    async sendTest(actor, rawInput) {
      assertCanWrite(actor);
      const { webhookId } = parseInput(webhookRefInputSchema, rawInput);
      return inTransaction(db, async (trx) => {
        // `for key share`, as dispatch does: the subscription cannot be deleted before its delivery is inserted.
        const subscription = await trx
          .selectFrom('webhook_subscriptions')
          .select('id')
          .where('id', '=', webhookId)
          .where('account_id', '=', actor.accountId)
          .forKeyShare()
          .executeTakeFirst();
        if (!subscription) throw notFound('webhook', webhookId);
        const now = clock.now();
        const eventId = newId('webhookEvent');
        // Recorded as already dispatched, so dispatch never fans it out to the account's other subscriptions:
        // its one delivery is inserted here.
        await trx
          .insertInto('webhook_events')
          .values({
            id: eventId,
            account_id: actor.accountId,
            event: webhookTestEvent,
            created: now,
            data: JSON.stringify({ webhookId: subscription.id }),
            dispatched_at: now,
          })
          .execute();
        const deliveryId = newId('webhookDelivery');
        await trx
          .insertInto('webhook_deliveries')
          .values({
            id: deliveryId,
            account_id: actor.accountId,
            event_id: eventId,
            subscription_id: subscription.id,
            status: 'pending',
            next_attempt_at: now,
            created_at: now,
          })
          .execute();
        await recordAudit(trx, actor, {
          action: 'webhook.test',
          targetType: 'webhook',
          targetId: subscription.id,
          details: { deliveryId, eventId },
        });
        const delivery = await selectDeliveries(trx, actor)
          .where('d.id', '=', deliveryId)
          .executeTakeFirstOrThrow();
        return toWebhookDelivery(delivery);
      });
    },

    async listDeliveries(actor, rawInput) {
      const input = parseInput(listWebhookDeliveriesInputSchema, rawInput);
      const subscription = await db
        .selectFrom('webhook_subscriptions')
        .select('id')
        .where('id', '=', input.webhookId)
        .where('account_id', '=', actor.accountId)
        .executeTakeFirst();
      if (!subscription) throw notFound('webhook', input.webhookId);
      let query = selectDeliveries(db, actor).where('d.subscription_id', '=', subscription.id);
      if (input.cursor !== undefined) {
        const [createdKey, id] = decodeCursor(input.cursor, 2);
        const createdAt = sql<Date>`cast(${String(createdKey)} as timestamptz)`;
        query = query.where((eb) =>
          eb(eb.refTuple('d.created_at', 'd.id'), '<', eb.tuple(createdAt, String(id))),
        );
      }
      // Newest first along webhook_deliveries_by_subscription.
      const rows = await query
        .orderBy('d.created_at', 'desc')
        .orderBy('d.id', 'desc')
        .limit(input.limit + 1)
        .execute();
      return toPage(rows, input.limit, toWebhookDelivery, (row) => [row.created_key, row.id]);
    },
  };
}

/** A row {@link WebhookDeliveryQueue.claimDue} claimed, as the database returns it. */
interface ClaimedRow {
  readonly delivery_id: string;
  readonly account_id: string;
  readonly attempt: number;
  readonly next_attempt_at: Date;
  readonly event_id: string;
  readonly event: string;
  readonly created: Date;
  readonly data: unknown;
  readonly url: string;
  readonly secret: string;
  readonly format: string;
  readonly previous_secret: string | null;
}

/**
 * Turns the subscription off with `reason` unless one of its deliveries succeeded since `since` (the failed
 * delivery's first attempt): only a receiver that failed everything for the whole window is disabled, not
 * one that refuses a single payload. A subscription already off keeps the reason it has. True when disabled.
 */
async function disableIfNothingDelivered(
  trx: Executor,
  subscriptionId: string,
  since: Date,
  reason: string,
): Promise<boolean> {
  // Newest first over the subscription's log: a recent success, the usual find, ends the scan early.
  const delivered = await trx
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('subscription_id', '=', subscriptionId)
    .where('delivered_at', '>=', since)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (delivered) return false;
  const disabled = await trx
    .updateTable('webhook_subscriptions')
    .set({ active: false, disabled_reason: reason })
    .where('id', '=', subscriptionId)
    .where('active', '=', true)
    .returning('id')
    .executeTakeFirst();
  return disabled !== undefined;
}

/** The actor's deliveries with their events' kinds, as the log lists them. */
function selectDeliveries(db: Executor, actor: Actor) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
    .select([
      'd.id',
      'd.event_id',
      'e.event',
      'd.status',
      'd.attempts',
      'd.next_attempt_at',
      'd.last_attempt_at',
      'd.last_status_code',
      'd.last_error',
      'd.last_latency_ms',
      'd.delivered_at',
      'd.created_at',
      // Microsecond text key for the cursor: a JS Date keeps only milliseconds, which could skip rows.
      sql<string>`to_char(d.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as(
        'created_key',
      ),
    ])
    .where('d.account_id', '=', actor.accountId);
}

type DeliveryRow = Awaited<ReturnType<ReturnType<typeof selectDeliveries>['executeTakeFirstOrThrow']>>;

function toWebhookDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    eventId: row.event_id,
    event: row.event as WebhookDeliveryEvent,
    status: row.status as WebhookDeliveryStatus,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at?.toISOString() ?? null,
    lastAttemptAt: row.last_attempt_at?.toISOString() ?? null,
    lastStatusCode: row.last_status_code,
    lastError: row.last_error,
    lastLatencyMs: row.last_latency_ms,
    deliveredAt: row.delivered_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
  };
}
