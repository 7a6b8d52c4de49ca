import { sql } from 'kysely';
import type { Database, Executor } from '../../db/database.js';

export interface SubmittedResult {
  gid: number;
  date: string;
  value: string;
  userId: number;
  now: string;
  /**
   * The value completes the open half stored for the day (an open/close market's close step): it
   * replaces it, and the result is not marked corrected (previous_value stays null).
   */
  completes?: boolean;
}

/** What a submission did: the value it replaced, when it replaced one. */
export interface UpsertOutcome {
  kind: 'created' | 'corrected' | 'completed' | 'unchanged';
  previous: string | null;
}

export class ResultsWriteRepository {
  constructor(private readonly database: Database) {}

  /**
   * One result per ghadi and date: a first submission inserts, a later one with another value replaces
   * it and records the old one in result_history; the same value again changes nothing. Runs in the
   * caller's transaction (the change log's), which appends what changed to the declaration log.
   */
  async upsert(trx: Executor, input: SubmittedResult): Promise<UpsertOutcome> {
    await this.lockResult(trx, input.gid, input.date);
    const inserted = await trx
      .insertInto('results')
      .values({
        gid: input.gid,
        result_date: input.date,
        value: input.value,
        created_by: input.userId,
        created_at: input.now,
        updated_at: input.now,
        declared_at: input.now,
        previous_value: null,
      })
      .onConflict((conflict) => conflict.columns(['gid', 'result_date']).doNothing())
      .returning('result_id')
      .executeTakeFirst();
    if (inserted) return { kind: 'created', previous: null };

    const existing = await trx
      .selectFrom('results')
      .select(['result_id', 'value', 'is_active'])
      .where('gid', '=', input.gid)
      .where('result_date', '=', input.date)
      .executeTakeFirstOrThrow();
    if (existing.value === input.value) {
      if (existing.is_active !== 1)
        await trx
          .updateTable('results')
          .set({ is_active: 1 })
          .where('result_id', '=', existing.result_id)
          .execute();
      return { kind: 'unchanged', previous: existing.value };
    }
    await trx
      .insertInto('result_history')
      .values({
        result_id: existing.result_id,
        old_value: existing.value,
        new_value: input.value,
        changed_by: input.userId,
        changed_at: input.now,
      })
      .execute();
    await trx
      .updateTable('results')
      .set({
        value: input.value,
        created_by: input.userId,
        updated_at: input.now,
        is_active: 1,
        previous_value: input.completes ? null : existing.value,
        declared_at: input.now,
      })
      .where('result_id', '=', existing.result_id)
      .execute();
    return { kind: input.completes ? 'completed' : 'corrected', previous: existing.value };
  }

  /** The day's stored value, held (as upsert holds it) until `trx` ends; null when there is none. */
  async current(trx: Executor, gid: number, date: string): Promise<string | null> {
    await this.lockResult(trx, gid, date);
    const row = await trx
      .selectFrom('results')
      .select('value')
      .where('gid', '=', gid)
      .where('result_date', '=', date)
      .where('is_active', '=', 1)
      .executeTakeFirst();
    return row?.value ?? null;
  }

  /**
   * Holds one result (ghadi and date) until `trx` ends, before it is read. PostgreSQL reads each
   * statement as committed when it starts: without the lock, writers of the same new value at once
   * would all read the old one and each record a correction; with it, each reads what the one before
   * committed, and the same value again is seen as such. A transaction-scoped advisory lock on two
   * 32-bit keys, a space apart from the app's single-key locks (the declaration log's, the change
   * log's): a collision of two results' keys only makes them wait for each other. SQLite has one
   * writer at a time already.
   */
  async lockResult(trx: Executor, gid: number, date: string): Promise<void> {
    if (this.database.dialect === 'postgres')
      await sql`select pg_advisory_xact_lock(${gid}::integer, hashtext(${date}))`.execute(trx);
  }
}
