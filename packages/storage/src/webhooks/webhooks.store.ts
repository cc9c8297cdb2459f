import {
  type Actor,
  assertCanWrite,
  createWebhookInputSchema,
  DomainError,
  decodeCursor,
  generateSecretToken,
  hostToolsWebhookEvents,
  listWebhooksInputSchema,
  maxWebhooksPerAccount,
  newId,
  notFound,
  parseInput,
  rotateWebhookSecretInputSchema,
  setHostToolsWebhookInputSchema,
  toPage,
  updateWebhookInputSchema,
  type Webhook,
  type WebhookEvent,
  type WebhookFormat,
  type WebhookUseCases,
  webhookEvents,
  webhookRefInputSchema,
  webhookSecretPrefix,
} from '@innkeep/domain';
import { type Selectable, sql } from 'kysely';
import type { Executor, WebhookSubscriptionsTable } from '../database.ts';
import type { StoreDeps } from '../store-deps.ts';
import { inTransaction, recordAudit } from '../transaction.ts';

/** Recorded as the reason when a user turns a subscription off, so the list says why it is quiet. */
const turnedOffReason = 'Turned off by a user; set active to true to resume deliveries.';

const hourMs = 60 * 60 * 1000;

/** Webhook-subscription use cases over PostgreSQL; every time comes from `clock`, never the database. */
export function createWebhookUseCases({ db, clock }: StoreDeps): WebhookUseCases {
  return {
    async list(actor, rawInput) {
      const input = parseInput(listWebhooksInputSchema, rawInput);
      let query = selectWebhooks(db, actor, clock.now());
      if (input.cursor !== undefined) {
        const [createdKey, id] = decodeCursor(input.cursor, 2);
        const createdAt = sql<Date>`cast(${String(createdKey)} as timestamptz)`;
        query = query.where((eb) =>
          eb(eb.refTuple('created_at', 'id'), '>', eb.tuple(createdAt, String(id))),
        );
      }
      const rows = await query
        .orderBy('created_at')
        .orderBy('id')
        .limit(input.limit + 1)
        .execute();
      return toPage(rows, input.limit, toWebhook, (row) => [row.created_key, row.id]);
    },

    async create(actor, rawInput) {
      assertCanWrite(actor);
      const input = parseInput(createWebhookInputSchema, rawInput);
      const events = input.events ?? [...webhookEvents];
      return inTransaction(db, async (trx) => {
        await lockAccountWebhooks(trx, actor);
        await assertRoomForOneMore(trx, actor);
        const id = newId('webhook');
        const secret = generateSecretToken(webhookSecretPrefix);
        await trx
          .insertInto('webhook_subscriptions')
          .values({ id, account_id: actor.accountId, url: input.url, events, secret })
          .execute();
        // Never the secret: the audit log is readable by more people than the receiver's operator.
        await recordAudit(trx, actor, {
          action: 'webhook.create',
          targetType: 'webhook',
          targetId: id,
          details: { url: input.url, events },
        });
        return { ...(await findWebhookOrThrow(trx, actor, id, clock.now())), secret };
      });
    },

    async update(actor, rawInput) {
      assertCanWrite(actor);
      const input = parseInput(updateWebhookInputSchema, rawInput);
      return inTransaction(db, async (trx) => {
        const current = await trx
          .selectFrom('webhook_subscriptions')
          .select(['id', 'active', 'format'])
          .where('id', '=', input.webhookId)
          .where('account_id', '=', actor.accountId)
          .forUpdate()
          .executeTakeFirst();
        if (!current) throw notFound('webhook', input.webhookId);
        if (current.format === 'hosttools' && input.events !== undefined) {
          assertHostToolsEvents(input.events);
        }
        const activity =
          input.active === undefined || input.active === current.active
            ? {}
            : input.active
              ? { active: true, disabled_reason: null, consecutive_failures: 0 }
              : { active: false, disabled_reason: turnedOffReason };
        const changes = { url: input.url, events: input.events, ...activity };
        const { webhookId, ...changed } = input;
        // Asking for the state it is already in (e.g. active: true on an active subscription) writes nothing.
        if (Object.values(changes).some((value) => value !== undefined)) {
          await trx.updateTable('webhook_subscriptions').set(changes).where('id', '=', current.id).execute();
          await recordAudit(trx, actor, {
            action: 'webhook.update',
            targetType: 'webhook',
            targetId: webhookId,
            details: { changed },
          });
        }
        return findWebhookOrThrow(trx, actor, webhookId, clock.now());
      });
    },

    async rotateSecret(actor, rawInput) {
      assertCanWrite(actor);
      const { webhookId, overlapHours } = parseInput(rotateWebhookSecretInputSchema, rawInput);
      return inTransaction(db, async (trx) => {
        const now = clock.now();
        const secret = generateSecretToken(webhookSecretPrefix);
        // The current secret becomes the previous one in the same statement, so two rotations at once each
        // move the secret the other left (row lock), and one overlapping from an earlier rotation is dropped:
        // never more than two sign.
        const previous =
          overlapHours === 0
            ? { previous_secret: null, previous_secret_expires_at: null }
            : {
                previous_secret: sql<string>`secret`,
                previous_secret_expires_at: new Date(now.getTime() + overlapHours * hourMs),
              };
        const rotated = await trx
          .updateTable('webhook_subscriptions')
          .set({ secret, ...previous })
          .where('id', '=', webhookId)
          .where('account_id', '=', actor.accountId)
          .returning(['id', 'previous_secret_expires_at'])
          .executeTakeFirst();
        if (!rotated) throw notFound('webhook', webhookId);
        // Never a secret, old or new: the audit log is readable by more people than the receiver's operator.
        await recordAudit(trx, actor, {
          action: 'webhook.rotate_secret',
          targetType: 'webhook',
          targetId: rotated.id,
          details: {
            overlapHours,
            previousSecretExpiresAt: rotated.previous_secret_expires_at?.toISOString() ?? null,
          },
        });
        return { ...(await findWebhookOrThrow(trx, actor, rotated.id, now)), secret };
      });
    },

    async delete(actor, rawInput) {
      assertCanWrite(actor);
      const { webhookId } = parseInput(webhookRefInputSchema, rawInput);
      return inTransaction(db, async (trx) => {
        const deleted = await trx
          .deleteFrom('webhook_subscriptions')
          .where('id', '=', webhookId)
          .where('account_id', '=', actor.accountId)
          .returning(['id', 'url', 'format'])
          .executeTakeFirst();
        if (!deleted) throw notFound('webhook', webhookId);
        await recordAudit(trx, actor, {
          action: 'webhook.delete',
          targetType: 'webhook',
          targetId: deleted.id,
          details: { url: deleted.url, format: deleted.format },
        });
        return { id: deleted.id, deleted: true } as const;
      });
    },

    async getHostToolsUrl(actor) {
      const row = await db
        .selectFrom('webhook_subscriptions')
        .select('url')
        .where('account_id', '=', actor.accountId)
        .where('format', '=', 'hosttools')
        .executeTakeFirst();
      return { webhookURL: row?.url ?? null };
    },

    async setHostToolsUrl(actor, rawInput) {
      assertCanWrite(actor);
      const { url } = parseInput(setHostToolsWebhookInputSchema, rawInput);
      return inTransaction(db, async (trx) => {
        // The account lock orders concurrent setWebhook calls, so the second replaces the first's URL
        // instead of colliding with it on the one-per-account index.
        await lockAccountWebhooks(trx, actor);
        const existing = await trx
          .selectFrom('webhook_subscriptions')
          .select('id')
          .where('account_id', '=', actor.accountId)
          .where('format', '=', 'hosttools')
          .executeTakeFirst();
        if (existing) {
          // Setting the URL again is how a Host Tools integration says "deliver here": a subscription
          // turned off, by a user or after failures, starts again with a clean slate.
          await trx
            .updateTable('webhook_subscriptions')
            .set({ url, active: true, disabled_reason: null, consecutive_failures: 0 })
            .where('id', '=', existing.id)
            .execute();
          await recordAudit(trx, actor, {
            action: 'webhook.update',
            targetType: 'webhook',
            targetId: existing.id,
            details: { url, format: 'hosttools' },
          });
          return findWebhookOrThrow(trx, actor, existing.id, clock.now());
        }
        // Only a new subscription counts toward the cap; replacing the URL adds none.
        await assertRoomForOneMore(trx, actor);
        const id = newId('webhook');
        const events = [...hostToolsWebhookEvents];
        await trx
          .insertInto('webhook_subscriptions')
          .values({
            id,
            account_id: actor.accountId,
            url,
            events,
            // Deliveries carry the same signature header as every subscription's, so a receiver may verify
            // them; Host Tools integrations never see the secret and ignore the header.
            secret: generateSecretToken(webhookSecretPrefix),
            format: 'hosttools',
          })
          .execute();
        await recordAudit(trx, actor, {
          action: 'webhook.create',
          targetType: 'webhook',
          targetId: id,
          details: { url, events, format: 'hosttools' },
        });
        return findWebhookOrThrow(trx, actor, id, clock.now());
      });
    },

    async deleteHostToolsUrl(actor) {
      assertCanWrite(actor);
      return inTransaction(db, async (trx) => {
        const deleted = await trx
          .deleteFrom('webhook_subscriptions')
          .where('account_id', '=', actor.accountId)
          .where('format', '=', 'hosttools')
          .returning(['id', 'url'])
          .executeTakeFirst();
        if (!deleted) return { deleted: false };
        await recordAudit(trx, actor, {
          action: 'webhook.delete',
          targetType: 'webhook',
          targetId: deleted.id,
          details: { url: deleted.url, format: 'hosttools' },
        });
        return { deleted: true };
      });
    },
  };
}

