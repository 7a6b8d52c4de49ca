import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParams, itemAnswer, listAnswer, successAnswer } from '../../../shared/schemas/common.js';
import {
  contentBlockInput,
  contentBlockRecord,
  contentPreviewAnswer,
  contentPreviewInput,
} from '../../../shared/schemas/content-blocks.js';
import { explainSanitizing } from '../../lib/sanitize-report.js';
import { actorOf } from '../activity/request-actor.js';
import type { ContentBlocksService } from './content-blocks-service.js';

export const contentBlocksRoutes: FastifyPluginAsyncZod<{ blocks: ContentBlocksService }> = async (
  app,
  { blocks },
) => {
  app.get(
    '/api/contentblocks',
    { schema: { response: { 200: listAnswer(contentBlockRecord) } } },
    async () => ({
      success: true as const,
      data: await blocks.list(),
    }),
  );

  app.post(
    '/api/contentblocks',
    { schema: { body: contentBlockInput, response: { 201: itemAnswer(contentBlockRecord) } } },
    async (request, reply) =>
      reply.code(201).send({
        success: true,
        message: 'Content added successfully.',
        data: await blocks.create(actorOf(request), request.body),
      }),
  );

  // Writes nothing: what a save of this Content would store and the site would serve.
  app.post(
    '/api/contentblocks/preview',
    { schema: { body: contentPreviewInput, response: { 200: contentPreviewAnswer } } },
    async (request) => ({ success: true as const, ...explainSanitizing(request.body.Content) }),
  );

  app.put(
    '/api/contentblocks/:id',
    {
      schema: {
        params: idParams,
        body: contentBlockInput,
        response: { 200: itemAnswer(contentBlockRecord) },
      },
    },
    async (request) => ({
      success: true as const,
      message: 'Content updated successfully.',
      data: await blocks.update(actorOf(request), Number(request.params.id), request.body),
    }),
  );

  app.delete(
    '/api/contentblocks/:id',
    { schema: { params: idParams, response: { 200: successAnswer } } },
    async (request) => {
      await blocks.delete(actorOf(request), Number(request.params.id));
      return { success: true as const, message: 'Deleted successfully.' };
    },
  );
};
