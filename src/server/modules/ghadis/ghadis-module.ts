import type { ModuleContext, ModuleRoutes } from '../module-context.js';
import { GhadisRepository } from './ghadis-repository.js';
import { ghadisRoutes } from './ghadis-routes.js';
import { GhadisService } from './ghadis-service.js';

/** The ghadis (game slots): their list and the admins' management of them. */
export function ghadisModule({ database, config, changes, activity }: ModuleContext) {
  const service = new GhadisService(new GhadisRepository(database), config.siteTimezone, changes, activity);
  const routes: ModuleRoutes = (app) => app.register(ghadisRoutes, { ghadis: service });
  return { service, routes };
}
