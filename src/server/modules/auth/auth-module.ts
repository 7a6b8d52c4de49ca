import { LoginThrottle } from '../../lib/login-throttle.js';
import type { PasswordHasher } from '../../lib/passwords.js';
import { type SigningKeys, TokenService } from '../../lib/tokens.js';
import type { ModuleContext, ModuleRoutes } from '../module-context.js';
import type { FirstAdminPassword } from '../users/first-admin-password.js';
import type { UsersRepository } from '../users/users-repository.js';
import { accountRoutes } from './account-routes.js';
import { AccountService } from './account-service.js';
import { authRoutes } from './auth-routes.js';
import { LoginAttemptsRepository } from './login-attempts-repository.js';
import { PasskeyAssertions } from './passkey-assertions.js';
import { passkeyRoutes } from './passkey-routes.js';
import { PasskeyService } from './passkey-service.js';
import { PasskeySignIn } from './passkey-sign-in.js';
import { PasskeysRepository } from './passkeys-repository.js';
import { SessionService } from './session-service.js';
import { SessionsRepository } from './sessions-repository.js';
import { ThrottledPasswords } from './throttled-passwords.js';
import { TwoFactorRepository } from './two-factor-repository.js';
import { twoFactorRoutes } from './two-factor-routes.js';
import { TwoFactorService } from './two-factor-service.js';

/**
 * Sessions: login, logout, tokens, the throttle on failed logins, two-factor sign-in, passkeys, and
 * one's own account.
 */
export function authModule(
  { database, config, now, activity, log }: ModuleContext,
  needs: {
    users: UsersRepository;
    passwords: PasswordHasher;
    signingKeys: SigningKeys;
    firstAdmin: FirstAdminPassword;
  },
) {
  const sessionsRepository = new SessionsRepository(database);
  const passwords = new ThrottledPasswords({
    attempts: new LoginAttemptsRepository(database),
    throttle: new LoginThrottle(config.loginMaxFailures),
    passwords: needs.passwords,
    now,
  });
  const twoFactor = new TwoFactorService({
    repository: new TwoFactorRepository(database),
    users: needs.users,
    passwords,
    activity,
    now,
  });
  const sessions = new SessionService({
    sessions: sessionsRepository,
    users: needs.users,
    passwords,
    twoFactor,
    tokens: new TokenService(needs.signingKeys, config.tokenTtlSeconds),
    now,
    activity,
    log,
    health: database.health,
  });
  const passkeysRepository = new PasskeysRepository(database);
  const assertions = new PasskeyAssertions(passkeysRepository, now);
  const passkeys = new PasskeyService({
    repository: passkeysRepository,
    assertions,
    users: needs.users,
    passwords,
    activity,
    now,
  });
  const passkeySignIn = new PasskeySignIn({
    repository: passkeysRepository,
    assertions,
    users: needs.users,
    passwords,
    sessions,
    activity,
    now,
  });
  const account = new AccountService({
    sessions: sessionsRepository,
    users: needs.users,
    passwords,
    hasher: needs.passwords,
    firstAdmin: needs.firstAdmin,
    twoFactor,
    passkeys,
    activity,
    now,
  });
  const routes: ModuleRoutes = async (app) => {
    await app.register(authRoutes, { sessions });
    await app.register(accountRoutes, { account });
    await app.register(twoFactorRoutes, { twoFactor });
    await app.register(passkeyRoutes, { passkeys, signIn: passkeySignIn, publicUrl: config.publicUrl });
  };
  return { sessions, routes };
}
