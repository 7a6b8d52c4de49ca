import { LoginThrottle } from '../../lib/login-throttle.js';
import type { PasswordHasher } from '../../lib/passwords.js';
import { type SigningKeys, TokenService } from '../../lib/tokens.js';
import type { ModuleContext, ModuleRoutes } from '../module-context.js';
import type { UsersRepository } from '../users/users-repository.js';
import { authRoutes } from './auth-routes.js';
import { LoginAttemptsRepository } from './login-attempts-repository.js';
import { SessionService } from './session-service.js';
import { SessionsRepository } from './sessions-repository.js';

/** Sessions: login, logout, tokens, and the throttle on failed logins. */
export function authModule(
  { database, config, now, activity }: ModuleContext,
  needs: { users: UsersRepository; passwords: PasswordHasher; signingKeys: SigningKeys },
) {
  const sessions = new SessionService({
    sessions: new SessionsRepository(database),
    users: needs.users,
    attempts: new LoginAttemptsRepository(database),
    throttle: new LoginThrottle(config.loginMaxFailures),
    passwords: needs.passwords,
    tokens: new TokenService(needs.signingKeys, config.tokenTtlSeconds),
    now,
    activity,
  });
  const routes: ModuleRoutes = (app) => app.register(authRoutes, { sessions });
  return { sessions, routes };
}
