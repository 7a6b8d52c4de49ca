import type { Database } from '../../db/database.js';
import type { ModuleRoutes } from '../module-context.js';
import { SettingsRepository } from '../settings/settings-repository.js';
import { healthRoutes } from './health-routes.js';

/** /healthz and /readyz, for a process manager or orchestrator. */
export function healthModule(database: Database) {
  const routes: ModuleRoutes = (app) =>
    app.register(healthRoutes, { database, settings: new SettingsRepository(database) });
  return { routes };
}
