import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { countAnswer, listAnswer } from '../../../shared/schemas/common.js';
import { resultHistoryEntry, resultHistoryQuery } from '../../../shared/schemas/declarations.js';
import type { DeclarationLog } from '../declarations/declaration-log.js';
import { resultsCsvRoutes } from './results-csv-routes.js';
import type { ResultsCsvService } from './results-csv-service.js';
import type { ResultsService } from './results-service.js';

/**
 * The admin's count, and CSV export and import. GET /api/results and GET /api/results/{name} are public
 * reads: they are declared with the other public reads in public-site/reads/read-table.ts.
 */
export const resultsRoutes: FastifyPluginAsyncZod<{
  results: ResultsService;
  csv: ResultsCsvService;
  declarations: DeclarationLog;
}> = async (app, { results, csv, declarations }) => {
  app.get('/api/results/count', { schema: { response: { 200: countAnswer } } }, async () => ({
    success: true as const,
    count: await results.count(),
  }));
  // A path of its own: under /api/results/ a word would be taken for a ghadi's name.
  app.get(
    '/api/result-history',
    { schema: { querystring: resultHistoryQuery, response: { 200: listAnswer(resultHistoryEntry) } } },
    async (request) => ({
      success: true as const,
      data: await declarations.historyOf(request.query.gid, request.query.date),
    }),
  );
  await app.register(resultsCsvRoutes, { csv });
};
