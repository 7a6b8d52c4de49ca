import type { PasswordHasher } from '../../lib/passwords.js';
import type { ModuleContext, ModuleRoutes } from '../module-context.js';
import { FirstAdminPassword } from './first-admin-password.js';
import { LastSeen } from './last-seen.js';
import { LastSeenRepository } from './last-seen-repository.js';
import { UsersRepository } from './users-repository.js';
import { usersRoutes } from './users-routes.js';
import { UsersService } from './users-service.js';

/** The accounts: the admins' management of them, and when each was last seen (the access check writes it). */
export function usersModule(
  { database, config, now, log, activity }: ModuleContext,
  passwords: PasswordHasher,
) {
  const repository = new UsersRepository(database);
  const firstAdmin = new FirstAdminPassword(config, log);
  const service = new UsersService(repository, passwords, activity, firstAdmin);
  const lastSeen = new LastSeen(new LastSeenRepository(database), now, log, database.health);
  const routes: ModuleRoutes = (app) => app.register(usersRoutes, { users: service });
  return { repository, lastSeen, firstAdmin, routes };
}
