import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
// Imported, not the global: Node defines the global `performance` as a getter, which each request
// would look up again.
import { performance } from 'node:perf_hooks';
import { SESSION_ID_PATTERN } from '../../../shared/schemas/visitors.js';
import { givenRequestId } from '../../lib/response-headers.js';
import { JSON_TYPE } from '../model/cached-answer.js';
import type { Entry } from '../model/kept-entry.js';
import type { PublicRead, ReadContext } from '../reads/read-definition.js';
import { type Delivery, deliver, makeDelivery, type OwnHeaders, writeDelivery } from './answer-delivery.js';
import { FastPathRouter, type Resolved } from './fast-path-router.js';

export const TRACK_PATH = '/api/visitor/track';
const TRACKED_BODY = Buffer.from('{"success":true}');

interface LastDelivery {
  generation: number;
  acceptEncoding: string | undefined;
  delivery: Delivery;
  /** The metrics' series of this answer. */
  series: AnswerSeries;
  /** The kept answer it came from: its reads are counted (what is read least goes first). */
  entry: Entry;
}

/** Where an answer is counted, with its time (the app's request metrics). */
export interface AnswerSeries {
  observe(seconds: number): void;
  /** Counts an answer that was not timed, as long as the series' latest timed one. */
  observeAgain(): void;
}

const UNCOUNTED: AnswerSeries = { observe: () => {}, observeAgain: () => {} };

/**
 * One answer in this many is timed: two clock reads are a measurable share of an answer that is a few
 * µs of synchronous work (bench/README.md), and such answers always fall in the histogram's first
 * bucket. The others are counted as their series' latest timed answer, so counts stay exact.
 */
const TIME_ONE_ANSWER_IN = 16;

/** Larger answers are not remembered per line: 1,024 lines then hold at most 16 MB of bodies. */
const MAX_REMEMBERED_BODY_BYTES = 16 * 1024;

export interface FastPathOptions {
  /** The public reads Fastify serves (it builds what the fast path finds missing). */
  reads: readonly PublicRead[];
  context: ReadContext;
  /** Whether an Origin header names this site (a browser's same-origin request), given the Host header. */
  isOwnOrigin: (origin: string, host: string | undefined) => boolean;
  /** Counts a visit, as POST /api/visitor/track does. */
  trackVisit: (sessionId: string, request: IncomingMessage) => void;
  /**
   * The series each answer is counted in, as Fastify's own answers are (the metrics), by method,
   * route pattern and status; kept, not looked up at each answer.
   */
  requestSeries?: (method: string, route: string, status: number) => AnswerSeries;
}

/**
 * The busiest public requests answered before Fastify, in Node's HTTP server: a read from the table
 * whose answer is already built (or, while its rebuild runs, the answer it replaces), and visit
 * tracking. Routes, parameters and queries are matched and validated exactly as Fastify does (the
 * same router, the same table, the same zod schemas); anything else — a token on a read that looks at
 * tokens, an answer not built yet (or not in the encoding asked), input that fails validation — goes
 * to Fastify, which answers it the same way and builds what was missing. The bytes are the same
 * either way; the fast path only skips the framework's per-request work (routing objects, hooks,
 * logging), which costs more than sending a ready answer.
 */
export class FastPath {
  /** Fastify's onRoute hook must tell it every route (`router.learnRoute`). */
  readonly router: FastPathRouter<LastDelivery>;
  private readonly tracked: Delivery;
  private readonly trackedSeries: AnswerSeries;
  private answersUntilTimed = 0;

  constructor(private readonly options: FastPathOptions) {
    const vary = options.context.headers.vary(false);
    const trackedHeaders = {
      ...options.context.headers.security,
      'cache-control': 'no-store',
      ...(vary ? { vary } : {}),
      'content-type': JSON_TYPE,
      'content-length': String(TRACKED_BODY.length),
    };
    this.tracked = makeDelivery(200, trackedHeaders, TRACKED_BODY);
    this.trackedSeries = this.seriesOf('POST', TRACK_PATH, 200);
    this.router = new FastPathRouter(options.reads);
  }

  /** True when it answered; false leaves the request to Fastify. */
  serve(request: IncomingMessage, response: ServerResponse): boolean {
    const timed = this.answersUntilTimed === 0;
    const started = timed ? performance.now() : 0;
    const series = this.answer(request, response);
    if (series === null) return false;
    if (timed) {
      series.observe((performance.now() - started) / 1000);
      this.answersUntilTimed = TIME_ONE_ANSWER_IN - 1;
    } else {
      series.observeAgain();
      this.answersUntilTimed -= 1;
    }
    return true;
  }

