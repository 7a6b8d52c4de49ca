import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { failureAnswer, idParams, successAnswer } from '../../../shared/schemas/common.js';
import {
  MEDIA_MAX_BYTES,
  MEDIA_TYPES,
  mediaFileParams,
  mediaListAnswer,
  mediaListQuery,
  mediaUploadAnswer,
} from '../../../shared/schemas/media.js';
import {
  BadRequestError,
  NotFoundError,
  PayloadTooLargeError,
  TooManyRequestsError,
  UnsupportedMediaTypeError,
} from '../../errors.js';
import { clientGroup } from '../../lib/client-address.js';
import type { PerMinuteLimit } from '../../lib/per-minute-limit.js';
import { actorOf } from '../activity/request-actor.js';
import { type MediaService, mediaFilePath } from './media-service.js';

const TOO_LARGE = `The image is larger than ${MEDIA_MAX_BYTES / (1024 * 1024)} MB`;

/** A copy's bytes never change under its address: a new upload gets a new id. */
const FOREVER = 'public, max-age=31536000, immutable';

/** The library's admin routes: upload (multipart, field `file`), list and delete. Admin-only (access.ts). */
const mediaAdminRoutes: FastifyPluginAsyncZod<{ media: MediaService }> = async (app, { media }) => {
  // Only in this scope: no other route takes multipart bodies. Past the size, busboy reads on without
  // keeping anything, and the upload is refused.
  await app.register(multipart, {
    limits: { fileSize: MEDIA_MAX_BYTES, files: 1, fields: 0, parts: 2, fieldSize: 1024, headerPairs: 100 },
    throwFileSizeLimit: true,
  });

  app.get(
    '/api/media',
    { schema: { querystring: mediaListQuery, response: { 200: mediaListAnswer } } },
    async (request) => ({ success: true as const, ...(await media.list(request.query)) }),
  );

  app.post(
    '/api/media',
    {
      schema: {
        response: {
          201: mediaUploadAnswer,
          400: failureAnswer,
          413: failureAnswer,
          415: failureAnswer,
        },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart())
        throw new UnsupportedMediaTypeError('Send the image as multipart/form-data, in a field named file');
      const part = await request.file().catch(uploadFailure);
      if (part?.fieldname !== 'file') throw new BadRequestError('file: An image is required');
      const bytes = await part.toBuffer().catch(uploadFailure);
      if (bytes.length === 0) throw new BadRequestError('file: The file is empty');
      const record = await media.upload(actorOf(request), bytes);
      return reply.code(201).send({ success: true, message: 'Image uploaded.', data: record });
    },
  );

  app.delete(
    '/api/media/:id',
    { schema: { params: idParams, response: { 200: successAnswer, 409: failureAnswer } } },
    async (request) => {
      await media.delete(actorOf(request), Number(request.params.id));
      return { success: true as const, message: 'Image deleted.' };
    },
  );
};

/** The multipart reader's own failures in the API's words. */
function uploadFailure(error: unknown): never {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') throw new PayloadTooLargeError(TOO_LARGE);
  if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
    throw new BadRequestError('Send one file, in a field named file, and nothing else');
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE')
    throw new UnsupportedMediaTypeError('Send the image as multipart/form-data, in a field named file');
  throw error;
}

/**
 * The stored copies, public, at the addresses the records name. Each is one read by primary key,
 * capped per client address and minute like the other public reads served from stored rows.
 */
const mediaFileRoutes: FastifyPluginAsyncZod<{ media: MediaService; perMinute: PerMinuteLimit }> = async (
  app,
  { media, perMinute },
) => {
  app.get(
    '/media/:id/:file',
    {
      schema: {
        params: mediaFileParams,
        response: {
          200: {
            description: 'The stored copy: a JPEG, PNG, WebP or GIF image',
            content: Object.fromEntries(MEDIA_TYPES.map((type) => [type, { schema: z.string() }])),
          },
          304: {
            description: 'The copy the client has (If-None-Match): no body',
            content: { 'text/plain': { schema: z.string() } },
          },
          404: failureAnswer.describe('No such image or copy'),
          429: failureAnswer,
        },
      },
      config: { access: 'public', quietLog: true },
      // Images are compressed already.
      compress: false,
    },
    async (request, reply) => {
      if (!perMinute.take(clientGroup(request.ip)))
        throw new TooManyRequestsError(
          'Too many image requests from your address; try again in a minute',
          perMinute.secondsToNextMinute(),
        );
      const path = mediaFilePath(request.params.id, request.params.file);
      const file = path === null ? undefined : await media.file(path);
      if (!file) throw new NotFoundError(`Not found: ${request.method} ${request.url.split('?')[0]}`);
      reply.headers({
        'content-type': file.type,
        'cache-control': FOREVER,
        etag: file.etag,
        'x-content-type-options': 'nosniff',
      });
      const asked = request.headers['if-none-match'];
      if (asked?.split(/\s*,\s*/).some((tag) => tag === file.etag || tag === `W/${file.etag}`))
        return reply.code(304).send();
      // Bytes are sent as they are, never serialized: the string schema describes what they carry.
      return reply.send(Buffer.from(file.data) as unknown as string);
    },
  );
};

export const mediaRoutes: FastifyPluginAsyncZod<{ media: MediaService; perMinute: PerMinuteLimit }> = async (
  app,
  options,
) => {
  await app.register(mediaAdminRoutes, { media: options.media });
  await app.register(mediaFileRoutes, options);
};