/**
 * Locks the account row until the transaction ends, which serialises the account's subscription writes: the
 * cap cannot be overshot by a race, and concurrent setWebhook calls replace one another in turn. `no key
 * update` still lets inserts that refer to the account (the audit log's) through, so an update or delete
 * holding a subscription's row while it audits never waits on a setWebhook that waits on that row.
 */
async function lockAccountWebhooks(trx: Executor, actor: Actor): Promise<void> {
  await trx.selectFrom('accounts').select('id').where('id', '=', actor.accountId).forNoKeyUpdate().execute();
}

/** Refuses with `failed_precondition` when one more subscription would pass {@link maxWebhooksPerAccount}. */
async function assertRoomForOneMore(trx: Executor, actor: Actor): Promise<void> {
  const existing = await trx
    .selectFrom('webhook_subscriptions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', actor.accountId)
    .executeTakeFirstOrThrow();
  if (Number(existing.n) >= maxWebhooksPerAccount) {
    throw new DomainError(
      'failed_precondition',
      `This account already has ${maxWebhooksPerAccount} webhook subscriptions, the most allowed. ` +
        'Delete one, or subscribe an existing URL to more events.',
      { details: { limit: maxWebhooksPerAccount } },
    );
  }
}

/** Refuses events a Host Tools body cannot describe, for the `hosttools` subscription. */
function assertHostToolsEvents(events: readonly WebhookEvent[]): void {
  const allowed = new Set<WebhookEvent>(hostToolsWebhookEvents);
  const refused = events.filter((event) => !allowed.has(event));
  if (refused.length === 0) return;
  throw new DomainError(
    'invalid_argument',
    `The Host Tools subscription receives only ${hostToolsWebhookEvents.join(', ')}; ` +
      `its body has no shape for ${refused.join(', ')}.`,
    { details: { refusedEvents: refused, allowedEvents: [...hostToolsWebhookEvents] } },
  );
}

