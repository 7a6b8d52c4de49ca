import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { failureAnswer, itemAnswer, listAnswer } from '../../../shared/schemas/common.js';
import { ghadiRecord } from '../../../shared/schemas/ghadis.js';
import { mismatchAnswer, pendingAnswer } from '../../../shared/schemas/pending.js';
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
import type { GhadisService } from '../ghadis/ghadis-service.js';
import type { ResultSubmissions } from '../results/result-submissions.js';
import type { ResultsService } from '../results/results-service.js';

/** The agent's own area; update-result is shared with admins, who may declare for any ghadi. */
export const agentRoutes: FastifyPluginAsyncZod<{
  results: ResultsService;
  submissions: ResultSubmissions;
  ghadis: GhadisService;
}> = async (app, { results, submissions, ghadis }) => {
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
          202: pendingAnswer.describe('Held until a second person enters the same value (Confirmations: 2)'),
          409: z
            .union([mismatchAnswer, failureAnswer])
            .describe(
              'Another person entered a different value (mismatch: true; the value stays held), or the ' +
                'published value is not the one Expected names (nothing changed)',
            ),
          429: failureAnswer.describe('Too many submissions by this user this minute, or keys this day'),
          422: failureAnswer.describe('The Idempotency-Key was sent before with another request'),
        },
      },
    },
    async (request, reply) => {
      const key = request.headers['idempotency-key'];
      const { status, body } = await submissions.submit(actorOf(request), request.body, key);
      return reply.code(status).send(body);
    },
  );
};
