import { type ColumnDefinitionBuilder, type Kysely, PostgresAdapter } from 'kysely';

// Frozen: this file describes the schema as it was on its date. Change the schema in a new migration.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists at the time
type AnyDb = Kysely<any>;

function isPostgres(db: AnyDb): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

function identity(db: AnyDb) {
  // SQLite's AUTOINCREMENT never hands out a deleted image's id again: its addresses are cached for good.
  return (column: ColumnDefinitionBuilder) =>
    isPostgres(db) ? column.primaryKey().generatedByDefaultAsIdentity() : column.primaryKey().autoIncrement();
}

/**
 * The media library (issue 43): images kept in the database, so that every process serves them and
 * a dump carries them.
 *
 * media: one row per upload: the original's type and size, and the uploaded file's byte count.
 *
 * media_files: every stored copy of an upload, keyed by its address below /media/ ("12/720.webp"),
 * so that serving one is a read by primary key; `etag` is a hash of `data`.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('media')
    .addColumn('media_id', 'integer', identity(db))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('media_files')
    .addColumn('path', 'text', (c) => c.primaryKey())
    .addColumn('media_id', 'integer', (c) => c.notNull().references('media.media_id').onDelete('cascade'))
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('etag', 'text', (c) => c.notNull())
    .addColumn('data', isPostgres(db) ? 'bytea' : 'blob', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('media_files_media').on('media_files').column('media_id').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('media_files').execute();
  await db.schema.dropTable('media').execute();
}
