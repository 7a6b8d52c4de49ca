import type { GhadisService } from '../ghadis/ghadis-service.js';
import type { ModuleRoutes } from '../module-context.js';
import type { ResultSubmissions } from '../results/result-submissions.js';
import type { ResultsService } from '../results/results-service.js';
import { agentRoutes } from './agent-routes.js';

/** The agent's own area (/api/agent/…): its ghadis, its history, and the submission admins share. */
export function agentModule(needs: {
  results: ResultsService;
  submissions: ResultSubmissions;
  ghadis: GhadisService;
}) {
  const routes: ModuleRoutes = (app) => app.register(agentRoutes, needs);
  return { routes };
}
