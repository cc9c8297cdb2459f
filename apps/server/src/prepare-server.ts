import { hasDemoAccount } from '@innkeep/demo';
import { systemClock } from '@innkeep/domain';
import { prepareDatabase } from '@innkeep/service-host';
import type { DatabaseHandle } from '@innkeep/storage';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import { localToday, seedDemoWithProgress } from './demo.ts';

/**
 * What the server does before it listens: says which keys it generated into DATA_DIR, brings the database
 * up to date, and seeds the demo account on the first start when DEMO_DATA is on.
 */
export async function prepareServer(
  config: Config,
  database: DatabaseHandle,
  log: FastifyBaseLogger,
): Promise<void> {
  if (config.secretKeys.source === 'created') {
    log.warn(
      { file: config.secretKeys.file },
      'SECRET_KEYS is not set: generated keys and stored them in the data directory (mode 0600). ' +
        'Keep that file private; set SECRET_KEYS to manage keys yourself.',
    );
  }
  if (config.oidcSigningKey.source === 'created') {
    log.warn(
      { file: config.oidcSigningKey.file },
      'OIDC_SIGNING_KEY is not set: generated the ID-token signing key and stored it in the data directory ' +
        '(mode 0600). Keep that file private; set OIDC_SIGNING_KEY to manage the key yourself.',
    );
  }

  const { migrations, helpArticles } = await prepareDatabase(database.db);
  if (migrations.length > 0) log.info({ migrations }, 'Applied database migrations');
  const { added, updated, removed } = helpArticles;
  if (added.length + updated.length + removed.length > 0) log.info(helpArticles, 'Updated the help articles');

  if (config.demoData && !(await hasDemoAccount(database.db))) {
    process.stderr.write('Seeding the demo account (first start only)…\n');
    const startedAt = performance.now();
    await seedDemoWithProgress(database.db, { today: localToday(systemClock.now()) }, process.stderr);
    log.info({ seconds: Math.round((performance.now() - startedAt) / 100) / 10 }, 'Seeded the demo account');
  }
}
