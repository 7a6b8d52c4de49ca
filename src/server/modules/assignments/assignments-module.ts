import type { ModuleContext, ModuleRoutes } from '../module-context.js';
import type { UsersRepository } from '../users/users-repository.js';
import { AssignmentsRepository } from './assignments-repository.js';
import { assignmentsRoutes } from './assignments-routes.js';
import { AssignmentsService } from './assignments-service.js';

/** Which agent may declare for which ghadi. */
export function assignmentsModule({ database, activity }: ModuleContext, users: UsersRepository) {
  const repository = new AssignmentsRepository(database);
  const service = new AssignmentsService(repository, users, activity);
  const routes: ModuleRoutes = (app) => app.register(assignmentsRoutes, { assignments: service });
  return { repository, routes };
}
