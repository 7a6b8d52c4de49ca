import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { countAnswer, failureAnswer, itemAnswer, listAnswer } from '../../../shared/schemas/common.js';
import { resultHistoryEntry, resultHistoryQuery } from '../../../shared/schemas/declarations.js';
import { ghadiRecord } from '../../../shared/schemas/ghadis.js';
import {
  agentHistoryQuery,
  pagedResultsAnswer,
  publicResultRecord,
  resultRecord,
  resultSubmitHeaders,
  resultSubmitInput,
} from '../../../shared/schemas/results.js';
import { currentUser } from '../../plugins/access.js';
import { actorOf } from '../activity/request-actor.js';
import type { DeclarationLog } from '../declarations/declaration-log.js';
import type { GhadisService } from '../ghadis/ghadis-service.js';
import { resultsCsvRoutes } from './results-csv-routes.js';
import type { ResultsCsvService } from './results-csv-service.js';
import type { ResultsService } from './results-service.js';

interface Services {
  results: ResultsService;
  ghadis: GhadisService;
}

/**
 * The admin's count, and CSV export and import. GET /api/results and GET /api/results/{name} are public
 * reads: they are declared with the other public reads in public-site/public-reads.ts.
 */
export const resultsRoutes: FastifyPluginAsyncZod<
  Services & { csv: ResultsCsvService; declarations: DeclarationLog }
> = async (app, { results, csv, declarations }) => {
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

/** The agent's own area; update-result is shared with admins, who may declare for any ghadi. */
export const agentRoutes: FastifyPluginAsyncZod<Services> = async (app, { results, ghadis }) => {
  app.get(
    '/api/agent/my-ghadi',
    { config: { access: 'agent' }, schema: { response: { 200: listAnswer(ghadiRecord) } } },
    async (request) => ({
      success: true as const,
      data: await ghadis.listAssignedTo(currentUser(request).userId),
    }),
  );

  app.get(
    '/api/agent/my-ghadi/results',
    {
      config: { access: 'agent' },
      schema: { querystring: agentHistoryQuery, response: { 200: pagedResultsAnswer } },
    },
    async (request) => ({
      success: true as const,
      ...(await results.agentHistory(currentUser(request), request.query)),
    }),
  );

  app.post(
    '/api/agent/my-ghadi/update-result',
    {
      config: { access: 'staff' },
      // An admin's answer names the author; an agent's has the public fields only (results-service.ts).
      schema: {
        headers: resultSubmitHeaders,
        body: resultSubmitInput,
        response: {
          200: itemAnswer(z.union([resultRecord, publicResultRecord])),
          422: failureAnswer.describe('The Idempotency-Key was sent before with another request'),
        },
      },
    },
    async (request, reply) => {
      const key = request.headers['idempotency-key'];
      const { status, body } = await results.submit(actorOf(request), request.body, key);
      return reply.code(status).send(body);
    },
  );
};
