import { HolidaysRepository } from '../holidays/holidays-repository.js';
import type { ModuleContext, ModuleRoutes } from '../module-context.js';
import { DailyStats } from './daily-stats.js';
import { DailyStatsRepository } from './daily-stats-repository.js';
import { GhadiStats } from './ghadi-stats.js';
import { GhadiStatsRepository } from './ghadi-stats-repository.js';
import { Punctuality } from './punctuality-rule.js';
import { statsRoutes } from './stats-routes.js';

/**
 * The day's totals (declarations and visitors add to them) and each ghadi's punctuality: the
 * console's figures, and the public record the public site reads (GET /api/punctuality/{name}).
 */
export function statsModule({ database, config, now }: ModuleContext) {
  const daily = new DailyStats(new DailyStatsRepository(database), config.siteTimezone);
  const repository = new GhadiStatsRepository(database);
  const punctuality = new Punctuality(
    repository,
    new HolidaysRepository(database),
    config.siteTimezone,
    config.overdueAfterMinutes,
  );
  const ghadiStats = new GhadiStats(repository, punctuality, config.siteTimezone, now);
  const routes: ModuleRoutes = (app) => app.register(statsRoutes, { stats: daily, ghadiStats });
  return { daily, punctuality, routes };
}
