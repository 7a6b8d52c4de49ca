import { sql } from 'kysely';
import { changeChannel, type Database, type Executor } from '../../db/database.js';
import type { Change, LoggedChange } from './change.js';

/** Any constant: the advisory lock that makes change ids commit in order on PostgreSQL. */
const APPEND_LOCK = 7_316_001;

function toPayload(change: Change): { kind: Change['kind']; payload: string } {
  const { kind, ...subject } = change;
  return { kind, payload: JSON.stringify(subject) };
}

export class ChangeLogRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  /**
   * Appends a change inside the caller's transaction. Readers follow the log by id, so ids must
   * become visible in order: on PostgreSQL a transaction-scoped lock, taken as the write's last step,
   * makes concurrent writers commit one at a time in id order (SQLite has one writer anyway).
   */
  async append(trx: Executor, change: Change, now: string): Promise<number> {
    if (this.database.dialect === 'postgres')
      await sql`select pg_advisory_xact_lock(${APPEND_LOCK})`.execute(trx);
    const row = await trx
      .insertInto('change_log')
      .values({ ...toPayload(change), created_at: now })
      .returning('change_id')
      .executeTakeFirstOrThrow();
    await this.announce(trx, row.change_id);
    return row.change_id;
  }

  /** On PostgreSQL, tells every listening process at commit (a reference: they read the log). */
  private async announce(trx: Executor, id: number): Promise<void> {
    if (this.database.dialect === 'postgres')
      await sql`select pg_notify(${changeChannel(this.database)}, ${String(id)})`.execute(trx);
  }

  /** SQLite's count of commits by other connections: it moves when another process wrote. */
  async dataVersion(): Promise<number> {
    const result = await sql<{ data_version: number }>`pragma data_version`.execute(this.db);
    return Number(result.rows[0]?.data_version ?? 0);
  }

  /** Records a day change unless a process already has; its id when this call recorded it, else null. */
  appendOnce(change: Change, now: string): Promise<number | null> {
    return this.db.transaction().execute(async (trx) => {
      if (this.database.dialect === 'postgres')
        await sql`select pg_advisory_xact_lock(${APPEND_LOCK})`.execute(trx);
      const rows = await trx
        .insertInto('change_log')
        .values({ ...toPayload(change), created_at: now })
        .onConflict((conflict) => conflict.doNothing())
        .returning('change_id')
        .execute();
      if (rows[0]) await this.announce(trx, rows[0].change_id);
      return rows[0]?.change_id ?? null;
    });
  }

  /** Changes after `afterId`, oldest first. */
  async since(afterId: number, limit: number): Promise<LoggedChange[]> {
    const rows = await this.db
      .selectFrom('change_log')
      .select(['change_id', 'kind', 'payload'])
      .where('change_id', '>', afterId)
      .orderBy('change_id')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      id: row.change_id,
      change: { kind: row.kind, ...JSON.parse(row.payload) } as Change,
    }));
  }

  async latestId(): Promise<number> {
    const row = await this.db
      .selectFrom('change_log')
      .select((eb) => eb.fn.max('change_id').as('latest'))
      .executeTakeFirst();
    return Number(row?.latest ?? 0);
  }

  /** Drops entries older than `before` (an ISO instant); the newest entry always stays. */
  async pruneBefore(before: string): Promise<void> {
    const latest = await this.latestId();
    await this.db
      .deleteFrom('change_log')
      .where('created_at', '<', before)
      .where('change_id', '<', latest)
      .execute();
  }
}
