import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import type { UserType } from '../../shared/schemas/users.js';
import { useSession } from '../lib/session.js';

export const LOGIN_PATHS: Record<UserType, string> = { admin: '/admin/login', agent: '/agent/login' };
export const ACCOUNT_PATHS: Record<UserType, string> = { admin: '/admin/account', agent: '/agent/account' };

/**
 * The spec's guard: no session → the login of the required role (admin → /admin/login, otherwise
 * /agent/login), remembering where the visitor was going; a user of another role → /. A session the
 * server said must first change its password or set up two-factor sign-in is kept on the Account
 * page, where that is done (every other call would answer 403 meanwhile).
 */
export function RequireRole({ userType, children }: { userType?: UserType; children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (!session) {
    return (
      <Navigate
        to={userType === 'admin' ? LOGIN_PATHS.admin : LOGIN_PATHS.agent}
        replace
        state={{ from: location }}
      />
    );
  }
  if (userType && session.userType !== userType) return <Navigate to="/" replace />;
  const accountPath = ACCOUNT_PATHS[session.userType];
  const demanded = session.passwordChangeRequired || session.twoFactorSetupRequired;
  if (demanded && location.pathname.toLowerCase() !== accountPath)
    return <Navigate to={accountPath} replace />;
  return children;
}
