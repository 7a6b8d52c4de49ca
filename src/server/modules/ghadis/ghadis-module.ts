import { HolidaysRepository } from '../holidays/holidays-repository.js';
import type { ModuleContext, ModuleRoutes } from '../module-context.js';
import { GhadisRepository } from './ghadis-repository.js';
import { ghadisRoutes } from './ghadis-routes.js';
import { GhadisService } from './ghadis-service.js';

/** The ghadis (game slots): their list and the admins' management of them. */
export function ghadisModule({ database, config, changes, activity }: ModuleContext) {
  // The holidays close ghadis: the ghadi list says which are closed today, and the holidays module edits them.
  const holidays = new HolidaysRepository(database);
  const service = new GhadisService(
    new GhadisRepository(database),
    config.siteTimezone,
    changes,
    activity,
    holidays,
  );
  const routes: ModuleRoutes = (app) => app.register(ghadisRoutes, { ghadis: service });
  return { service, holidays, routes };
}
