import { todayInZone } from '../../../shared/dates.js';
import type { GhadiStatsEntry, GhadiStatsQuery } from '../../../shared/schemas/site-stats.js';
import type { Now } from '../../lib/clock.js';
import type { GhadiStatsRepository } from './ghadi-stats-repository.js';
import type { Punctuality } from './punctuality-rule.js';

/**
 * Per live ghadi over a range of dates: how often its result came on time and how late it came, by
 * the rule of punctuality.ts, judged now (a date is owed once its deadline has passed).
 */
export class GhadiStats {
  constructor(
    private readonly repository: GhadiStatsRepository,
    private readonly punctuality: Punctuality,
    private readonly timeZone: string,
    private readonly now: Now,
  ) {}

  async perGhadi({ from, to }: GhadiStatsQuery): Promise<GhadiStatsEntry[]> {
    const asOf = this.now();
    const today = todayInZone(this.timeZone, new Date(asOf));
    const ghadis = await this.repository.liveGhadis();
    const figures = await this.punctuality.figures(ghadis, { from, to, today, asOf });
    return ghadis.map((ghadi, index) => {
      const { days, declared, onTime, imported, onTimeRate, medianDelayMinutes } = figures[
        index
      ] as (typeof figures)[number];
      return {
        GID: ghadi.gid,
        NameEn: ghadi.name_en,
        days,
        declared,
        onTime,
        onTimeRate,
        medianDelayMinutes,
        imported,
      };
    });
  }
}
