import { Navigate, Outlet, type RouteObject } from 'react-router';
import { SPA_AREAS, SPA_PAGES } from '../../shared/spa-paths.js';
import { RequireRole } from './require-role.js';
import { RouteError } from './route-error.js';

/*
 * Admin, agent and login screens are separate chunks loaded on demand, so a public visitor
 * downloads none of their code.
 */
const page =
  <T,>(load: () => Promise<T>, pick: (module: T) => React.ComponentType) =>
  async () => ({
    Component: pick(await load()),
  });

const adminPages: RouteObject[] = [
  { index: true, element: <Navigate to="/admin/dashboard" replace /> },
  {
    path: 'dashboard',
    lazy: page(
      () => import('../features/admin-dashboard/dashboard-page.js'),
      (m) => m.DashboardPage,
    ),
  },
  {
    path: 'agents',
    lazy: page(
      () => import('../features/agents/agents-page.js'),
      (m) => m.AgentsPage,
    ),
  },
  {
    path: 'ghadi',
    lazy: page(
      () => import('../features/ghadis/ghadis-page.js'),
      (m) => m.GhadisPage,
    ),
  },
  {
    path: 'results',
    lazy: page(
      () => import('../features/results/results-page.js'),
      (m) => m.ResultsPage,
    ),
  },
  {
    path: 'assign-ghadi',
    lazy: page(
      () => import('../features/assignments/assign-ghadi-page.js'),
      (m) => m.AssignGhadiPage,
    ),
  },
  {
    path: 'content-blocks',
    lazy: page(
      () => import('../features/content-blocks/content-blocks-page.js'),
      (m) => m.ContentBlocksPage,
    ),
  },
  {
    path: 'media',
    lazy: page(
      () => import('../features/media/media-page.js'),
      (m) => m.MediaPage,
    ),
  },
  {
    path: 'activity',
    lazy: page(
      () => import('../features/activity/activity-page.js'),
      (m) => m.ActivityPage,
    ),
  },
  {
    path: 'holidays',
    lazy: page(
      () => import('../features/holidays/holidays-page.js'),
      (m) => m.HolidaysPage,
    ),
  },
  {
    path: 'pending',
    lazy: page(
      () => import('../features/pending-declarations/pending-page.js'),
      (m) => m.PendingPage,
    ),
  },
  {
    path: 'account',
    lazy: page(
      () => import('../features/account/account-page.js'),
      (m) => m.AccountPage,
    ),
  },
];

const agentPages: RouteObject[] = [
  { index: true, element: <Navigate to="/agent/dashboard" replace /> },
  {
    path: 'dashboard',
    lazy: page(
      () => import('../features/agent-dashboard/agent-dashboard-page.js'),
      (m) => m.AgentDashboardPage,
    ),
  },
  {
    path: 'ghadi-results',
    lazy: page(
      () => import('../features/agent-dashboard/agent-ghadi-results-page.js'),
      (m) => m.AgentGhadiResultsPage,
    ),
  },
  {
    path: 'account',
    lazy: page(
      () => import('../features/account/account-page.js'),
      (m) => m.AccountPage,
    ),
  },
];

/**
 * Top-level paths come from src/shared/spa-paths.ts, which the server reads too: it sends the app's
 * page for those addresses and the site's 404 page for any other (a test checks they agree).
 */
export const routes: RouteObject[] = [
  {
    ErrorBoundary: RouteError,
    children: [
      {
        path: SPA_PAGES.home,
        lazy: page(
          () => import('../features/public-home/home-page.js'),
          (m) => m.HomePage,
        ),
      },
      {
        path: SPA_PAGES.ghadiResults,
        lazy: page(
          () => import('../features/public-results/public-results-page.js'),
          (m) => m.PublicResultsPage,
        ),
      },
      { path: SPA_PAGES.login, element: <Navigate to={SPA_PAGES.agentLogin} replace /> },
      {
        path: SPA_PAGES.adminLogin,
        lazy: page(
          () => import('../features/auth/login-page.js'),
          (m) => m.AdminLoginPage,
        ),
      },
      {
        path: SPA_PAGES.agentLogin,
        lazy: page(
          () => import('../features/auth/login-page.js'),
          (m) => m.AgentLoginPage,
        ),
      },
      {
        path: SPA_AREAS.admin,
        element: (
          <RequireRole userType="admin">
            <Outlet />
          </RequireRole>
        ),
        children: [
          {
            lazy: page(
              () => import('./layouts/admin-layout.js'),
              (m) => m.AdminLayout,
            ),
            children: adminPages,
          },
        ],
      },
      {
        path: SPA_AREAS.agent,
        element: (
          <RequireRole userType="agent">
            <Outlet />
          </RequireRole>
        ),
        children: [
          {
            lazy: page(
              () => import('./layouts/agent-layout.js'),
              (m) => m.AgentLayout,
            ),
            children: agentPages,
          },
        ],
      },
      {
        path: '*',
        lazy: page(
          () => import('./not-found-page.js'),
          (m) => m.NotFoundPage,
        ),
      },
    ],
  },
];
