import type { ModuleRoutes } from '../module-context.js';
import { ClusterMetrics } from './cluster-metrics.js';
import { type MetricSources, Metrics } from './metrics.js';
import { metricsRoutes } from './metrics-routes.js';

/** The process's metrics, which every other part reports to, and GET /metrics (METRICS_TOKEN). */
export function metricsModule(token: string | undefined, sources: MetricSources) {
  const metrics = new Metrics(sources);
  const routes: ModuleRoutes = (app) =>
    app.register(metricsRoutes, { metrics: new ClusterMetrics(metrics.registry), token });
  return { metrics, routes };
}
