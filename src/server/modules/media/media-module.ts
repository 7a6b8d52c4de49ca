import { PerMinuteLimit } from '../../lib/per-minute-limit.js';
import type { ModuleContext, ModuleRoutes } from '../module-context.js';
import { MediaRepository } from './media-repository.js';
import { mediaRoutes } from './media-routes.js';
import { MediaService } from './media-service.js';

/** The media library: images for content blocks, kept in the database and served from it. */
export function mediaModule({ database, config, now, activity }: ModuleContext) {
  const service = new MediaService(new MediaRepository(database), activity);
  const perMinute = new PerMinuteLimit(config.mediaQueriesPerMinute, now);
  const routes: ModuleRoutes = (app) => app.register(mediaRoutes, { media: service, perMinute });
  return { service, routes };
}
