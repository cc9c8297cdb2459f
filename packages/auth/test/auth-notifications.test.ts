import { type DatabaseHandle, openDatabase } from '@innkeep/storage';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  authNotificationChannel,
  createPostgresAuthNotifications,
} from '../src/postgres/auth-notifications.ts';
import { parseAuthNotification } from '../src/resource-server/auth-notifications.ts';
import { createOwner, createSubUser, type OauthWorld, openOauthWorld } from './support/oauth-harness.ts';

// The triggers of migration 2026_11_21_1002 and the listener that hears them, on PostgreSQL (PGlite is one
// process: nothing to tell other instances, and its deployments check every token in the database).
describe('auth notifications on PostgreSQL', () => {
  let world: OauthWorld;
  let listening: DatabaseHandle;
  let heard: string[];
  let stopListening: () => Promise<void>;

  beforeAll(async () => {
    world = await openOauthWorld('postgres');
    listening = await openDatabase({ kind: 'postgres', url: world.url ?? '' });
    heard = [];
    const listen = listening.listen;
    if (listen === undefined) throw new Error('a PostgreSQL handle must offer listen');
    await new Promise<void>((resolve) => {
      stopListening = createPostgresAuthNotifications({ listen }).subscribe(
        (payload) => heard.push(payload),
        () => {},
        resolve,
      );
    });
  }, 180_000);

  afterEach(() => {
    heard.length = 0;
  });

  afterAll(async () => {
    await stopListening?.();
    await listening?.close();
    await world?.close();
  });

  /** Inserts an oidc_model row as the adapter would. */
  async function insertModel(model: string, id: string, grantId: string | null) {
    await world.db
      .insertInto('oidc_model')
      .values({ model, id, payload: JSON.stringify({}), grant_id: grantId })
      .execute();
  }

  /** Waits for `expected`, then a little longer to be sure nothing else follows. */
  async function expectHeard(expected: string[]) {
    await vi.waitFor(() => expect(heard).toEqual(expected), { timeout: 2000 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(heard).toEqual(expected);
  }

  it('names the grant when a Grant, or an access or refresh token of it, is deleted', async () => {
    await insertModel('Grant', 'g1', null);
    await insertModel('AccessToken', 'at1', 'g1');
    await insertModel('RefreshToken', 'rt1', 'g1');
    await insertModel('AuthorizationCode', 'code1', 'g1');
    await world.db.deleteFrom('oidc_model').where('id', '=', 'at1').execute();
    await world.db.deleteFrom('oidc_model').where('id', '=', 'rt1').execute();
    await world.db.deleteFrom('oidc_model').where('id', '=', 'code1').execute();
    await world.db.deleteFrom('oidc_model').where('id', '=', 'g1').execute();
    await expectHeard(['grant:g1', 'grant:g1', 'grant:g1']);
  });

  it('sends one message for a transaction that deletes a whole grant', async () => {
    await insertModel('Grant', 'g2', null);
    await insertModel('AccessToken', 'at2a', 'g2');
    await insertModel('AccessToken', 'at2b', 'g2');
    await world.db
      .deleteFrom('oidc_model')
      .where((eb) => eb.or([eb('grant_id', '=', 'g2'), eb('id', '=', 'g2')]))
      .execute();
    await expectHeard(['grant:g2']);
  });

  it('names the grant when a token or grant row is rewritten, but not for a last-used bump', async () => {
    await insertModel('Grant', 'g3', null);
    await insertModel('AccessToken', 'at3', 'g3');
    await world.db
      .updateTable('oidc_model')
      .set({ last_used_at: new Date() })
      .where('id', '=', 'g3')
      .execute();
    await world.db
      .updateTable('oidc_model')
      .set({ expires_at: new Date(Date.now() + 1000) })
      .where('id', '=', 'at3')
      .execute();
    await world.db
      .insertInto('oidc_model')
      .values({ model: 'Grant', id: 'g3', payload: JSON.stringify({ changed: true }) })
      .onConflict((conflict) =>
        conflict.columns(['model', 'id']).doUpdateSet({ payload: JSON.stringify({ changed: true }) }),
      )
      .execute();
    await expectHeard(['grant:g3', 'grant:g3']);
  });

  it('names the user when the role changes or the user goes, not for other changes', async () => {
    const owner = await createOwner(world);
    const member = await createSubUser(world, owner);
    await world.db.updateTable('users').set({ first_name: 'Mona' }).where('id', '=', member.userId).execute();
    await world.db.updateTable('users').set({ role: 'manager' }).where('id', '=', member.userId).execute();
    await world.db.updateTable('users').set({ role: 'viewer' }).where('id', '=', member.userId).execute();
    await world.db.deleteFrom('users').where('id', '=', member.userId).execute();
    await expectHeard([`user:${member.userId}`, `user:${member.userId}`]);
  });

  it('names the account when the subscription status changes or the account goes', async () => {
    const owner = await createOwner(world);
    await world.operator.setSubscriptionStatus({ accountId: owner.accountId, status: 'past_due' });
    await world.db
      .updateTable('subscriptions')
      .set({ plan: 'bigger' })
      .where('account_id', '=', owner.accountId)
      .execute();
    await expectHeard([`account:${owner.accountId}`]);
    heard.length = 0;
    await world.db.deleteFrom('accounts').where('id', '=', owner.accountId).execute();
    // The cascade deletes the owner and the subscription, each of which says so.
    await vi.waitFor(() =>
      expect([...heard].sort()).toEqual([`account:${owner.accountId}`, `user:${owner.userId}`].sort()),
    );
  });

  it('says nothing for a change that is rolled back', async () => {
    const owner = await createOwner(world);
    await world.db
      .transaction()
      .execute(async (trx) => {
        await trx.updateTable('users').set({ role: 'manager' }).where('id', '=', owner.userId).execute();
        throw new Error('roll back');
      })
      .catch(() => {});
    await expectHeard([]);
  });

  it('tells everyone to forget everything when a table is truncated', async () => {
    await sql`truncate oidc_model`.execute(world.db);
    await expectHeard(['reset']);
  });

  it('reads payloads, taking anything unknown as "forget everything"', () => {
    expect(authNotificationChannel).toBe('innkeep_auth');
    expect(parseAuthNotification('grant:g1')).toEqual({ kind: 'grant', id: 'g1' });
    expect(parseAuthNotification('user:usr_1')).toEqual({ kind: 'user', id: 'usr_1' });
    expect(parseAuthNotification('account:acc:1')).toEqual({ kind: 'account', id: 'acc:1' });
    for (const payload of ['reset', 'grant:', ':g1', 'session:s1', '']) {
      expect(parseAuthNotification(payload)).toEqual({ kind: 'everything' });
    }
  });
});
