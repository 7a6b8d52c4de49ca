import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import type { UserType } from '../../shared/schemas/users.js';
import { useSession } from '../lib/session.js';

export const LOGIN_PATHS: Record<UserType, string> = { admin: '/admin/login', agent: '/agent/login' };

/**
 * The spec's guard: no session → the login of the required role (admin → /admin/login, otherwise
 * /agent/login), remembering where the visitor was going; a user of another role → /.
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
  return children;
}
