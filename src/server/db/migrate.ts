import { type Kysely, sql } from 'kysely';
import { DEFAULT_SITE_TIMEZONE } from '../environment-schema.js';
import type { Database } from './database.js';
import * as initial from './migrations/2026-11-22-0001-initial.js';
import * as publicReadModel from './migrations/2026-11-23-0001-public-read-model.js';
import * as loginAttempts from './migrations/2026-11-23-0101-login-attempts.js';
import * as revokedTokens from './migrations/2026-11-23-0102-revoked-tokens.js';
import * as resultListIndexes from './migrations/2026-11-23-0201-result-list-indexes.js';
import * as declarationLog from './migrations/2026-11-25-0001-declaration-log.js';
import * as compactVisitors from './migrations/2026-11-25-0101-compact-visitors.js';
import * as loginAttemptCounts from './migrations/2026-11-26-0101-login-attempt-counts.js';
import * as idempotencyKeys from './migrations/2026-11-26-0201-idempotency-keys.js';
import * as activityLog from './migrations/2026-11-26-0401-activity-log.js';
import * as lastSeenAndDailyStats from './migrations/2026-11-26-0501-last-seen-and-daily-stats.js';
import * as matkaMarkets from './migrations/2026-11-29-0001-matka-markets.js';
import * as twoPersonResults from './migrations/2026-11-29-0101-two-person-results.js';
import * as declarationReceipts from './migrations/2026-11-29-0102-declaration-receipts.js';
import * as importedResults from './migrations/2026-11-29-0103-imported-results.js';
import * as transparencyLog from './migrations/2026-11-29-0201-transparency-log.js';
import * as accountSessions from './migrations/2026-11-29-0401-account-sessions.js';
import * as twoFactor from './migrations/2026-11-29-0501-two-factor.js';
import * as passkeys from './migrations/2026-11-29-0601-passkeys.js';
import * as declarationsByGhadi from './migrations/2026-11-29-1701-declarations-by-ghadi.js';
import * as media from './migrations/2026-11-29-1801-media.js';
import * as notifications from './migrations/2026-11-29-1901-notifications.js';
import * as notificationSteps from './migrations/2026-11-29-2001-notification-steps.js';

/** What a migration may need of the site: the zone its days are reckoned in (SITE_TIMEZONE). */
export interface MigrationSite {
  timeZone: string;
}

/** Kysely's Migration, told of the site (a migration that reckons days needs its zone). */
interface SiteMigration {
  // biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists at the time
  up(db: Kysely<any>, site: MigrationSite): Promise<void>;
}

/** Listed in code (not read from a folder) so the built server and the tests run the same set. */
const migrations: Record<string, SiteMigration> = {
  '2026-11-22-0001-initial': initial,
  '2026-11-23-0001-public-read-model': publicReadModel,
  '2026-11-23-0101-login-attempts': loginAttempts,
  '2026-11-23-0102-revoked-tokens': revokedTokens,
  '2026-11-23-0201-result-list-indexes': resultListIndexes,
  '2026-11-25-0001-declaration-log': declarationLog,
  '2026-11-25-0101-compact-visitors': compactVisitors,
  '2026-11-26-0101-login-attempt-counts': loginAttemptCounts,
  '2026-11-26-0201-idempotency-keys': idempotencyKeys,
  '2026-11-26-0401-activity-log': activityLog,
  '2026-11-26-0501-last-seen-and-daily-stats': lastSeenAndDailyStats,
  '2026-11-29-0001-matka-markets': matkaMarkets,
  '2026-11-29-0101-two-person-results': twoPersonResults,
  '2026-11-29-0102-declaration-receipts': declarationReceipts,
  '2026-11-29-0103-imported-results': importedResults,
  '2026-11-29-0201-transparency-log': transparencyLog,
  '2026-11-29-0401-account-sessions': accountSessions,
  '2026-11-29-0501-two-factor': twoFactor,
  '2026-11-29-0601-passkeys': passkeys,
  '2026-11-29-1701-declarations-by-ghadi': declarationsByGhadi,
  '2026-11-29-1801-media': media,
  '2026-11-29-1901-notifications': notifications,
  '2026-11-29-2001-notification-steps': notificationSteps,
};

/** Every migration this code knows, in the order they run (a dump records the ones its database ran). */
export function knownMigrations(): string[] {
  return Object.keys(migrations).sort();
}

/** Kysely's table of executed migrations, kept so that databases migrated before go on as they are. */
const EXECUTED = 'kysely_migration';

/**
 * The migrations this code knows that the database has not run (another process is still migrating
 * it, or it was restored from an older dump). Throws when the database does not answer.
 */
export async function pendingMigrations(database: Database): Promise<string[]> {
  const done = await sql<{ name: string }>`select name from ${sql.table(EXECUTED)}`.execute(database.db);
  const executed = new Set(done.rows.map((row) => row.name));
  return knownMigrations().filter((name) => !executed.has(name));
}

/**
 * Runs the migrations not run yet, in name order, each in its own transaction with its record. The
 * caller excludes other processes (first-start.ts's whileAlone), so there is no lock of our own; and
 * there is no catalogue introspection (Kysely's Migrator reads every schema's tables, which fails when
 * another schema is dropped at that moment, as test suites sharing a PostgreSQL database do). `site`
 * matters only to a database with rows (the server's start passes its own).
 */
export async function migrateToLatest(
  database: Database,
  site: MigrationSite = { timeZone: DEFAULT_SITE_TIMEZONE },
): Promise<void> {
  const { db } = database;
  await sql`create table if not exists ${sql.table(EXECUTED)} (name varchar(255) primary key, timestamp varchar(255) not null)`.execute(
    db,
  );
  for (const name of await pendingMigrations(database)) {
    const migration = migrations[name];
    if (!migration) continue;
    try {
      await db.transaction().execute(async (trx) => {
        await migration.up(trx, site);
        await sql`insert into ${sql.table(EXECUTED)} (name, timestamp) values (${name}, ${new Date().toISOString()})`.execute(
          trx,
        );
      });
    } catch (error) {
      // The driver's code stays readable (whileAlone retries a SQLite start that collided with another).
      const code = (error as { code?: unknown } | undefined)?.code;
      throw Object.assign(new Error(`Migration ${name} failed: ${String(error)}`), { cause: error, code });
    }
  }
}
