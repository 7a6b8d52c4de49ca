import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { TWO_FACTOR_SETUP_REQUIRED_MESSAGE } from '../../shared/schemas/two-factor.js';
import { ForbiddenError, UnauthorizedError } from '../errors.js';
import type { AuthenticatedUser, SessionService } from '../modules/auth/session-service.js';
import type { LastSeen } from '../modules/users/last-seen.js';

/**
 * Who may call a route, declared on the route as `config: { access }`:
 * public — anyone, any token ignored; optional — anyone, but a token sent must be valid;
 * admin / agent — that role only; staff — admins and agents. A route that declares nothing is admin-only.
 */
export type Access = 'public' | 'optional' | 'admin' | 'agent' | 'staff';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    user: AuthenticatedUser | null;
  }
}

/** The token of an `Authorization: Bearer …` header: null without the header, '' when it is malformed. */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? '';
}

/**
 * What a first admin still on the generated password, or a password-only admin session while
 * REQUIRE_ADMIN_2FA=true, may call: their own account (to change the password, to set two-factor
 * up) and the sign-out. Judged by the matched route, as access is.
 */
function isOwnAccountRoute(route: string): boolean {
  return route === '/api/users/me' || route.startsWith('/api/users/me/') || route === '/api/users/logout';
}

const PASSWORD_CHANGE_REQUIRED =
  'Change the generated password first (PUT /api/users/me/password): nothing else answers until then';

const ROLE_MESSAGES: Record<'admin' | 'agent' | 'staff', string> = {
  admin: 'Admin access required',
  agent: 'Agent access required',
  staff: 'Admin or agent access required',
};

async function accessPlugin(
  app: FastifyInstance,
  options: {
    sessions: SessionService;
    lastSeen?: LastSeen;
    /**
     * REQUIRE_ADMIN_2FA: an admin session signed in with a password alone (no TOTP code, no passkey)
     * reaches only its own account's routes. Judged per session, not by what the account has enrolled.
     */
    requireAdminTwoFactor?: boolean;
  },
) {
  app.decorateRequest('user', null);

  app.addHook('onRequest', async function checkAccess(request) {
    // Pages and assets are public; the API is where access is enforced. Judged by the matched
    // route, not the raw URL: "/%61pi/users" reaches the /api/users route too.
    const route = request.routeOptions.url;
    if (request.is404 || !route?.startsWith('/api/')) return;
    const access = request.routeOptions.config.access ?? 'admin';
    if (access === 'public') return;

    const token = bearerToken(request);
    if (token === null) {
      if (access === 'optional') return;
      throw new UnauthorizedError('Authentication required');
    }
    const user = token ? await options.sessions.authenticate(token) : null;
    if (!user) throw new UnauthorizedError('Session expired or invalid; please log in again');
    request.user = user;
    // In the background: the request does not wait for them (nor, mostly, query for them).
    void options.lastSeen?.seen(user.userId);
    void options.sessions.seen(user);

    if (user.passwordChangeRequired && !isOwnAccountRoute(route))
      throw new ForbiddenError(PASSWORD_CHANGE_REQUIRED, { passwordChangeRequired: true });
    if (
      options.requireAdminTwoFactor &&
      user.userType === 'admin' &&
      user.session.method === 'password' &&
      !isOwnAccountRoute(route)
    )
      throw new ForbiddenError(TWO_FACTOR_SETUP_REQUIRED_MESSAGE, { twoFactorSetupRequired: true });
    if (access === 'optional') return;
    const allowed = access === 'staff' || user.userType === access;
    if (!allowed) throw new ForbiddenError(ROLE_MESSAGES[access]);
  });
}

export const access = fp(accessPlugin, { name: 'access' });

/** The caller of a route whose access requires a token; the hook has already checked it. */
export function currentUser(request: FastifyRequest): AuthenticatedUser {
  if (!request.user) throw new UnauthorizedError('Authentication required');
  return request.user;
}
