/**
 * The two metrics every public request touches, kept in plain arrays. prom-client's own hash their
 * labels on each observation, which costs the fast path a large share of its throughput
 * (bench/README.md); these find a series through maps of the label values and build prom-client's records only
 * when scraped. Registered in the prom-client registry like its own metrics (the same `get()` shape),
 * so the text format and the cluster aggregation treat them alike.
 */

interface Value {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

interface Snapshot {
  name: string;
  help: string;
  type: 'histogram' | 'counter';
  values: Value[];
  aggregator: 'sum';
}

/** A map's entry, made the first time it is asked for. */
function entry<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}

/** One series of the request histogram: the requests of one method, route pattern and status. */
export class RequestSeries {
  /** Observations per bucket (not cumulative): index i counts values in (bounds[i-1], bounds[i]]. */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;
  /** The latest observation's value and bucket, for observeAgain. */
  private lastSeconds = 0;
  private lastBucket = 0;

  constructor(
    readonly labels: Readonly<Record<string, string>>,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length);
  }

  observe(seconds: number): void {
    const { bounds } = this;
    let bucket = 0;
    while (bucket < bounds.length && seconds > (bounds[bucket] ?? 0)) bucket++;
    this.lastSeconds = seconds;
    this.lastBucket = bucket;
    this.observeAgain();
  }

  /** Counts one more observation of the latest value (0 before any): for answers not timed one by one. */
  observeAgain(): void {
    const bucket = this.lastBucket;
    if (bucket < this.counts.length) this.counts[bucket] = (this.counts[bucket] ?? 0) + 1;
    this.sum += this.lastSeconds;
    this.count += 1;
  }

  reset(): void {
    this.counts.fill(0);
    this.sum = 0;
    this.count = 0;
  }
}

/** Requests by method, route pattern and status, with their latency. */
export class RequestHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly byRoute = new Map<string, Map<number, Map<string, RequestSeries>>>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
  ) {}

  observe(method: string, route: string, status: number, seconds: number): void {
    this.series(method, route, status).observe(seconds);
  }

  /** The series of one method, route and status, which a caller may keep and observe directly. */
  series(method: string, route: string, status: number): RequestSeries {
    const byStatus = entry(this.byRoute, route, () => new Map<number, Map<string, RequestSeries>>());
    const byMethod = entry(byStatus, status, () => new Map<string, RequestSeries>());
    return entry(
      byMethod,
      method,
      () => new RequestSeries({ method, route, status_code: String(status) }, this.bounds),
    );
  }

  async get(): Promise<Snapshot> {
    const values: Value[] = [];
    const bucketName = `${this.name}_bucket`;
    for (const byStatus of this.byRoute.values()) {
      for (const byMethod of byStatus.values()) {
        for (const { labels, counts, sum, count } of byMethod.values()) {
          let cumulative = 0;
          this.bounds.forEach((bound, index) => {
            cumulative += counts[index] ?? 0;
            values.push({ labels: { ...labels, le: bound }, value: cumulative, metricName: bucketName });
          });
          values.push({ labels: { ...labels, le: '+Inf' }, value: count, metricName: bucketName });
          values.push({ labels, value: sum, metricName: `${this.name}_sum` });
          values.push({ labels, value: count, metricName: `${this.name}_count` });
        }
      }
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  /** Zeroes every series in place: callers may keep theirs. */
  reset(): void {
    for (const byStatus of this.byRoute.values()) {
      for (const byMethod of byStatus.values()) for (const series of byMethod.values()) series.reset();
    }
  }
}

/** Public reads found built (hit) or built first (miss), by route. */
export class LookupCounter {
  readonly type = 'counter';
  readonly aggregator = 'sum';
  private readonly byRoute = new Map<string, { hit: number; stale: number; miss: number }>();

  constructor(
    readonly name: string,
    readonly help: string,
  ) {}

  inc(route: string, outcome: 'hit' | 'stale' | 'miss'): void {
    entry(this.byRoute, route, () => ({ hit: 0, stale: 0, miss: 0 }))[outcome] += 1;
  }

  async get(): Promise<Snapshot> {
    const values: Value[] = [];
    for (const [route, counts] of this.byRoute)
      for (const [outcome, value] of Object.entries(counts))
        values.push({ labels: { route, outcome }, value });
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  reset(): void {
    this.byRoute.clear();
  }
}
