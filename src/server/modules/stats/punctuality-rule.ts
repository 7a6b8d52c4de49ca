import { addDays, dateInZone } from '../../../shared/dates.js';
import { instantInZone, instantsOnDate, parseResultTime } from '../../../shared/ghadi-due.js';
import { completesOpenHalf, maskToDays, runsOn } from '../../../shared/matka.js';
import type { PunctualityRecord } from '../../../shared/schemas/punctuality.js';
import { EVERY_GHADI, type HolidaysRepository } from '../holidays/holidays-repository.js';
import type { GhadiStatsRepository, StatsGhadiRow } from './ghadi-stats-repository.js';

const MINUTE_MS = 60_000;

/** How many days the public figures cover: today and the 29 before it. */
export const PUBLIC_PUNCTUALITY_DAYS = 30;

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

/** One ghadi's punctuality over a range of dates. */
export interface PunctualityFigures {
  /** Dates owed a result and judged: run, owed or declared, and not first given by an import. */
  days: number;
  /** Of those, the dates with a result. */
  declared: number;
  /** Of those, the dates first declared before the deadline. */
  onTime: number;
  /** Dates with a result whose first value came by import (no time of its own): in none of the above. */
  imported: number;
  /** onTime / days (three decimals); null without days or without a readable RTime. */
  onTimeRate: number | null;
  /** The median of the declared dates' minutes after dueAt (one decimal); null without any or an RTime. */
  medianDelayMinutes: number | null;
  readableTime: boolean;
}

export interface PunctualityRange {
  from: string;
  to: string;
  /** The site's date: a later date is not over and counts nothing. */
  today: string;
  /** When the deadlines are judged (epoch ms): a date without a result is owed once its deadline passed. */
  asOf: number;
}

interface Tally {
  days: number;
  declared: number;
  onTime: number;
  imported: number;
  delays: number[];
}

/**
 * The rule of a ghadi's punctuality, for the console's figures (GET /api/stats/ghadis) and the public
 * ones (GET /api/punctuality/{name}) alike. A date's deadline is the board's: dueAt (the RTime, read
 * with src/shared/ghadi-due.ts, in the site's zone) plus the overdue allowance, and "declared" is the
 * first value entered, a correction later changing nothing. The RTime is the ghadi's current one: the
 * app keeps no history of it. Closed dates (holidays, off-days) are left out; an open/close market's
 * day counts when it is complete. A date whose first value came by CSV import has no declaration time
 * of its own: it counts neither on time nor late, nor as owed, only as `imported`.
 */
export class Punctuality {
  constructor(
    private readonly repository: GhadiStatsRepository,
    private readonly holidays: HolidaysRepository,
    private readonly timeZone: string,
    private readonly overdueAfterMinutes: number,
  ) {}

  /** The figures of each ghadi, in the order given (one ghadi: only its declarations are read). */
  async figures(ghadis: StatsGhadiRow[], range: PunctualityRange): Promise<PunctualityFigures[]> {
    const { from, to, today, asOf } = range;
    const only = ghadis.length === 1 ? ghadis[0]?.gid : undefined;
    const [firsts, holidays] = await Promise.all([
      this.repository.firstDeclarations(from, to, only),
      this.holidays.inRange(from, to),
    ]);
    const closedOn = new Set(holidays.map((row) => `${row.gid} ${row.holiday_date}`));
    const runningDays = ghadis.map((ghadi) => maskToDays(ghadi.days));
    const firstOf = new Map(
      firsts.map((row) => {
        const first = Date.parse(row.first_declared_at);
        const timed = row.first_timed_at === null ? null : Date.parse(row.first_timed_at);
        // Imported when no whole value was declared by a person before (or with) the import's.
        return [`${row.gid} ${row.result_date}`, { at: first, imported: timed === null || timed > first }];
      }),
    );
    const times = ghadis.map((ghadi) => parseResultTime(ghadi.r_time));
    const createdOn = ghadis.map((ghadi) => dateInZone(new Date(ghadi.created_at), this.timeZone));
    const tallies: Tally[] = ghadis.map(() => ({ days: 0, declared: 0, onTime: 0, imported: 0, delays: [] }));
    const allowance = this.overdueAfterMinutes * MINUTE_MS;

    // Dates after today are not over yet; a declaration dated ahead is rare enough to leave out.
    for (let date = from; date <= to && date <= today; date = addDays(date, 1)) {
      const dueAts = instantsOnDate(date, times, this.timeZone);
      ghadis.forEach((ghadi, index) => {
        // A closed date (a holiday, an off-day) owes nothing, even if an admin declared a result on it.
        const closed =
          closedOn.has(`${EVERY_GHADI} ${date}`) ||
          closedOn.has(`${ghadi.gid} ${date}`) ||
          !runsOn(runningDays[index] ?? [], date);
        if (closed) return;
        const tally = tallies[index] as Tally;
        const dueAt = dueAts[index] ?? null;
        const first = firstOf.get(`${ghadi.gid} ${date}`);
        if (first === undefined) {
          // A date is owed a result once it would show overdue on the board, from the ghadi's first day.
          const owed =
            date >= (createdOn[index] as string) &&
            (dueAt === null ? date < today : asOf >= dueAt + allowance);
          if (owed) tally.days += 1;
          return;
        }
        if (first.imported) {
          tally.imported += 1;
          return;
        }
        tally.days += 1;
        tally.declared += 1;
        if (dueAt === null) return;
        if (first.at < dueAt + allowance) tally.onTime += 1;
        tally.delays.push(Math.max(0, first.at - dueAt) / MINUTE_MS);
      });
    }

    return tallies.map(({ days, declared, onTime, imported, delays }, index) => {
      const readableTime = times[index] !== null;
      const delay = median(delays);
      return {
        days,
        declared,
        onTime,
        imported,
        onTimeRate: readableTime && days > 0 ? round(onTime / days, 3) : null,
        medianDelayMinutes: readableTime && delay !== null ? round(delay, 1) : null,
        readableTime,
      };
    });
  }

  /**
   * The public record of one live ghadi (null: none has the GID): the 30 dates ending today, judged
   * as of the start of today, so that the figures change only with a declaration, the ghadi, a holiday
   * or the site's new day (what drops their cached answer). Today counts once declared; a date that is
   * not over is never late.
   */
  async lastThirtyDays(gid: number, today: string): Promise<PunctualityRecord | null> {
    const ghadi = await this.repository.liveGhadi(gid);
    if (!ghadi) return null;
    const from = addDays(today, 1 - PUBLIC_PUNCTUALITY_DAYS);
    const asOf = instantInZone(today, { hour: 0, minute: 0 }, this.timeZone);
    const [[figures], replacing] = await Promise.all([
      this.figures([ghadi], { from, to: today, today, asOf }),
      this.repository.replacingEntries(gid, from, today),
    ]);
    const { days, declared, onTime, imported, medianDelayMinutes, readableTime } =
      figures as PunctualityFigures;
    // A market's close step completes its open half: a declaration, not a correction.
    const corrections = replacing.filter(
      (entry) => !(entry.kind === 'open-close' && completesOpenHalf(entry.previous, entry.value)),
    ).length;
    return {
      from,
      to: today,
      days,
      declared,
      onTime: readableTime ? onTime : null,
      medianDelayMinutes,
      corrections,
      imported,
    };
  }
}
