import type { Kysely } from 'kysely';

// Frozen: this file describes the schema as it was on its date. Change the schema in a new migration.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists at the time
type AnyDb = Kysely<any>;

/**
 * The activity trail: one row per change and per sign-in, written in the transaction of what it
 * records, never updated or deleted by the app. Who and what are copied in (not only referenced) so
 * that an entry reads the same after its user or record is renamed or deleted, and a failed login by
 * an unknown name has no user at all.
 *
 * The list is paged newest first, by user, by action, by both, within dates or not, with its exact
 * total, at any depth and at any size: counting or skipping entries would grow with the trail. So each
 * entry carries its place in the trail (activity_id, 1, 2, 3… with no gaps), among its user's entries
 * (user_seq), its action's (action_seq) and its user's of that action (user_action_seq), and `at` never
 * goes back. A page is then a range of one of those numbers (the unique indexes), and a date is a
 * place found by one seek (the indexes ending in `at`): the total is a subtraction.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('activity_log')
    .addColumn('activity_id', 'integer', (c) => c.primaryKey())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer')
    .addColumn('user_name', 'text')
    .addColumn('role', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_id', 'integer')
    .addColumn('target_name', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('user_agent', 'text', (c) => c.notNull())
    .addColumn('user_seq', 'integer')
    .addColumn('action_seq', 'integer', (c) => c.notNull())
    .addColumn('user_action_seq', 'integer')
    .execute();
  const index = (name: string, columns: string[], unique = false) =>
    db.schema
      .createIndex(name)
      .on('activity_log')
      .columns(columns)
      .$call((builder) => (unique ? builder.unique() : builder))
      .execute();
  await index('activity_log_at', ['at', 'activity_id']);
  await index('activity_log_user_seq', ['user_id', 'user_seq'], true);
  await index('activity_log_user_at', ['user_id', 'at', 'user_seq']);
  await index('activity_log_action_seq', ['action', 'action_seq'], true);
  await index('activity_log_action_at', ['action', 'at', 'action_seq']);
  await index('activity_log_user_action_seq', ['user_id', 'action', 'user_action_seq'], true);
  await index('activity_log_user_action_at', ['user_id', 'action', 'at', 'user_action_seq']);
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('activity_log').execute();
}
