import { todayInZone } from '../../../shared/dates.js';
import { dueAtOf } from '../../../shared/ghadi-due.js';
import { maskToDays, runsOn } from '../../../shared/matka.js';
import { boardStateOf, type Closure, marketStepOf } from '../../../shared/open-close-steps.js';
import type { TodayAgent, TodayBoard, TodayGhadi } from '../../../shared/schemas/today.js';
import type { Now } from '../../lib/clock.js';
import type { BoardGhadiRow, BoardHolidayRow, BoardResultRow, TodayRepository } from './today-repository.js';

/** gid of a holiday of every ghadi (as src/server/modules/holidays keeps it). */
const EVERY_GHADI = 0;

/** Why a ghadi does not run on the date, and the holiday's note: its own holiday's before every ghadi's. */
function closureOf(
  ghadi: BoardGhadiRow,
  date: string,
  holidays: Map<number, BoardHolidayRow>,
): { closed: Closure | null; note: string | null } {
  const holiday = holidays.get(ghadi.gid) ?? holidays.get(EVERY_GHADI);
  if (holiday) return { closed: 'holiday', note: holiday.note || null };
  return { closed: runsOn(maskToDays(ghadi.days), date) ? null : 'off-day', note: null };
}

/** The admin's board for result time: every live ghadi today, its state by the clock, and its agents. */
export class TodayService {
  constructor(
    private readonly repository: TodayRepository,
    private readonly timeZone: string,
    private readonly overdueAfterMinutes: number,
    private readonly now: Now,
  ) {}

  async board(): Promise<TodayBoard> {
    const now = this.now();
    const date = todayInZone(this.timeZone, new Date(now));
    const [ghadis, results, agents, holidays] = await Promise.all([
      this.repository.liveGhadis(),
      this.repository.resultsOf(date),
      this.repository.assignedAgents(),
      this.repository.holidaysOn(date),
    ]);
    const resultOf = new Map(results.map((row) => [row.gid, row]));
    const holidayOf = new Map(holidays.map((row) => [row.gid, row]));
    const agentsOf = new Map<number, TodayAgent[]>();
    for (const row of agents) {
      const list = agentsOf.get(row.gid) ?? [];
      list.push({
        User_Id: row.user_id,
        UserName: row.username,
        DisplayName: row.display_name,
        lastSeenAt: row.last_seen_at,
      });
      agentsOf.set(row.gid, list);
    }
    const { timeZone, overdueAfterMinutes } = this;
    return {
      date,
      timeZone,
      overdueAfterMinutes,
      ghadis: ghadis.map((ghadi) =>
        this.rowOf(ghadi, date, now, resultOf.get(ghadi.gid), holidayOf, agentsOf.get(ghadi.gid) ?? []),
      ),
    };
  }

  private rowOf(
    ghadi: BoardGhadiRow,
    date: string,
    now: number,
    result: BoardResultRow | undefined,
    holidays: Map<number, BoardHolidayRow>,
    agents: TodayAgent[],
  ): TodayGhadi {
    const { timeZone, overdueAfterMinutes } = this;
    const dueAt = dueAtOf(ghadi.r_time, date, timeZone);
    const market = ghadi.kind === 'open-close';
    const openDueAt = market && ghadi.open_time !== null ? dueAtOf(ghadi.open_time, date, timeZone) : null;
    const step = marketStepOf(ghadi.kind, result?.value ?? null);
    const { closed, note } = closureOf(ghadi, date, holidays);
    return {
      GID: ghadi.gid,
      NameEn: ghadi.name_en,
      NameHn: ghadi.name_hn,
      RTime: ghadi.r_time,
      dueAt,
      state: boardStateOf({
        dueAt,
        openDueAt,
        step,
        closed,
        result: result ? { corrected: result.previous_value !== null } : null,
        now,
        overdueAfterMinutes,
      }),
      Kind: ghadi.kind,
      OpenTime: market ? ghadi.open_time : null,
      openDueAt,
      step,
      closed,
      closedNote: note,
      Result: result?.value ?? null,
      DeclaredAt: result?.declared_at ?? null,
      // A blank display name reads as no name.
      DeclaredBy: result ? result.author_display_name || result.author_username || null : null,
      agents,
    };
  }
}