/**
 * Every column but the secrets, which leave the database only inside the delivery worker. The previous
 * secret's expiry reads as null once it has passed at `now`, since that secret no longer signs.
 */
function selectWebhooks(db: Executor, actor: Actor, now: Date) {
  return db
    .selectFrom('webhook_subscriptions')
    .select([
      'id',
      'url',
      'events',
      'format',
      'active',
      'disabled_reason',
      'consecutive_failures',
      'created_at',
      sql<Date | null>`case when previous_secret_expires_at > ${now} then previous_secret_expires_at end`.as(
        'previous_secret_expires_at',
      ),
      // Microsecond text key for the cursor: a JS Date keeps only milliseconds, which would skip rows.
      sql<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as('created_key'),
    ])
    .where('account_id', '=', actor.accountId);
}

async function findWebhookOrThrow(
  db: Executor,
  actor: Actor,
  webhookId: string,
  now: Date,
): Promise<Webhook> {
  const row = await selectWebhooks(db, actor, now).where('id', '=', webhookId).executeTakeFirst();
  if (!row) throw notFound('webhook', webhookId);
  return toWebhook(row);
}

function toWebhook(
  row: Omit<Selectable<WebhookSubscriptionsTable>, 'secret' | 'account_id' | 'previous_secret'>,
): Webhook {
  return {
    id: row.id,
    url: row.url,
    events: row.events as WebhookEvent[],
    format: row.format as WebhookFormat,
    active: row.active,
    disabledReason: row.disabled_reason,
    consecutiveFailures: row.consecutive_failures,
    previousSecretExpiresAt: row.previous_secret_expires_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
  };
}
