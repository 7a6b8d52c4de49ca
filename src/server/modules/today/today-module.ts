import type { ModuleContext, ModuleRoutes } from '../module-context.js';
import { TodayRepository } from './today-repository.js';
import { todayRoutes } from './today-routes.js';
import { TodayService } from './today-service.js';

/** The operator's board of today: what is declared, due and overdue. */
export function todayModule({ database, config, now }: ModuleContext) {
  const today = new TodayService(
    new TodayRepository(database),
    config.siteTimezone,
    config.overdueAfterMinutes,
    now,
  );
  const routes: ModuleRoutes = (app) => app.register(todayRoutes, { today });
  return { routes };
}
