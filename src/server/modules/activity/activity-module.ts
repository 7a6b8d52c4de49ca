import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.js';
import type { Now } from '../../lib/clock.js';
import type { ModuleRoutes } from '../module-context.js';
import { ActivityRecorder } from './activity-recorder.js';
import { ActivityRepository } from './activity-repository.js';
import { ActivityRetention } from './activity-retention.js';
import { activityRoutes } from './activity-routes.js';
import { ActivityService } from './activity-service.js';

/**
 * The activity trail: the recorder every other module writes to, the admins' reading of it, and the
 * retention that takes old entries' client details out (started by the app).
 */
export function activityModule(
  database: Database,
  settings: { timeZone: string; retentionDays: number; now: Now; log: FastifyBaseLogger },
) {
  const repository = new ActivityRepository(database);
  const recorder = new ActivityRecorder(repository, database);
  const service = new ActivityService(repository, settings.timeZone);
  const retention = new ActivityRetention(
    repository,
    settings.retentionDays,
    settings.now,
    settings.log,
    database.health,
  );
  const routes: ModuleRoutes = (app) => app.register(activityRoutes, { activity: service });
  return { recorder, retention, routes };
}
