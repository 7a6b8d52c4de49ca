import { todayInZone } from '../../../shared/dates.js';
import { dueAtOf, ghadiState } from '../../../shared/ghadi-due.js';
import type { TodayAgent, TodayBoard } from '../../../shared/schemas/today.js';
import type { Now } from '../../lib/clock.js';
import type { TodayRepository } from './today-repository.js';

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
    const [ghadis, results, agents] = await Promise.all([
      this.repository.liveGhadis(),
      this.repository.resultsOf(date),
      this.repository.assignedAgents(),
    ]);
    const resultOf = new Map(results.map((row) => [row.gid, row]));
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
      ghadis: ghadis.map((ghadi) => {
        const result = resultOf.get(ghadi.gid);
        const dueAt = dueAtOf(ghadi.r_time, date, timeZone);
        return {
          GID: ghadi.gid,
          NameEn: ghadi.name_en,
          NameHn: ghadi.name_hn,
          RTime: ghadi.r_time,
          dueAt,
          state: ghadiState({
            dueAt,
            result: result ? { corrected: result.previous_value !== null } : null,
            now,
            overdueAfterMinutes,
          }),
          Result: result?.value ?? null,
          DeclaredAt: result?.declared_at ?? null,
          // A blank display name reads as no name.
          DeclaredBy: result ? result.author_display_name || result.author_username || null : null,
          agents: agentsOf.get(ghadi.gid) ?? [],
        };
      }),
    };
  }
}
