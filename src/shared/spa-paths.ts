/**
 * The single-page app's top-level routes, read by its router (src/web/app/spa-routes.tsx) and by the
 * server, which sends the app's page (index.html) for these addresses only: any other address no
 * route serves answers the site's 404 page. One list, so that the two cannot drift apart.
 */

/** Pages of the app: a `:name` segment stands for any one segment. */
export const SPA_PAGES = {
  home: '/',
  ghadiResults: '/satta-results/:name',
  login: '/login',
  adminLogin: '/admin/login',
  agentLogin: '/agent/login',
} as const;

/** Areas of the app: every address under them is the app's (its router shows what it has not). */
export const SPA_AREAS = {
  admin: '/admin',
  agent: '/agent',
} as const;

/** A path's segments, in lower case: the app's router matches without case, as React Router does. */
function segmentsOf(path: string): string[] {
  return path
    .toLowerCase()
    .split('/')
    .filter((segment) => segment !== '');
}

function matchesPage(pattern: string, segments: readonly string[]): boolean {
  const wanted = segmentsOf(pattern);
  return (
    wanted.length === segments.length &&
    wanted.every((segment, index) => segment.startsWith(':') || segment === segments[index])
  );
}

function inArea(area: string, segments: readonly string[]): boolean {
  return segmentsOf(area).every((segment, index) => segment === segments[index]);
}

/** Whether the app has a route for this path (no query string); a trailing slash is allowed. */
export function isSpaAddress(path: string): boolean {
  const segments = segmentsOf(path);
  return (
    Object.values(SPA_PAGES).some((pattern) => matchesPage(pattern, segments)) ||
    Object.values(SPA_AREAS).some((area) => inArea(area, segments))
  );
}
