import type { ModuleContext, ModuleRoutes } from '../module-context.js';
import { ContentBlocksRepository } from './content-blocks-repository.js';
import { contentBlocksRoutes } from './content-blocks-routes.js';
import { ContentBlocksService } from './content-blocks-service.js';

/** The content blocks the public pages show. */
export function contentBlocksModule({ database, changes, activity }: ModuleContext) {
  const service = new ContentBlocksService(new ContentBlocksRepository(database), changes, activity);
  const routes: ModuleRoutes = (app) => app.register(contentBlocksRoutes, { blocks: service });
  return { service, routes };
}
