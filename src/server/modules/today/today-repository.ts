import type { Database } from '../../db/database.js';

export interface BoardGhadiRow {
  gid: number;
  name_en: string;
  name_hn: string;
  r_time: string;
  kind: 'jodi' | 'panna' | 'open-close';
  open_time: string | null;
  /** The weekdays it runs, as a bit set (src/shared/matka.ts). */
  days: number;
}

export interface BoardHolidayRow {
  /** 0: every ghadi. */
  gid: number;
  note: string;
}

export interface BoardResultRow {
  gid: number;
  value: string;
  previous_value: string | null;
  declared_at: string;
  author_username: string | null;
  author_display_name: string | null;
}

export interface BoardAgentRow {
  gid: number;
  user_id: number;
  username: string;
  display_name: string;
  last_seen_at: string | null;
}

/**
 * Today's board: reads on keys and small tables (the live ghadis, one date's results and holidays,
 * the assignments).
 */
export class TodayRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  liveGhadis(): Promise<BoardGhadiRow[]> {
    return this.db
      .selectFrom('ghadis')
      .select(['gid', 'name_en', 'name_hn', 'r_time', 'kind', 'open_time', 'days'])
      .where('is_deleted', '=', 0)
      .orderBy('order_id')
      .orderBy('gid')
      .execute();
  }

  /** The active results of a date, with who declared each value. */
  resultsOf(date: string): Promise<BoardResultRow[]> {
    return this.db
      .selectFrom('results as r')
      .leftJoin('users as u', 'u.user_id', 'r.created_by')
      .select([
        'r.gid',
        'r.value',
        'r.previous_value',
        'r.declared_at',
        'u.username as author_username',
        'u.display_name as author_display_name',
      ])
      .where('r.result_date', '=', date)
      .where('r.is_active', '=', 1)
      .execute();
  }

  /** The holidays of a date: a ghadi's own, and every ghadi's (gid 0). */
  holidaysOn(date: string): Promise<BoardHolidayRow[]> {
    return this.db.selectFrom('holidays').select(['gid', 'note']).where('holiday_date', '=', date).execute();
  }

  /** Active, undeleted agents and the live ghadis they are assigned. */
  assignedAgents(): Promise<BoardAgentRow[]> {
    return this.db
      .selectFrom('usermaps as m')
      .innerJoin('users as u', 'u.user_id', 'm.user_id')
      .innerJoin('ghadis as g', 'g.gid', 'm.gid')
      .select(['m.gid', 'u.user_id', 'u.username', 'u.display_name', 'u.last_seen_at'])
      .where('u.is_deleted', '=', 0)
      .where('u.is_active', '=', 1)
      .where('u.user_type', '=', 'agent')
      .where('g.is_deleted', '=', 0)
      .orderBy('u.username')
      .orderBy('u.user_id')
      .execute();
  }
}
