import { type Migration, type MigrationProvider, Migrator } from 'kysely';
import type { Database } from './database.js';
import * as initial from './migrations/2026-11-22-0001-initial.js';
import * as publicReadModel from './migrations/2026-11-23-0001-public-read-model.js';
import * as loginAttempts from './migrations/2026-11-23-0101-login-attempts.js';
import * as revokedTokens from './migrations/2026-11-23-0102-revoked-tokens.js';

/** Listed in code (not read from a folder) so the built server and the tests run the same set. */
const migrations: Record<string, Migration> = {
  '2026-11-22-0001-initial': initial,
  '2026-11-23-0001-public-read-model': publicReadModel,
  '2026-11-23-0101-login-attempts': loginAttempts,
  '2026-11-23-0102-revoked-tokens': revokedTokens,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrateToLatest(database: Database): Promise<void> {
  // Kysely looks for its migration tables in every schema unless told which one: with several
  // schemas in one database (one per test suite), it would find another schema's tables and skip its own.
  const migrator = new Migrator({
    db: database.db,
    provider,
    ...(database.pgSchema ? { migrationTableSchema: database.pgSchema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    // The driver's code stays readable (whileAlone retries a SQLite start that collided with another).
    const code = (error as { code?: unknown } | undefined)?.code;
    throw Object.assign(new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`), {
      cause: error,
      code,
    });
  }
}
