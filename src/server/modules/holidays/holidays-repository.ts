import type { Selectable } from 'kysely';
import type { Database, Executor } from '../../db/database.js';
import type { HolidaysTable } from '../../db/schema.js';

export type HolidayRow = Selectable<HolidaysTable>;

/** gid 0 in a row: a holiday of every ghadi. */
export const EVERY_GHADI = 0;

export interface NewHoliday {
  date: string;
  gid: number;
  note: string;
  createdBy: number;
  now: string;
}

export class HolidaysRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  /** Every holiday, past and future: a few dozen a year. */
  list(): Promise<HolidayRow[]> {
    return this.db.selectFrom('holidays').selectAll().orderBy('holiday_date').orderBy('gid').execute();
  }

  /** Every holiday between two dates (inclusive), of any ghadi. */
  inRange(from: string, to: string): Promise<HolidayRow[]> {
    return this.db
      .selectFrom('holidays')
      .selectAll()
      .where('holiday_date', '>=', from)
      .where('holiday_date', '<=', to)
      .execute();
  }

  /** The holidays between two dates (inclusive) of one ghadi, its own and every ghadi's. */
  between(gid: number, from: string, to: string): Promise<HolidayRow[]> {
    return this.db
      .selectFrom('holidays')
      .selectAll()
      .where('holiday_date', '>=', from)
      .where('holiday_date', '<=', to)
      .where('gid', 'in', [gid, EVERY_GHADI])
      .orderBy('holiday_date')
      .execute();
  }

  /** The ghadis on holiday on a date: EVERY_GHADI among them when all are. */
  async ghadisOffOn(date: string, db: Executor = this.db): Promise<Set<number>> {
    const rows = await db.selectFrom('holidays').select('gid').where('holiday_date', '=', date).execute();
    return new Set(rows.map((row) => row.gid));
  }

  async insert(trx: Executor, holiday: NewHoliday): Promise<number> {
    const row = await trx
      .insertInto('holidays')
      .values({
        holiday_date: holiday.date,
        gid: holiday.gid,
        note: holiday.note,
        created_by: holiday.createdBy,
        created_at: holiday.now,
      })
      .returning('holiday_id')
      .executeTakeFirstOrThrow();
    return row.holiday_id;
  }

  async delete(trx: Executor, id: number): Promise<HolidayRow | undefined> {
    return trx.deleteFrom('holidays').where('holiday_id', '=', id).returningAll().executeTakeFirst();
  }
}
