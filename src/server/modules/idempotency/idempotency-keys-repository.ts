import type { Database, Executor } from '../../db/database.js';
import type { IdempotencyKeysTable } from '../../db/schema.js';

export type IdempotencyKeyRow = IdempotencyKeysTable;

/** Every query of the idempotency keys. */
export class IdempotencyKeysRepository {
  constructor(private readonly database: Database) {}

  /** A user's key, when it is at least as recent as `since` (an ISO instant). */
  find(userId: number, key: string, since: string): Promise<IdempotencyKeyRow | undefined> {
    return this.database.db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('user_id', '=', userId)
      .where('key', '=', key)
      .where('created_at', '>=', since)
      .executeTakeFirst();
  }

  /**
   * Deletes the user's key when it is older than `before`, so that it can be stored again, and up to
   * `limit` other keys older than that, oldest first. On PostgreSQL rows another transaction is
   * deleting are skipped rather than waited for: that one prunes them.
   */
  async prune(trx: Executor, userId: number, key: string, before: string, limit: number): Promise<void> {
    await trx
      .deleteFrom('idempotency_keys')
      .where('user_id', '=', userId)
      .where('key', '=', key)
      .where('created_at', '<', before)
      .execute();
    await trx
      .deleteFrom('idempotency_keys')
      .where(({ eb, refTuple, selectFrom }) =>
        eb(
          refTuple('user_id', 'key'),
          'in',
          selectFrom('idempotency_keys')
            .select(['user_id', 'key'])
            .where('created_at', '<', before)
            .orderBy('created_at')
            .limit(limit)
            .$if(this.database.dialect === 'postgres', (query) => query.forUpdate().skipLocked())
            .$asTuple('user_id', 'key'),
        ),
      )
      .execute();
  }

  /** How many keys the user stored since `since` (an ISO instant), and the oldest of them. */
  async storedSince(
    trx: Executor,
    userId: number,
    since: string,
  ): Promise<{ count: number; oldest: string | null }> {
    const row = await trx
      .selectFrom('idempotency_keys')
      .select(({ fn }) => [fn.countAll<number | string>().as('count'), fn.min('created_at').as('oldest')])
      .where('user_id', '=', userId)
      .where('created_at', '>=', since)
      .executeTakeFirst();
    return { count: Number(row?.count ?? 0), oldest: (row?.oldest as string | null | undefined) ?? null };
  }

  /** Fails with a unique violation when the user's key was stored meanwhile (by a concurrent request). */
  async insert(trx: Executor, row: IdempotencyKeyRow): Promise<void> {
    await trx.insertInto('idempotency_keys').values(row).execute();
  }
}
