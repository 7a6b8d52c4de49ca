import type { FastifyInstance } from 'fastify';

export interface ServedRoute {
  method: string;
  path: string;
}

/**
 * Every method and path an app routes, read from Fastify's own route tree
 * (printRoutes()): each line is a path segment under its parent's, with the methods of a route that
 * ends there. (With commonPrefix: false a wildcard route prints as a bare `*`, without its prefix.)
 * HEAD twins of GET routes are left out.
 */
export function servedRoutes(app: FastifyInstance): ServedRoute[] {
  const routes: ServedRoute[] = [];
  const parents: string[] = [];
  for (const line of app.printRoutes().split('\n')) {
    const match = /^((?:[│ ] {3})*)(?:├── |└── )(\S+)(?: \(([^)]+)\))?$/u.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? '').length / 4;
    parents.length = depth;
    const path = (parents[depth - 1] ?? '') + (match[2] ?? '');
    parents[depth] = path;
    if (match[3] === undefined) continue;
    for (const method of match[3].split(', ')) if (method !== 'HEAD') routes.push({ method, path });
  }
  return routes;
}
