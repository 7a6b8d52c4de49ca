import { QueryClientProvider } from '@tanstack/react-query';
import { NavLink, Outlet, useNavigate } from 'react-router';
import { SITE_NAME } from '../../../shared/site.js';
import { OfflineNotice } from '../../components/ui/offline-notice.js';
import { logOut } from '../../lib/log-out.js';
import { queryClient } from '../../lib/query-client.js';
import { ACCOUNT_PATHS } from '../require-role.js';

/**
 * The spec's agent shell: a top bar titled Agent Dashboard with Logout, the page, a 2025 footer. The
 * title leads back to the dashboard, and Account (sessions, password, two-factor) sits beside Logout.
 */
export function AgentLayout() {
  const navigate = useNavigate();
  const logout = () => {
    logOut();
    navigate('/login', { replace: true });
  };

  return (
    <div className="flex min-h-dvh flex-col bg-slate-100">
      <header className="sticky top-0 z-10 flex h-14 items-center justify-between bg-slate-900 px-4 text-white shadow">
        <p className="text-lg font-semibold">Agent Dashboard</p>
        <div className="flex items-center gap-2">
          <NavLink
            to={ACCOUNT_PATHS.agent}
            className={({ isActive }) =>
              `rounded-md px-3 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white ${
                isActive ? 'bg-slate-700' : 'hover:bg-slate-700'
              }`
            }
          >
            Account
          </NavLink>
          <button
            type="button"
            onClick={logout}
            className="rounded-md bg-red-600 px-3 py-1.5 text-sm font-medium hover:bg-red-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
          >
            Logout
          </button>
        </div>
      </header>
      <main className="mx-auto w-full max-w-4xl flex-1 p-4 sm:p-6">
        <QueryClientProvider client={queryClient}>
          <OfflineNotice />
          <Outlet />
        </QueryClientProvider>
      </main>
      <footer className="border-t border-slate-200 bg-white px-4 py-3 text-center text-sm text-slate-600">
        © {new Date().getFullYear()} {SITE_NAME}. All rights reserved.
      </footer>
    </div>
  );
}
