import { QueryClientProvider } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { NavLink, Outlet, useNavigate } from 'react-router';
import { SITE_NAME } from '../../../shared/site.js';
import { usePendingCounts } from '../../api/pending-api.js';
import { decisionsText, PENDING_PATH, PendingCountBadge } from '../../components/admin/pending-alerts.js';
import { OfflineNotice } from '../../components/ui/offline-notice.js';
import { logOut } from '../../lib/log-out.js';
import { queryClient } from '../../lib/query-client.js';
import { useSession } from '../../lib/session.js';
import { ACCOUNT_PATHS } from '../require-role.js';

const LINKS = [
  { to: '/admin/dashboard', label: 'Dashboard' },
  { to: '/admin/agents', label: 'Agents' },
  { to: '/admin/ghadi', label: 'Ghadi' },
  { to: '/admin/results', label: 'Results' },
  { to: '/admin/assign-ghadi', label: 'Assign Ghadi' },
  { to: '/admin/content-blocks', label: 'Content Blocks' },
  { to: '/admin/activity', label: 'Activity' },
  // After the spec's links, which keep their order.
  { to: '/admin/holidays', label: 'Holidays' },
  { to: '/admin/media', label: 'Media' },
  { to: PENDING_PATH, label: 'Pending results' },
  { to: ACCOUNT_PATHS.admin, label: 'Account' },
];

/** Where the sidebar sits beside the page (Tailwind's lg, as the classes below) rather than over it. */
const SIDEBAR_BESIDE_PAGE = '(min-width: 1024px)';

/**
 * The spec opens the sidebar by default. Beside the page that costs nothing; on a narrower screen it
 * lies over the page, which would then be covered each time a screen loads: there it starts closed.
 */
function sidebarBesidePage(): boolean {
  return typeof window === 'undefined' || window.matchMedia?.(SIDEBAR_BESIDE_PAGE).matches !== false;
}

/**
 * The spec's admin shell: a fixed top bar with a toggle, a sidebar open by default, the page and a
 * footer. The query cache spans the shell too: the menu counts the pending results the page may list.
 */
export function AdminLayout() {
  return (
    <QueryClientProvider client={queryClient}>
      <AdminShell />
    </QueryClientProvider>
  );
}

function AdminShell() {
  const { mismatches } = usePendingCounts();
  const session = useSession();
  // While the server demands a new password or two-factor first, the other screens only lead back.
  const links =
    session?.passwordChangeRequired || session?.twoFactorSetupRequired
      ? LINKS.filter((link) => link.to === ACCOUNT_PATHS.admin)
      : LINKS;
  const [sidebarOpen, setSidebarOpen] = useState(sidebarBesidePage);
  const navigate = useNavigate();
  const toggleRef = useRef<HTMLButtonElement>(null);
  const close = () => setSidebarOpen(false);

  const logout = () => {
    logOut();
    navigate('/admin/login', { replace: true });
  };

  return (
    <div className="min-h-dvh bg-slate-100">
      <header className="fixed inset-x-0 top-0 z-30 flex h-14 items-center gap-3 bg-slate-900 px-4 text-white shadow">
        <button
          ref={toggleRef}
          type="button"
          onClick={() => setSidebarOpen((open) => !open)}
          aria-expanded={sidebarOpen}
          aria-controls="admin-sidebar"
          aria-label={`${sidebarOpen ? 'Close menu' : 'Open menu'}${mismatches > 0 ? `, ${decisionsText(mismatches)}` : ''}`}
          className="relative rounded-md p-2 hover:bg-slate-700 focus-visible:outline-2 focus-visible:outline-white"
        >
          {/* On a phone the menu starts closed: its Pending results count would go unseen. */}
          {mismatches > 0 && (
            <span
              aria-hidden="true"
              className="absolute -right-1 -top-1 inline-flex min-w-5 justify-center rounded-full bg-red-600 px-1 text-xs font-bold tabular-nums text-white ring-2 ring-slate-900"
            >
              {mismatches}
            </span>
          )}
          <svg
            aria-hidden="true"
            viewBox="0 0 24 24"
            className="h-5 w-5"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
          >
            <path d="M4 6h16M4 12h16M4 18h16" />
          </svg>
        </button>
        <p className="text-lg font-semibold">Admin Panel</p>
      </header>

      {sidebarOpen && (
        <button
          type="button"
          aria-hidden="true"
          tabIndex={-1}
          onClick={close}
          className="fixed inset-0 top-14 z-10 bg-slate-900/40 lg:hidden"
        />
      )}
      {/* Escape closes it where it covers the page, as a menu over the page would close. */}
      <aside
        id="admin-sidebar"
        hidden={!sidebarOpen}
        onKeyDown={(event) => {
          if (event.key !== 'Escape' || sidebarBesidePage()) return;
          close();
          toggleRef.current?.focus();
        }}
        className="fixed bottom-0 left-0 top-14 z-20 flex w-64 flex-col bg-white shadow-lg"
      >
        <div className="flex items-center justify-between border-b border-slate-200 px-4 py-3">
          <span className="text-sm font-semibold uppercase tracking-wide text-slate-500">Menu</span>
          <button
            type="button"
            onClick={close}
            aria-label="Close sidebar"
            className="rounded-md p-1.5 text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600"
          >
            <svg
              aria-hidden="true"
              viewBox="0 0 24 24"
              className="h-5 w-5"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
            >
              <path d="M6 6l12 12M18 6L6 18" />
            </svg>
          </button>
        </div>
        <nav aria-label="Admin" className="flex-1 overflow-y-auto p-2">
          <ul className="space-y-1">
            {links.map((link) => (
              <li key={link.to}>
                <NavLink
                  to={link.to}
                  onClick={close}
                  className={({ isActive }) =>
                    `flex items-center gap-2 rounded-md px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-600 ${
                      isActive ? 'bg-indigo-600 text-white' : 'text-slate-700 hover:bg-slate-100'
                    }`
                  }
                >
                  {({ isActive }) => (
                    <>
                      {link.label}
                      {link.to === PENDING_PATH && <PendingCountBadge active={isActive} />}
                    </>
                  )}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="border-t border-slate-200 p-3">
          <button
            type="button"
            onClick={logout}
            className="w-full rounded-md bg-red-600 px-3 py-2 text-sm font-medium text-white hover:bg-red-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-600"
          >
            Logout
          </button>
        </div>
      </aside>

      <div className={`flex min-h-dvh flex-col pt-14 transition-[padding] ${sidebarOpen ? 'lg:pl-64' : ''}`}>
        <main className="mx-auto w-full max-w-6xl flex-1 p-4 sm:p-6">
          <OfflineNotice />
          <Outlet />
        </main>
        <footer className="border-t border-slate-200 bg-white px-4 py-3 text-center text-sm text-slate-600">
          © {new Date().getFullYear()} {SITE_NAME}. All rights reserved.
        </footer>
      </div>
    </div>
  );
}
