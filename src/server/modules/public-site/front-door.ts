import http, { type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import { SESSION_ID_MAX_LENGTH } from '../../../shared/schemas/visitors.js';
import { SECURITY_HEADERS } from '../../lib/response-headers.js';
import { type CachedAnswer, JSON_TYPE, writeCached, writeRaw } from './cached-answer.js';
import type { PublicSite } from './public-site.js';

/** Host names as browsers send them; anything else is not echoed into cached pages. */
const HOST_PATTERN = /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;
/** find-my-way's default: longer path parameters are not routed. */
const MAX_PARAM_LENGTH = 100;
const MAX_LEARNED_ORIGINS = 256;

function origin(protocol: string | undefined, host: string): string {
  return `${protocol ?? 'http'}://${HOST_PATTERN.test(host) ? host.toLowerCase() : 'localhost'}`;
}

/** What decides a proxied request's origin, as far as the front door can see it; null when not proxied. */
function forwardedKey(request: IncomingMessage): string | null {
  const proto = request.headers['x-forwarded-proto'];
  const host = request.headers['x-forwarded-host'];
  if (proto === undefined && host === undefined) return null;
  const encrypted = (request.socket as TLSSocket).encrypted === true;
  return `${request.socket.remoteAddress}|${proto}|${host}|${request.headers.host}|${encrypted}`;
}

/**
 * The address visitors use, for canonical links and the sitemap (absolute URLs). Fastify works it out
 * (honouring TRUST_PROXY for X-Forwarded-*); the front door reuses what Fastify concluded for the same
 * headers and proxy, and works it out itself only for requests without forwarding headers.
 */
export class Origins {
  private readonly learned = new Map<string, string>();

  of(request: FastifyRequest): string {
    const found = origin(request.protocol, request.host);
    const key = forwardedKey(request.raw);
    if (key !== null && this.learned.get(key) !== found) {
      if (this.learned.size >= MAX_LEARNED_ORIGINS) this.learned.clear();
      this.learned.set(key, found);
    }
    return found;
  }

  ofRaw(request: IncomingMessage): string | undefined {
    const key = forwardedKey(request);
    if (key !== null) return this.learned.get(key);
    const encrypted = (request.socket as TLSSocket).encrypted === true;
    return origin(encrypted ? 'https' : 'http', request.headers.host ?? '');
  }
}

function decodeSegment(segment: string): string | null {
  if (segment.length === 0 || segment.length > MAX_PARAM_LENGTH || segment.includes('/')) return null;
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

const MONTH_QUERY = /^month=(\d{4}-(?:0[1-9]|1[0-2]))$/;
const MONTH_YEAR_QUERY = /^month=(\d{1,2})&year=(\d{4})$/;
const SESSION_ID = /^[\x21-\x7e]+$/;
const TRACKED_BODY = Buffer.from('{"success":true}');
const TRACKED_HEADERS = {
  ...SECURITY_HEADERS,
  'cache-control': 'no-store',
  'content-type': JSON_TYPE,
  'content-length': String(TRACKED_BODY.length),
};

export interface FrontDoorOptions {
  site: PublicSite;
  origins: Origins;
  /** Counts a visit (the visitor counter's track). */
  trackVisit: (sessionId: string) => void;
}

/**
 * The busiest public requests answered straight from memory, before Fastify: GETs whose cached answer
 * is ready, and visit tracking. A request the front door is not sure about (a query it does not
 * know, a token, a cross-origin caller, an answer not built yet, a header that fails validation)
 * goes to Fastify, which answers it the same way (the same caches, routes, validation and errors)
 * and builds what was missing. So the bytes are the same either way; the front door only skips
 * the framework's per-request work (routing, hooks, logging), which costs more than the answer.
 * Anything added to every request (a hook, a header) must be added here too.
 */
export class FrontDoor {
  constructor(private readonly options: FrontDoorOptions) {}

  /** True when it answered; false leaves the request to Fastify. */
  serve(request: IncomingMessage, response: ServerResponse): boolean {
    // Cross-origin callers get their CORS headers from Fastify.
    if (request.headers.origin !== undefined) return false;
    const method = request.method;
    if (method === 'GET' || method === 'HEAD') {
      const answer = this.read(request);
      if (!answer) return false;
      writeCached(request, response, answer);
      return true;
    }
    if (method === 'POST' && request.url === '/api/visitor/track') return this.track(request, response);
    return false;
  }

  private read(request: IncomingMessage): CachedAnswer | undefined {
    const url = request.url ?? '';
    const at = url.indexOf('?');
    const path = at < 0 ? url : url.slice(0, at);
    const query = at < 0 ? '' : url.slice(at + 1);
    const { site } = this.options;
    let answer: CachedAnswer | Promise<CachedAnswer> | undefined;

    if (path === '/api/ghadis' && !query) answer = site.ghadisAnswer();
    else if (path === '/api/results') {
      // An admin's token gets the live admin answer, through Fastify.
      if (request.headers.authorization !== undefined) return undefined;
      if (!query) answer = site.resultsAnswer(undefined);
      else {
        const month = MONTH_QUERY.exec(query)?.[1];
        if (month) answer = site.resultsAnswer(month);
      }
    } else if (path.startsWith('/api/results/')) {
      const name = decodeSegment(path.slice('/api/results/'.length));
      if (name === null || name === 'count') return undefined;
      if (!query) answer = site.ghadiResultsAnswer(name, undefined, undefined);
      else {
        const match = MONTH_YEAR_QUERY.exec(query);
        const month = Number(match?.[1]);
        const year = Number(match?.[2]);
        if (match && month >= 1 && month <= 12 && year >= 2000 && year <= 2100) {
          answer = site.ghadiResultsAnswer(name, month, year);
        }
      }
    } else if (path.startsWith('/api/contentblocks/slug/') && !query) {
      const slug = decodeSegment(path.slice('/api/contentblocks/slug/'.length));
      if (slug !== null) answer = site.contentAnswer(slug);
    } else if (site.rendersPages && (path === '/' || path.startsWith('/satta-results/'))) {
      const origin = this.options.origins.ofRaw(request);
      if (origin === undefined) return undefined;
      if (path === '/') {
        if (!query) answer = site.homePage(origin);
      } else {
        const name = decodeSegment(path.slice('/satta-results/'.length));
        const match = query ? MONTH_YEAR_QUERY.exec(query) : null;
        if (name !== null && (!query || match))
          answer = site.resultsPage(origin, name, match?.[1], match?.[2]);
      }
    } else if ((path === '/sitemap.xml' || path === '/robots.txt') && !query) {
      const origin = this.options.origins.ofRaw(request);
      if (origin === undefined) return undefined;
      answer = path === '/sitemap.xml' ? site.sitemap(origin) : site.robots(origin);
    }
    // Only answers already built: building (and its failures) is Fastify's business.
    return answer instanceof Promise ? undefined : answer;
  }

  /** POST /api/visitor/track as its route answers a valid request; anything else goes to the route. */
  private track(request: IncomingMessage, response: ServerResponse): boolean {
    const length = request.headers['content-length'];
    if (request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0'))
      return false;
    const given = request.headers['x-session-id'];
    if (typeof given !== 'string') return false;
    const sessionId = given.trim();
    if (sessionId.length === 0 || sessionId.length > SESSION_ID_MAX_LENGTH || !SESSION_ID.test(sessionId)) {
      return false;
    }
    this.options.trackVisit(sessionId);
    writeRaw(request, response, 200, TRACKED_HEADERS, TRACKED_BODY);
    return true;
  }
}

/**
 * Fastify's serverFactory: Node's HTTP server with the front door before Fastify's handler, set up
 * as Fastify sets up its own server.
 */
export function serverWithFrontDoor(frontDoor: () => FrontDoor | undefined) {
  return (handler: RequestListener, options: FastifyServerOptions): http.Server => {
    const server = http.createServer((request, response) => {
      if (!frontDoor()?.serve(request, response)) handler(request, response);
    });
    server.keepAliveTimeout = options.keepAliveTimeout ?? 72_000;
    server.requestTimeout = options.requestTimeout ?? 0;
    server.setTimeout(options.connectionTimeout ?? 0);
    return server;
  };
}
