import { type Selectable, sql } from 'kysely';
import type { GhadiKind } from '../../../shared/matka.js';
import { foldName } from '../../../shared/names.js';
import { countRows, type Database, type Executor } from '../../db/database.js';
import type { GhadisTable } from '../../db/schema.js';

export type GhadiRow = Selectable<GhadisTable>;
export interface GhadiFields {
  name_en: string;
  name_hn: string;
  r_time: string;
  order_id: number;
  kind: GhadiKind;
  open_time: string | null;
  /** A bit set of weekdays (src/shared/matka.ts). */
  days: number;
  /** 1 or 2: how many people must enter the same value before it is published (decision 0020). */
  confirmations: number;
}

/** A new ghadi's fields: without the newer ones it is a daily jodi ghadi one person publishes. */
export type NewGhadiFields = Omit<GhadiFields, 'kind' | 'open_time' | 'days' | 'confirmations'> &
  Partial<Pick<GhadiFields, 'kind' | 'open_time' | 'days' | 'confirmations'>>;

export interface ResultSummary {
  today: string;
  /** Today's result replaced this value (a correction), or null. */
  todayPrevious: string | null;
  /** When today's result was declared, or null when there is none. */
  todayDeclaredAt: string | null;
  yesterday: string;
  latest: string;
}

export class GhadisRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  private live(db: Executor = this.db) {
    return db.selectFrom('ghadis').selectAll().where('is_deleted', '=', 0);
  }

  listLive(): Promise<GhadiRow[]> {
    return this.live().orderBy('order_id').orderBy('gid').execute();
  }

  listAssignedTo(userId: number): Promise<GhadiRow[]> {
    return this.db
      .selectFrom('ghadis')
      .innerJoin('usermaps', 'usermaps.gid', 'ghadis.gid')
      .selectAll('ghadis')
      .where('usermaps.user_id', '=', userId)
      .where('ghadis.is_deleted', '=', 0)
      .orderBy('ghadis.order_id')
      .orderBy('ghadis.gid')
      .execute();
  }

  findLive(gid: number): Promise<GhadiRow | undefined> {
    return this.live().where('gid', '=', gid).executeTakeFirst();
  }

  /** In a write's transaction, as it is until that write commits (PostgreSQL: others' writes wait). */
  findLiveToChange(trx: Executor, gid: number): Promise<GhadiRow | undefined> {
    return this.live(trx)
      .where('gid', '=', gid)
      .$if(this.database.dialect === 'postgres', (query) => query.forUpdate())
      .executeTakeFirst();
  }

  /** By the folded name, as public addresses give it (any case, any script). */
  findLiveByName(name: string): Promise<GhadiRow | undefined> {
    return this.live().where('name_folded', '=', foldName(name)).executeTakeFirst();
  }

  async gidExists(gid: number): Promise<boolean> {
    const row = await this.db.selectFrom('ghadis').select('gid').where('gid', '=', gid).executeTakeFirst();
    return row !== undefined;
  }

  /** Outside a transaction only for the first start's starter ghadis, which no reader awaits yet. */
  async insert(
    fields: NewGhadiFields,
    gid: number | undefined,
    now: string,
    trx: Executor = this.db,
  ): Promise<number> {
    const row = await trx
      .insertInto('ghadis')
      .values({
        ...fields,
        name_folded: foldName(fields.name_en),
        ...(gid === undefined ? {} : { gid }),
        created_at: now,
        updated_at: now,
      })
      .returning('gid')
      .executeTakeFirstOrThrow();
    if (gid !== undefined && this.database.dialect === 'postgres') {
      // An explicit GID does not move PostgreSQL's identity sequence; move it past the highest GID.
      await sql`select setval(pg_get_serial_sequence('ghadis', 'gid'), (select max(gid) from ghadis))`.execute(
        trx,
      );
    }
    return row.gid;
  }

  async update(trx: Executor, gid: number, fields: GhadiFields, now: string): Promise<void> {
    await trx
      .updateTable('ghadis')
      .set({ ...fields, name_folded: foldName(fields.name_en), updated_at: now })
      .where('gid', '=', gid)
      .where('is_deleted', '=', 0)
      .execute();
    // One person publishes now: entries held for a second one would otherwise wait for nobody.
    if (fields.confirmations === 1)
      await trx.deleteFrom('pending_declarations').where('gid', '=', gid).execute();
  }

  /** Results stay; the ghadi leaves the lists, and its assignments and held entries go. */
  async softDelete(trx: Executor, gid: number, now: string): Promise<void> {
    await trx.deleteFrom('usermaps').where('gid', '=', gid).execute();
    await trx.deleteFrom('pending_declarations').where('gid', '=', gid).execute();
    await trx.updateTable('ghadis').set({ is_deleted: 1, updated_at: now }).where('gid', '=', gid).execute();
  }

  async countLive(): Promise<number> {
    return countRows(this.db.selectFrom('ghadis').where('is_deleted', '=', 0));
  }

  async countAll(): Promise<number> {
    return countRows(this.db.selectFrom('ghadis'));
  }

  /** Today's, yesterday's and the latest declared value of every ghadi that has any. */
  async resultSummaries(today: string, yesterday: string): Promise<Map<number, ResultSummary>> {
    const [dayRows, latestRows] = await Promise.all([
      this.db
        .selectFrom('results')
        .select(['gid', 'result_date', 'value', 'previous_value', 'declared_at'])
        .where('is_active', '=', 1)
        .where('result_date', 'in', [today, yesterday])
        .execute(),
      // The latest value per ghadi: one index seek each on (gid, result_date), not a scan of all results.
      this.db
        .selectFrom('ghadis as g')
        .select((eb) => [
          'g.gid',
          eb
            .selectFrom('results as r')
            .select('r.value')
            .whereRef('r.gid', '=', 'g.gid')
            .where('r.is_active', '=', 1)
            .orderBy('r.result_date', 'desc')
            .limit(1)
            .as('value'),
        ])
        .where('g.is_deleted', '=', 0)
        .execute(),
    ]);
    const summaries = new Map<number, ResultSummary>();
    const summaryOf = (gid: number) => {
      let summary = summaries.get(gid);
      if (!summary) {
        summary = { today: '', todayPrevious: null, todayDeclaredAt: null, yesterday: '', latest: '' };
        summaries.set(gid, summary);
      }
      return summary;
    };
    for (const row of latestRows) if (row.value !== null) summaryOf(row.gid).latest = row.value;
    for (const row of dayRows) {
      if (row.result_date === today) {
        const summary = summaryOf(row.gid);
        summary.today = row.value;
        summary.todayPrevious = row.previous_value;
        summary.todayDeclaredAt = row.declared_at;
      } else summaryOf(row.gid).yesterday = row.value;
    }
    return summaries;
  }
}
