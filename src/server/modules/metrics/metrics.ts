import { createRequire } from 'node:module';
import { Counter, collectDefaultMetrics, Gauge, type Metric, Registry } from 'prom-client';
import { LookupCounter, RequestHistogram, type RequestSeries } from './hot-metrics.js';

const requireFromHere = createRequire(import.meta.url);

/**
 * prom-client's default process metrics (CPU, memory, heap spaces, file descriptors, handles and
 * requests, event-loop lag, version), each registered by prom-client's own module: all its defaults,
 * as its own list names them, but the GC-duration histogram.
 *
 * Why not collectDefaultMetrics: that histogram observes every garbage collection through perf_hooks,
 * which calls into JavaScript after each one. Under a burst a process collects its young objects
 * dozens of times a second, and those calls are a measurable share of a cached answer's CPU
 * (bench/README.md). The event-loop lag already shows any pause a visitor would feel.
 */
const PROCESS_METRICS = collectDefaultMetrics.metricsList.filter((name) => name !== 'gc');

type RegisterProcessMetric = (registry: Registry, config: { eventLoopMonitoringPrecision: number }) => void;

function registerProcessMetrics(registry: Registry): void {
  for (const name of PROCESS_METRICS) {
    const register = requireFromHere(`prom-client/lib/metrics/${name}.js`) as RegisterProcessMetric;
    // collectDefaultMetrics' own default precision, in milliseconds.
    register(registry, { eventLoopMonitoringPrecision: 10 });
  }
}

/** Latency buckets in seconds: a cached answer takes well under a millisecond, a list a few. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** A request no route matched: one label value, so that scanners cannot grow the series without bound. */
export const UNMATCHED_ROUTE = '(unmatched)';

export interface PoolUse {
  /** Connections open. */
  total: number;
  /** Of which idle (unknown for SQLite's one connection). */
  idle?: number;
  /** Queries waiting for a connection. */
  waiting?: number;
}

/** The public answer cache and its build gate, as the metrics show them. */
export interface PublicCacheUse {
  bytes: number;
  entries: number;
  building: { running: number; waiting: number; queued: number };
}

export interface MetricSources {
  openStreams(): number;
  pool(): PoolUse;
  /** Read when scraped, once the public site exists. */
  publicCache?(): PublicCacheUse | undefined;
}

type DeclarationSource = 'agent' | 'admin' | 'import';

/**
 * The process's metrics in Prometheus terms, one registry per app (tests build several apps in one
 * process). Parts of the app report through the narrow methods below; gauges read their sources
 * when scraped, so nothing is counted twice or kept in step by hand.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests = new RequestHistogram(
    'http_request_duration_seconds',
    'Requests by method, route and status, with their latency (the fast path included)',
    LATENCY_BUCKETS,
  );
  private readonly cacheLookups = new LookupCounter(
    'public_read_cache_lookups_total',
    'Public reads answered from the cache (hit), stale while rebuilt (stale) or built first (miss), by route',
  );
  private readonly builds = new Counter({
    name: 'public_answer_builds_total',
    help: 'Public answers built to keep: while a reader waited (reader), or after a change dropped them (rebuild)',
    labelNames: ['route', 'kind'] as const,
    registers: [this.registry],
  });
  private readonly purges = new Counter({
    name: 'public_cache_purges_total',
    help: 'Purges sent to the shared cache in front (PURGE_URL), by outcome (a failed one is tried again)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private readonly declarations = new Counter({
    name: 'result_declarations_total',
    help: 'Results declared or corrected (a value sent again included), by who sent them',
    labelNames: ['source'] as const,
    registers: [this.registry],
  });
  private readonly visitorFlushes = new Counter({
    name: 'visitor_flushes_total',
    help: 'Batches of visitor sightings written to the database, by outcome',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  constructor(sources: MetricSources) {
    registerProcessMetrics(this.registry);
    for (const metric of [this.requests, this.cacheLookups])
      this.registry.registerMetric(metric as unknown as Metric);
    new Gauge({
      name: 'live_streams_open',
      help: 'Open /api/events streams',
      registers: [this.registry],
      collect() {
        this.set(sources.openStreams());
      },
    });
    new Gauge({
      name: 'db_pool_connections',
      help: 'Database connections: open (total), idle, and queries waiting for one',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        const use = sources.pool();
        this.set({ state: 'total' }, use.total);
        if (use.idle !== undefined) this.set({ state: 'idle' }, use.idle);
        if (use.waiting !== undefined) this.set({ state: 'waiting' }, use.waiting);
      },
    });
    new Gauge({
      name: 'public_answers_kept',
      help: 'Public answers kept in memory: their count (entries) and the bytes of their bodies (bytes)',
      labelNames: ['measure'] as const,
      registers: [this.registry],
      collect() {
        const use = sources.publicCache?.();
        if (!use) return;
        this.set({ measure: 'entries' }, use.entries);
        this.set({ measure: 'bytes' }, use.bytes);
      },
    });
    new Gauge({
      name: 'public_answer_builds',
      help: 'Builds of public answers: running, readers waiting for a place, rebuilds queued',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        const use = sources.publicCache?.();
        if (!use) return;
        for (const [state, count] of Object.entries(use.building)) this.set({ state }, count);
      },
    });
  }

  request(method: string, route: string, status: number, seconds: number): void {
    this.requests.observe(method, route, status, seconds);
  }

  /** The series of requests of one method, route and status, to keep and observe directly (the fast path). */
  requestSeries(method: string, route: string, status: number): RequestSeries {
    return this.requests.series(method, route, status);
  }

  cacheLookup(route: string, outcome: 'hit' | 'stale' | 'miss'): void {
    this.cacheLookups.inc(route, outcome);
  }

  answerBuilt(route: string, kind: 'reader' | 'rebuild'): void {
    this.builds.inc({ route, kind });
  }

  purged(outcome: 'sent' | 'failed'): void {
    this.purges.inc({ outcome });
  }

  declared(source: DeclarationSource, count = 1): void {
    this.declarations.inc({ source }, count);
  }

  visitorFlush(ok: boolean): void {
    this.visitorFlushes.inc({ outcome: ok ? 'written' : 'failed' });
  }
}
