import FindMyWay, { type HTTPVersion } from 'find-my-way';
import { MAX_PATH_PARAM_LENGTH, type PublicRead } from '../reads/read-definition.js';

/**
 * Fastify's router options, given to Fastify and to the fast path's router alike, so that the fast
 * path finds exactly the route (and decodes exactly the parameters) Fastify would.
 */
export const ROUTER_OPTIONS = {
  ignoreTrailingSlash: false,
  ignoreDuplicateSlashes: false,
  caseSensitive: true,
  maxParamLength: MAX_PATH_PARAM_LENGTH,
  useSemicolonDelimiter: false,
  allowUnsafeRegex: false,
} as const;

/** A route as Fastify's onRoute hook reports it. */
export interface RouteSeen {
  method: string | string[];
  url: string;
}

/** A request line's read and its validated input: the same every time the line is seen. */
export interface Resolved<Last> {
  read: PublicRead;
  params: unknown;
  query: unknown;
  /** What the caller keeps about the line's last answer (the fast path: what it sent). */
  last?: Last;
}

/**
 * Request lines remembered with what they resolved to (or that they are not the table's). Visitors
 * ask for a few dozen addresses; made-up ones only push the rest out: past this many, all are
 * forgotten. Longer lines are resolved each time, so that the memory they can hold stays small.
 */
const MAX_RESOLVED_LINES = 1024;
const MAX_REMEMBERED_LINE_LENGTH = 2048;

/**
 * Finds which public read a GET or HEAD request line names, as Fastify would route it: the same
 * router with the same options, holding the reads and every other GET and HEAD route Fastify has
 * (a request for another route must never be taken for a read).
 */
export class FastPathRouter<Last> {
  private readonly router = FindMyWay<HTTPVersion.V1>(ROUTER_OPTIONS);
  private readonly owned = new Set<string>();
  private readonly resolved = new Map<string, Resolved<Last> | null>();

  constructor(reads: readonly PublicRead[]) {
    for (const read of reads) {
      for (const method of ['GET', 'HEAD'] as const) {
        this.router.on(method, read.path, () => {}, { read });
        this.owned.add(`${method} ${read.path}`);
      }
    }
  }

  /** Fastify's onRoute hook: every route Fastify gets, before it can be asked for. */
  readonly learnRoute = (route: RouteSeen): void => {
    for (const method of [route.method].flat()) {
      const key = `${method} ${route.url}`;
      if (this.owned.has(key) || (method !== 'GET' && method !== 'HEAD')) continue;
      this.owned.add(key);
      this.router.on(method, route.url, () => {}, { read: null });
    }
    this.resolved.clear();
  };

  /** The read a GET or HEAD request line names, with its input validated; null when it names none. */
  resolve(method: 'GET' | 'HEAD', url: string): Resolved<Last> | null {
    if (url.length > MAX_REMEMBERED_LINE_LENGTH) return this.route(method, url);
    const line = method === 'GET' ? url : `HEAD ${url}`;
    let resolved = this.resolved.get(line);
    if (resolved !== undefined) return resolved;
    resolved = this.route(method, url);
    if (this.resolved.size >= MAX_RESOLVED_LINES) this.resolved.clear();
    this.resolved.set(line, resolved);
    return resolved;
  }

  private route(method: 'GET' | 'HEAD', url: string): Resolved<Last> | null {
    const found = this.router.find(method, url);
    const read = (found?.store as { read: PublicRead | null } | undefined)?.read;
    if (!found || !read) return null;
    const params = read.params ? read.params.safeParse(found.params) : { success: true, data: undefined };
    const query = read.query.safeParse(found.searchParams);
    if (!params.success || !query.success) return null;
    return { read, params: params.data, query: query.data };
  }
}
