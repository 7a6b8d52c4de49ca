import type { Database } from '../../db/database.js';
import type { ModuleRoutes } from '../module-context.js';
import { ActivityRecorder } from './activity-recorder.js';
import { ActivityRepository } from './activity-repository.js';
import { activityRoutes } from './activity-routes.js';
import { ActivityService } from './activity-service.js';

/** The activity trail: the recorder every other module writes to, and the admins' reading of it. */
export function activityModule(database: Database, timeZone: string) {
  const repository = new ActivityRepository(database);
  const recorder = new ActivityRecorder(repository, database);
  const service = new ActivityService(repository, timeZone);
  const routes: ModuleRoutes = (app) => app.register(activityRoutes, { activity: service });
  return { recorder, routes };
}
