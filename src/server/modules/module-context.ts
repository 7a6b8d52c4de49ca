import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { AppConfig } from '../config.js';
import type { Database } from '../db/database.js';
import type { Now } from '../lib/clock.js';
import type { ActivityRecorder } from './activity/activity-recorder.js';
import type { ChangeLog } from './changes/change-log.js';

/**
 * What every module's factory may use: the database, the configuration, the log, the clock of its
 * limits, the change log (every write the public site shows goes through it) and the activity trail
 * (every admin action is recorded there). A module's factory (`<module>-module.ts`) builds its
 * repositories, services and routes from this and from the services of modules made before it.
 */
export interface ModuleContext {
  database: Database;
  config: AppConfig;
  log: FastifyBaseLogger;
  now: Now;
  changes: ChangeLog;
  activity: ActivityRecorder;
}

/** A module's routes, ready for the app to register in their place among the others. */
export type ModuleRoutes = (app: FastifyInstance) => PromiseLike<unknown>;
