import { addDays, dateInZone, todayInZone } from '../../../shared/dates.js';
import { instantsOnDate, parseResultTime } from '../../../shared/ghadi-due.js';
import { maskToDays, runsOn } from '../../../shared/matka.js';
import type { GhadiStatsEntry, GhadiStatsQuery } from '../../../shared/schemas/site-stats.js';
import type { Now } from '../../lib/clock.js';
import type { GhadiStatsRepository } from './ghadi-stats-repository.js';

const MINUTE_MS = 60_000;

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

const round = (value: number, decimals: number) => {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
};

interface Tally {
  days: number;
  declared: number;
  onTime: number;
  delays: number[];
}

/**
 * Per ghadi over a range of dates: how often its result came on time and how late it came. A date's
 * deadline is the board's: dueAt (today's RTime, read with src/shared/ghadi-due.ts, in the site's
 * zone) plus the overdue allowance, and "declared" is the first value entered, a correction later
 * changing nothing. The RTime is the ghadi's current one: the app keeps no history of it. An
 * open/close market's first value is its open panna, so its deadline is its open time, as on the
 * board. A date the ghadi does not run (a holiday, its own or every ghadi's, or not one of its Days)
 * is skipped: nothing is owed, and a value an admin declared then counts neither way.
 */
export class GhadiStats {
  constructor(
    private readonly repository: GhadiStatsRepository,
    private readonly timeZone: string,
    private readonly overdueAfterMinutes: number,
    private readonly now: Now,
  ) {}

  async perGhadi({ from, to }: GhadiStatsQuery): Promise<GhadiStatsEntry[]> {
    const now = this.now();
    const today = todayInZone(this.timeZone, new Date(now));
    const [ghadis, firsts, holidays] = await Promise.all([
      this.repository.liveGhadis(),
      this.repository.firstDeclarations(from, to),
      this.repository.holidaysBetween(from, to),
    ]);
    const closedOn = new Set(holidays.map((row) => `${row.gid} ${row.holiday_date}`));
    const runningDays = ghadis.map((ghadi) => maskToDays(ghadi.days));
    const firstOf = new Map(
      firsts.map((row) => [`${row.gid} ${row.result_date}`, Date.parse(row.first_declared_at)]),
    );
    const times = ghadis.map((ghadi) =>
      parseResultTime(
        ghadi.kind === 'open-close' && ghadi.open_time !== null ? ghadi.open_time : ghadi.r_time,
      ),
    );
    const createdOn = ghadis.map((ghadi) => dateInZone(new Date(ghadi.created_at), this.timeZone));
    const tallies: Tally[] = ghadis.map(() => ({ days: 0, declared: 0, onTime: 0, delays: [] }));
    const allowance = this.overdueAfterMinutes * MINUTE_MS;

    // Dates after today are not over yet; a declaration dated ahead is rare enough to leave out.
    const last = to < today ? to : today;
    for (let date = from; date <= last; date = addDays(date, 1)) {
      const dueAts = instantsOnDate(date, times, this.timeZone);
      ghadis.forEach((ghadi, index) => {
        const tally = tallies[index] as Tally;
        const closed =
          closedOn.has(`0 ${date}`) ||
          closedOn.has(`${ghadi.gid} ${date}`) ||
          !runsOn(runningDays[index] as number[], date);
        if (closed) return;
        const dueAt = dueAts[index] ?? null;
        const declaredAt = firstOf.get(`${ghadi.gid} ${date}`);
        if (declaredAt === undefined) {
          // A date is owed a result once it would show overdue on the board, from the ghadi's first day.
          const owed =
            date >= (createdOn[index] as string) &&
            (dueAt === null ? date < today : now >= dueAt + allowance);
          if (owed) tally.days += 1;
          return;
        }
        tally.days += 1;
        tally.declared += 1;
        if (dueAt === null) return;
        if (declaredAt < dueAt + allowance) tally.onTime += 1;
        tally.delays.push(Math.max(0, declaredAt - dueAt) / MINUTE_MS);
      });
    }

    return ghadis.map((ghadi, index) => {
      const { days, declared, onTime, delays } = tallies[index] as Tally;
      const readable = times[index] !== null;
      const delay = median(delays);
      return {
        GID: ghadi.gid,
        NameEn: ghadi.name_en,
        days,
        declared,
        onTime,
        onTimeRate: readable && days > 0 ? round(onTime / days, 3) : null,
        medianDelayMinutes: readable && delay !== null ? round(delay, 1) : null,
      };
    });
  }
}
