import { Counter, collectDefaultMetrics, Gauge, type Metric, Registry } from 'prom-client';
import { LookupCounter, RequestHistogram, type RequestSeries } from './hot-metrics.js';

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

export interface MetricSources {
  openStreams(): number;
  pool(): PoolUse;
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
    'Public reads answered from the cache (hit) or built first (miss), by route',
  );
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
    collectDefaultMetrics({ register: this.registry });
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
  }

  request(method: string, route: string, status: number, seconds: number): void {
    this.requests.observe(method, route, status, seconds);
  }

  /** The series of requests of one method, route and status, to keep and observe directly (the fast path). */
  requestSeries(method: string, route: string, status: number): RequestSeries {
    return this.requests.series(method, route, status);
  }

  cacheLookup(route: string, hit: boolean): void {
    this.cacheLookups.inc(route, hit);
  }

  declared(source: DeclarationSource, count = 1): void {
    this.declarations.inc({ source }, count);
  }

  visitorFlush(ok: boolean): void {
    this.visitorFlushes.inc({ outcome: ok ? 'written' : 'failed' });
  }
}
