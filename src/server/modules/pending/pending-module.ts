import type { GhadisService } from '../ghadis/ghadis-service.js';
import type { ModuleContext, ModuleRoutes } from '../module-context.js';
import type { ResultsWriteRepository } from '../results/results-write-repository.js';
import type { PendingRepository } from './pending-repository.js';
import { pendingRoutes } from './pending-routes.js';
import { PendingService } from './pending-service.js';

/** Results held for a second person's confirmation (decision 0020); the results module holds and publishes them. */
export function pendingModule(
  { changes, activity }: ModuleContext,
  results: { pending: PendingRepository; writes: ResultsWriteRepository },
  ghadis: GhadisService,
) {
  const service = new PendingService(results.pending, results.writes, ghadis, changes, activity);
  const routes: ModuleRoutes = (app) => app.register(pendingRoutes, { pending: service });
  return { service, routes };
}
