import type { Kysely } from 'kysely';
import { type Migration, Migrator } from 'kysely/migration';

/**
 * Brings the schema to the latest version. Safe to run from several instances at once: Kysely takes a
 * PostgreSQL advisory lock, so one instance migrates and the others wait and find nothing left to do.
 *
 * @param migrations - every package's migrations, merged by name (names sort in run order).
 * @returns the names of the migrations that ran now.
 * @throws the first failing migration's error; the failed migration is rolled back.
 */
export async function migrateToLatest<DB>(
  db: Kysely<DB>,
  migrations: Readonly<Record<string, Migration>>,
): Promise<string[]> {
  // Each package's set is ordered within itself, but the sets interleave by date: a database migrated with one
  // set alone (a package's tests, a tool) and later by the app must still get the other set's older entries.
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => ({ ...migrations }) },
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? [])
    .filter((result) => result.status === 'Success')
    .map((result) => result.migrationName);
}
