import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { failureAnswer } from '../../../shared/schemas/common.js';
import {
  RESULTS_IMPORT_MAX_BYTES,
  resultsExportQuery,
  resultsImportAnswer,
  resultsImportQuery,
} from '../../../shared/schemas/results.js';
import { UnsupportedMediaTypeError } from '../../errors.js';
import { actorOf } from '../activity/request-actor.js';
import type { ResultsCsvService } from './results-csv-service.js';

const CSV_TYPE = 'text/csv';

const isCsv = (contentType: string | undefined) =>
  contentType?.split(';')[0]?.trim().toLowerCase() === CSV_TYPE;

/**
 * GET /api/results/export.csv and POST /api/results/import (admins: routes are admin-only unless they
 * say otherwise). Registered as a plugin of its own, so that the CSV body parser and its 10 MB limit
 * exist for the import alone.
 */
export const resultsCsvRoutes: FastifyPluginAsyncZod<{ csv: ResultsCsvService }> = async (app, { csv }) => {
  app.addContentTypeParser(
    CSV_TYPE,
    { parseAs: 'string', bodyLimit: RESULTS_IMPORT_MAX_BYTES },
    (_request, body, done) => done(null, body),
  );
  // Before the body is read: a JSON body would otherwise be parsed, then fail as "not a string".
  app.addHook('preParsing', async (request) => {
    if (request.method === 'POST' && !isCsv(request.headers['content-type'])) {
      throw new UnsupportedMediaTypeError('Send the file as the body, with Content-Type text/csv');
    }
  });

  app.get(
    '/api/results/export.csv',
    {
      schema: {
        querystring: resultsExportQuery,
        response: {
          200: {
            description: 'The range as CSV: Date,GID,Name,Result, by date then GID',
            content: { [CSV_TYPE]: { schema: z.string() } },
          },
        },
      },
    },
    async (request, reply) => {
      const { from, to } = request.query;
      return (
        reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="results-${from}-${to}.csv"`)
          // A stream is sent as it is, never serialized: the string schema describes what it carries.
          .send(csv.export(request.query) as unknown as string)
      );
    },
  );

  app.post(
    '/api/results/import',
    {
      bodyLimit: RESULTS_IMPORT_MAX_BYTES,
      schema: {
        querystring: resultsImportQuery,
        consumes: [CSV_TYPE],
        body: z.string().describe('CSV with a header row: Date, GID or Name, Result'),
        response: {
          200: resultsImportAnswer,
          400: z.union([resultsImportAnswer, failureAnswer]),
          415: failureAnswer,
        },
      },
    },
    async (request, reply) => {
      const answer = await csv.import(actorOf(request), request.body, request.query.dryRun);
      return reply.code(answer.success ? 200 : 400).send(answer);
    },
  );
};
