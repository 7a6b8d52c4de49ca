import { type Kysely, sql } from 'kysely';

// Frozen: this file describes the schema as it was on its date. Change the schema in a new migration.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists at the time
type AnyDb = Kysely<any>;

/**
 * Log entries gain `imported` (1: written by a CSV import, whose time is the import's, not the
 * result's declaration), so that punctuality leaves such days out. Not hashed: the entries' hashes
 * and the published formula stay as they are.
 *
 * Entries already written cannot say where they came from, but an import stamps all its entries with
 * one instant while a declaration writes one entry at its own: entries sharing their instant with
 * another are marked. An import of a single line stays unmarked, as it was counted before.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('declarations')
    .addColumn('imported', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`
    update declarations set imported = 1
    where declared_at in (
      select declared_at from declarations group by declared_at having count(*) > 1)
  `.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('declarations').dropColumn('imported').execute();
}
