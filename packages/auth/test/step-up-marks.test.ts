import { testDatabaseKinds } from '@innkeep/storage/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStepUpMarks, stepUpMarkLifetimeMs } from '../src/postgres/step-up-marks.ts';
import { openPagesWorld, type PagesWorld } from './support/account-pages-harness.ts';

describe.each(testDatabaseKinds)('step-up marks on %s', (kind) => {
  let world: PagesWorld;

  beforeAll(async () => {
    world = await openPagesWorld(kind);
  }, 180_000);

  afterAll(async () => {
    await world?.close();
  });

  it('a mark is taken once, with the scopes of the latest refusal', async () => {
    const marks = createStepUpMarks(world.db, world.clock);
    await marks.mark('grant-taken', ['listings:read', 'calendar:write']);
    await marks.mark('grant-taken', ['listings:read', 'reservations:write']);
    expect(await marks.take('grant-taken')).toEqual({
      scopes: ['listings:read', 'reservations:write'],
      markedAt: world.clock.now(),
    });
    expect(await marks.take('grant-taken')).toBeUndefined();
    expect(await marks.take('grant-never-marked')).toBeUndefined();
  });

  it('a mark refuses nothing after a day, and marking another grant removes it', async () => {
    const marks = createStepUpMarks(world.db, world.clock);
    await marks.mark('grant-stale', ['calendar:write']);
    await marks.mark('grant-kept', ['calendar:write']);
    world.clock.advance(stepUpMarkLifetimeMs - 1);
    expect(await marks.take('grant-kept')).toMatchObject({ scopes: ['calendar:write'] });

    world.clock.advance(1);
    await marks.mark('grant-fresh', ['messages:write']);
    const left = await world.db.selectFrom('oauth_step_up_marks').select('grant_id').execute();
    expect(left.map((row) => row.grant_id)).toEqual(['grant-fresh']);

    await marks.mark('grant-aged', ['calendar:write']);
    world.clock.advance(stepUpMarkLifetimeMs);
    expect(await marks.take('grant-aged')).toBeUndefined();
  });
});
