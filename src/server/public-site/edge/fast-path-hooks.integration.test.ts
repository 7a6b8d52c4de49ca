import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { noteUnbuilt, testConfig, WEB_BUILT } from '../../../../tests/support/test-app.js';
import { buildApp } from '../../app.js';
import { PUBLIC_READS } from '../reads/read-table.js';
import { TRACK_PATH } from './fast-path.js';
import { FAST_PATH_HOOKS, REQUEST_HOOKS } from './fast-path-hooks.js';

noteUnbuilt('fast-path-hooks.test.ts');

type RouteHooks = Map<string, string[]>;

/**
 * Every route's hooks as Fastify's printRoutes({ includeHooks }) shows them: a tree whose lines name
 * a path segment with its methods ("├── /api/results (GET)"), then the route's hooks ("• (onRequest)
 * ["checkAccess()"]"). A segment's full path is its parent's (the line above it, less indented) plus
 * the segment.
 */
function hooksByRoute(app: FastifyInstance): Map<string, RouteHooks> {
  const routes = new Map<string, RouteHooks>();
  const parents: { column: number; path: string }[] = [];
  let current: RouteHooks[] = [];
  for (const line of app.printRoutes({ includeHooks: true, commonPrefix: false }).split('\n')) {
    const hook = /• \((\w+)\) (\[.*\])$/.exec(line);
    if (hook) {
      const names = (JSON.parse(hook[2] ?? '[]') as string[]).map((name) => name.replace(/\(\)$/, ''));
      for (const route of current) route.set(hook[1] ?? '', names);
      continue;
    }
    const node = /^([│├└─\s]*)(\S.*) \(([A-Z, ]+)\)$/.exec(line);
    if (!node) continue;
    const column = (node[1] ?? '').length;
    while (parents.length > 0 && (parents.at(-1)?.column ?? 0) >= column) parents.pop();
    const path = (parents.at(-1)?.path ?? '') + (node[2] ?? '');
    parents.push({ column, path });
    current = (node[3] ?? '').split(', ').map((method) => {
      const hooks: RouteHooks = new Map();
      routes.set(`${method} ${path}`, hooks);
      return hooks;
    });
  }
  return routes;
}

/** The routes the fast path answers: every read the app serves (GET and HEAD), and visit tracking. */
function fastPathRoutes(): string[] {
  const reads = PUBLIC_READS.filter((read) => !read.pageOnly || WEB_BUILT);
  return [...reads.flatMap((read) => [`GET ${read.path}`, `HEAD ${read.path}`]), `POST ${TRACK_PATH}`];
}

/** Request hooks on the fast path's routes that FAST_PATH_HOOKS does not account for. */
function unaccountedHooks(app: FastifyInstance): string[] {
  const routes = hooksByRoute(app);
  const unaccounted: string[] = [];
  for (const route of fastPathRoutes()) {
    const hooks = routes.get(route);
    if (!hooks) {
      unaccounted.push(`${route}: not among Fastify's routes`);
      continue;
    }
    for (const hook of REQUEST_HOOKS) {
      for (const name of hooks.get(hook) ?? []) {
        if (!FAST_PATH_HOOKS[hook][name]) unaccounted.push(`${route}: ${hook} hook ${name}()`);
      }
    }
  }
  return unaccounted;
}

describe('the fast path and Fastify’s request hooks', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  const build = () => buildApp(testConfig(), { logger: false, serveWebApp: WEB_BUILT });

  it('accounts for every request hook on the routes it answers, and lists none that is gone', async () => {
    app = await build();
    await app.ready();
    expect(unaccountedHooks(app)).toEqual([]);

    const routes = hooksByRoute(app);
    const present = new Set(
      fastPathRoutes().flatMap((route) =>
        REQUEST_HOOKS.flatMap((hook) =>
          (routes.get(route)?.get(hook) ?? []).map((name) => `${hook} ${name}`),
        ),
      ),
    );
    const listed = REQUEST_HOOKS.flatMap((hook) =>
      Object.keys(FAST_PATH_HOOKS[hook]).map((name) => `${hook} ${name}`),
    );
    expect(listed.filter((entry) => !present.has(entry))).toEqual([]);
    // The access check is one of them: the parse above found real hooks, not an empty tree.
    expect(routes.get('GET /api/home')?.get('onRequest')).toContain('checkAccess');
  });

  it('finds a request hook added to the app that the fast path does not account for', async () => {
    app = await build();
    app.addHook('onRequest', async function maintenanceMode() {});
    app.addHook('preHandler', async function blockAddresses() {});
    await app.ready();
    const unaccounted = unaccountedHooks(app);
    expect(unaccounted).toContain('GET /api/home: onRequest hook maintenanceMode()');
    expect(unaccounted).toContain(`POST ${TRACK_PATH}: preHandler hook blockAddresses()`);
    expect(unaccounted).toHaveLength(fastPathRoutes().length * 2);
  });
});
