import type { Kysely } from 'kysely';

// Frozen: this file describes the schema as it was on its date. Change the schema in a new migration.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists at the time
type AnyDb = Kysely<any>;

/**
 * Sessions kept in the database (decision 0022): one row per sign-in, named by its token's id, read
 * with the user on every authenticated request. An ended session keeps its row (ended_at) until it
 * would have expired; then any row goes. It replaces revoked_tokens, which knew only the ended
 * tokens: a token with no live row is refused, so tokens issued before this migration end with it
 * (everyone signs in once more).
 *
 * Users get password_change_required: set on a first admin whose password the server generated,
 * cleared when that password is changed.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('sessions')
    .addColumn('session_id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    // 'password' for now; 'password+totp' and 'passkey' when those sign-ins come.
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('ended_at', 'text')
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('user_agent', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sessions_user_created')
    .on('sessions')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema.createIndex('sessions_expiry').on('sessions').column('expires_at').execute();
  await db.schema.dropTable('revoked_tokens').execute();
  await db.schema
    .alterTable('users')
    .addColumn('password_change_required', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