  private seriesOf(method: string, route: string, status: number): AnswerSeries {
    return this.options.requestSeries?.(method, route, status) ?? UNCOUNTED;
  }

  /** The series to count its answer in, or null to leave the request to Fastify. */
  private answer(request: IncomingMessage, response: ServerResponse): AnswerSeries | null {
    // Built by Node for every HTTP/1.1 request before any handler (it looks for `Expect`), and read as
    // Fastify reads it; scanning the raw list again would cost more (bench/README.md).
    const { headers } = request;
    const method = request.method;
    // A public answer is the same for every origin and every caller, request id included (none).
    if (method === 'GET' || method === 'HEAD') {
      const resolved = this.router.resolve(method, request.url ?? '');
      return resolved && this.read(method, resolved, headers, response);
    }
    if (method === 'POST' && request.url === TRACK_PATH) {
      const { origin } = headers;
      // This site's pages, and front ends CORS_ORIGINS allows (with their CORS headers); any other
      // origin's visit goes to Fastify.
      const cors = this.options.context.headers.corsFor(origin);
      if (origin !== undefined && !cors && !this.options.isOwnOrigin(origin, headers.host)) return null;
      const own = { requestId: givenRequestId(headers['x-request-id']), cors };
      if (this.track(request, headers, response, own)) return this.trackedSeries;
    }
    return null;
  }

  private read(
    method: 'GET' | 'HEAD',
    resolved: Resolved<LastDelivery>,
    headers: IncomingHttpHeaders,
    response: ServerResponse,
  ): AnswerSeries | null {
    const { read } = resolved;
    // The answer may depend on the token, which only Fastify checks.
    if (read.access === 'optional' && headers.authorization !== undefined) return null;
    const { context } = this.options;
    const { model } = context;
    const { answers } = model;
    const { 'accept-encoding': acceptEncoding, 'if-none-match': ifNoneMatch } = headers;
    // The date is not read for `last`: a new day drops what it changes (and so ends `last`) when the
    // site clock's timer fires, at most ~50 ms late, or when any other read looks at the date first: a
    // clock read per answer is not free (see TIME_ONE_ANSWER_IN). A lookup reads it.
    const { last } = resolved;
    let delivery: Delivery;
    let series: AnswerSeries;
    if (
      last &&
      ifNoneMatch === undefined &&
      last.generation === answers.generation &&
      last.acceptEncoding === acceptEncoding
    ) {
      // The same line asked the same way, nothing dropped since: what was sent then is the answer.
      answers.hit(last.entry);
      delivery = last.delivery;
      series = last.series;
    } else {
      model.rollOverIfDue();
      const key = read.key({ params: resolved.params, query: resolved.query, admin: false }, context);
      if (key === null) return null;
      // A miss is counted by Fastify, which takes the request next and builds the answer.
      const served = answers.ready(read.path, key, false);
      if (!served) return null;
      const state = { site: context.headers, version: model.version, stale: served.stale };
      const made = deliver(served.answer, state, acceptEncoding, ifNoneMatch);
      if (!made) return null;
      delivery = made;
      series = this.seriesOf(method, read.path, delivery.status);
      if (
        !served.stale &&
        served.entry &&
        ifNoneMatch === undefined &&
        (delivery.body?.length ?? 0) <= MAX_REMEMBERED_BODY_BYTES
      )
        resolved.last = {
          generation: answers.generation,
          acceptEncoding,
          delivery,
          series,
          entry: served.entry,
        };
    }
    writeDelivery(response, delivery);
    return series;
  }

  /** POST /api/visitor/track as its route answers a valid request; anything else goes to the route. */
  private track(
    request: IncomingMessage,
    headers: IncomingHttpHeaders,
    response: ServerResponse,
    own: OwnHeaders,
  ): boolean {
    const length = headers['content-length'];
    if (headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0')) return false;
    // Node joins a repeated custom header into one string; only set-cookie is ever a list.
    const sessionId = headers['x-session-id'];
    if (typeof sessionId !== 'string' || !SESSION_ID_PATTERN.test(sessionId)) return false;
    this.options.trackVisit(sessionId, request);
    writeDelivery(response, this.tracked, own);
    return true;
  }
}
