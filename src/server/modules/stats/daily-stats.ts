import { addDays, dateInZone } from '../../../shared/dates.js';
import type { DailyStatsEntry, DailyStatsQuery } from '../../../shared/schemas/site-stats.js';
import type { Executor } from '../../db/database.js';
import type { DailyStatsRepository, DayCounts } from './daily-stats-repository.js';

/** A value entered in the declaration log, as the day's totals count it. */
export interface CountedDeclaration {
  /** The value it replaced: null for a first declaration, else a correction. */
  previous: string | null;
  /** A close step that completes the open half `previous`: a declaration, not a correction. */
  completes?: boolean;
  /** ISO instant: its day in the site's zone is the day it counts on. */
  declaredAt: string;
}

/**
 * The site's numbers per day of its time zone, kept as running totals: each event adds to its day
 * in the transaction that makes it (a visitor batch, a declaration), so a range is read from a few
 * hundred rows at most, however many sessions and results there are.
 */
export class DailyStats {
  constructor(
    private readonly repository: DailyStatsRepository,
    private readonly timeZone: string,
  ) {}

  /** Visitor sessions stored for the first time at `seenAt` (epoch ms), in the transaction that stores them. */
  async visitorsAdded(trx: Executor, seenAt: number, count: number): Promise<void> {
    if (count <= 0) return;
    await this.repository.add(trx, dateInZone(new Date(seenAt), this.timeZone), { visitors: count });
  }

  /** Values appended to the declaration log, in its transaction: first declarations and corrections. */
  async declared(trx: Executor, declared: readonly CountedDeclaration[]): Promise<void> {
    const days = new Map<string, Pick<DayCounts, 'declarations' | 'corrections'>>();
    for (const { previous, completes, declaredAt } of declared) {
      const day = dateInZone(new Date(declaredAt), this.timeZone);
      const counts = days.get(day) ?? { declarations: 0, corrections: 0 };
      if (previous === null || completes) counts.declarations += 1;
      else counts.corrections += 1;
      days.set(day, counts);
    }
    // In date order: two transactions adding to the same days lock their rows in the same order.
    for (const day of [...days.keys()].sort()) await this.repository.add(trx, day, days.get(day) ?? {});
  }

  /** Every day of the range, a day without a row as zeros. */
  async daily({ from, to }: DailyStatsQuery): Promise<DailyStatsEntry[]> {
    const stored = new Map((await this.repository.range(from, to)).map((row) => [row.date, row]));
    const days: DailyStatsEntry[] = [];
    for (let date = from; date <= to; date = addDays(date, 1)) {
      const row = stored.get(date);
      days.push({
        date,
        visitors: Number(row?.visitors ?? 0),
        declarations: Number(row?.declarations ?? 0),
        corrections: Number(row?.corrections ?? 0),
      });
    }
    return days;
  }
}
