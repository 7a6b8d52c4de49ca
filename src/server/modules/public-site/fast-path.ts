import http, { type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { FastifyServerOptions } from 'fastify';
import FindMyWay, { type HTTPVersion } from 'find-my-way';
import { trackHeaders } from '../../../shared/schemas/visitors.js';
import { JSON_TYPE, writeCached, writeRaw } from './cached-answer.js';
import { MAX_PATH_PARAM_LENGTH, type PublicRead, type ReadContext } from './read-definition.js';

/**
 * Fastify's router options, set explicitly on both routers so that the fast path finds exactly the
 * route (and decodes exactly the parameters) Fastify would.
 */
export const ROUTER_OPTIONS = {
  ignoreTrailingSlash: false,
  ignoreDuplicateSlashes: false,
  caseSensitive: true,
  maxParamLength: MAX_PATH_PARAM_LENGTH,
  useSemicolonDelimiter: false,
  allowUnsafeRegex: false,
} as const;

export interface RouteSeen {
  method: string;
  url: string;
}

const TRACK_PATH = '/api/visitor/track';
const TRACKED_BODY = Buffer.from('{"success":true}');

export interface FastPathOptions {
  reads: readonly PublicRead[];
  /** Every GET and HEAD route Fastify has: a request the table does not own must not be taken for one it does. */
  routes: readonly RouteSeen[];
  context: ReadContext;
  /** Whether an Origin header names this site (a browser's same-origin request). */
  isOwnOrigin: (request: IncomingMessage, origin: string) => boolean;
  /** Counts a visit, as POST /api/visitor/track does. */
  trackVisit: (sessionId: string, request: IncomingMessage) => void;
  /** Told of each answer it sent, as Fastify's own answers are counted (the metrics). */
  onAnswered?: (method: string, route: string, status: number, seconds: number) => void;
}

/**
 * The busiest public requests answered before Fastify, in Node's HTTP server: a read from the table
 * whose answer is already built, and visit tracking. Routes, parameters and queries are matched and
 * validated exactly as Fastify does (the same router, the same table, the same zod schemas); anything
 * else — a token on a read that looks at tokens, another origin, an answer not built yet, input that
 * fails validation — goes to Fastify, which answers it the same way and builds what was missing. The
 * bytes are the same either way; the fast path only skips the framework's per-request work (routing
 * objects, hooks, logging), which costs more than sending a ready answer.
 */
export class FastPath {
  private readonly router = FindMyWay<HTTPVersion.V1>(ROUTER_OPTIONS);
  private readonly trackedHeaders: Readonly<Record<string, string>>;

  constructor(private readonly options: FastPathOptions) {
    const vary = options.context.headers.vary(false);
    this.trackedHeaders = {
      ...options.context.headers.security,
      'cache-control': 'no-store',
      ...(vary ? { vary } : {}),
      'content-type': JSON_TYPE,
      'content-length': String(TRACKED_BODY.length),
    };
    const owned = new Set<string>();
    for (const read of options.reads) {
      if (read.pageOnly && !options.context.pages) continue;
      for (const method of ['GET', 'HEAD'] as const) {
        this.router.on(method, read.path, () => {}, { read });
        owned.add(`${method} ${read.path}`);
      }
    }
    for (const route of options.routes) {
      const key = `${route.method} ${route.url}`;
      if (owned.has(key) || (route.method !== 'GET' && route.method !== 'HEAD')) continue;
      owned.add(key);
      this.router.on(route.method, route.url, () => {}, { read: null });
    }
  }

  /** True when it answered; false leaves the request to Fastify. */
  serve(request: IncomingMessage, response: ServerResponse): boolean {
    const started = performance.now();
    const route = this.answer(request, response);
    if (route === null) return false;
    this.options.onAnswered?.(
      request.method ?? 'GET',
      route,
      response.statusCode,
      (performance.now() - started) / 1000,
    );
    return true;
  }

  /** The route it answered, or null to leave the request to Fastify. */
  private answer(request: IncomingMessage, response: ServerResponse): string | null {
    const origin = request.headers.origin;
    // This site's pages, and front ends CORS_ORIGINS allows (with their CORS headers); any other
    // origin's request goes to Fastify.
    const cors = this.options.context.headers.corsFor(origin);
    if (origin !== undefined && !cors && !this.options.isOwnOrigin(request, origin)) return null;
    const method = request.method;
    if (method === 'GET' || method === 'HEAD') return this.read(method, request, response, cors);
    if (method === 'POST' && request.url === TRACK_PATH && this.track(request, response, cors))
      return TRACK_PATH;
    return null;
  }

  private read(
    method: 'GET' | 'HEAD',
    request: IncomingMessage,
    response: ServerResponse,
    cors: Readonly<Record<string, string>> | undefined,
  ): string | null {
    const found = this.router.find(method, request.url ?? '');
    const read = (found?.store as { read: PublicRead | null } | undefined)?.read;
    if (!found || !read) return null;
    // The answer may depend on the token, which only Fastify checks.
    if (read.access === 'optional' && request.headers.authorization !== undefined) return null;
    const params = read.params ? read.params.safeParse(found.params) : { success: true, data: undefined };
    const query = read.query.safeParse(found.searchParams);
    if (!params.success || !query.success) return null;
    const { context } = this.options;
    const key = read.key({ params: params.data, query: query.data, admin: false }, context);
    if (key === null) return null;
    const answer = context.model.readyAnswer(read, key);
    if (!answer) return null;
    writeCached(request, response, answer, context.headers, cors);
    return read.path;
  }

  /** POST /api/visitor/track as its route answers a valid request; anything else goes to the route. */
  private track(
    request: IncomingMessage,
    response: ServerResponse,
    cors: Readonly<Record<string, string>> | undefined,
  ): boolean {
    const length = request.headers['content-length'];
    if (request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0'))
      return false;
    const headers = trackHeaders.safeParse(request.headers);
    if (!headers.success) return false;
    this.options.trackVisit(headers.data['x-session-id'], request);
    writeRaw(request, response, 200, this.trackedHeaders, TRACKED_BODY, cors);
    return true;
  }
}

/**
 * Fastify's serverFactory: Node's HTTP server with the fast path before Fastify's handler, set up as
 * Fastify sets up its own server.
 */
export function serverWithFastPath(fastPath: () => FastPath | undefined) {
  return (handler: RequestListener, options: FastifyServerOptions): http.Server => {
    const server = http.createServer((request, response) => {
      if (!fastPath()?.serve(request, response)) handler(request, response);
    });
    server.keepAliveTimeout = options.keepAliveTimeout ?? 72_000;
    server.requestTimeout = options.requestTimeout ?? 0;
    server.setTimeout(options.connectionTimeout ?? 0);
    return server;
  };
}
