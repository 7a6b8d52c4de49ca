import type { GhadisService } from '../ghadis/ghadis-service.js';
import type { ModuleContext, ModuleRoutes } from '../module-context.js';
import type { HolidaysRepository } from './holidays-repository.js';
import { holidaysRoutes } from './holidays-routes.js';
import { HolidaysService } from './holidays-service.js';

/** The dates ghadis do not run: the admins add and remove them, the public reads them. */
export function holidaysModule(
  { changes, activity }: ModuleContext,
  ghadis: { service: GhadisService; holidays: HolidaysRepository },
) {
  const service = new HolidaysService(ghadis.holidays, ghadis.service, changes, activity);
  const routes: ModuleRoutes = (app) => app.register(holidaysRoutes, { holidays: service });
  return { service, routes };
}
