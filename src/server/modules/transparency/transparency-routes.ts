import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { failureAnswer } from '../../../shared/schemas/common.js';
import {
  consistencyAnswer,
  consistencyQuery,
  inclusionAnswer,
  inclusionQuery,
} from '../../../shared/schemas/log-proofs.js';
import { NotFoundError, TooManyRequestsError } from '../../errors.js';
import { clientGroup } from '../../lib/client-address.js';
import type { PerMinuteLimit } from '../../lib/per-minute-limit.js';
import { parseTilePath, TILE_WIDTH } from './log-tiles.js';
import type { TransparencyLog } from './transparency-log.js';

/** A proof for a past size never changes: shared caches may keep it for good. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The checkpoint changes with every append: a cache may hold it a moment. */
const CHECKPOINT_CACHING = 'public, max-age=1';
/** A partial tile never changes either, but is soon replaced by a wider one: kept an hour. */
const PARTIAL_TILE_CACHING = 'public, max-age=3600';
/** The key changes only when an operator rotates it. */
const KEY_CACHING = 'public, max-age=300';

const tileParams = z.object({ '*': z.string().max(100) });

const text = (description: string) => ({ description, content: { 'text/plain': { schema: z.string() } } });

/**
 * The transparency log (C2SP tlog-checkpoint, RFC 6962 proofs) under /api/log: public, read from a
 * few stored rows, so they are capped by LOG_QUERIES_PER_MINUTE per address and not by the public
 * queries' limit.
 */
export const transparencyRoutes: FastifyPluginAsyncZod<{
  log: TransparencyLog;
  perMinute: PerMinuteLimit;
}> = async (app, { log, perMinute }) => {
  const config = { access: 'public', quietLog: true } as const;
  app.addHook('onRequest', async (request) => {
    if (!perMinute.take(clientGroup(request.ip)))
      throw new TooManyRequestsError(
        'Too many log queries from your address; try again in a minute',
        perMinute.secondsToNextMinute(),
      );
  });

  app.get(
    '/api/log/checkpoint',
    {
      config,
      schema: {
        response: { 200: text('The latest checkpoint: a C2SP signed note'), 429: failureAnswer },
      },
    },
    async (_request, reply) => {
      const latest = await log.latest();
      if (!latest) throw new NotFoundError('The log has no checkpoint yet');
      return reply
        .type('text/plain; charset=utf-8')
        .header('cache-control', CHECKPOINT_CACHING)
        .send(latest.note);
    },
  );

  app.get(
    '/api/log/key',
    {
      config,
      schema: { response: { 200: text('The C2SP verifier key of the checkpoints'), 429: failureAnswer } },
    },
    async (_request, reply) =>
      reply
        .type('text/plain; charset=utf-8')
        .header('cache-control', KEY_CACHING)
        .send(`${log.verifierKey()}\n`),
  );

  app.get(
    '/api/log/proof/inclusion',
    {
      config,
      schema: {
        querystring: inclusionQuery,
        response: { 200: inclusionAnswer, 400: failureAnswer, 429: failureAnswer },
      },
    },
    async (request, reply) => {
      const proof = await log.inclusion(request.query.seq, request.query.size);
      reply.header('cache-control', IMMUTABLE);
      return { success: true as const, ...proof };
    },
  );

  app.get(
    '/api/log/proof/consistency',
    {
      config,
      schema: {
        querystring: consistencyQuery,
        response: { 200: consistencyAnswer, 400: failureAnswer, 429: failureAnswer },
      },
    },
    async (request, reply) => {
      const proof = await log.consistency(request.query.from, request.query.to);
      reply.header('cache-control', IMMUTABLE);
      return { success: true as const, ...proof };
    },
  );

  app.get(
    '/api/log/tile/*',
    {
      config,
      schema: {
        params: tileParams,
        response: {
          200: {
            description: 'A C2SP tlog-tiles tile (32-byte hashes) or entry bundle (16-bit length, leaf data)',
            content: { 'application/octet-stream': { schema: z.string() } },
          },
          404: failureAnswer.describe('No such tile in the signed tree (yet)'),
          429: failureAnswer,
        },
      },
    },
    async (request, reply) => {
      const address = parseTilePath(request.params['*']);
      const bytes = address && (await log.tile(address));
      if (!bytes) throw new NotFoundError('No such tile in the signed tree');
      // A tile of a given width never changes: full ones are what CDNs and mirrors keep.
      const caching = address?.width === TILE_WIDTH ? IMMUTABLE : PARTIAL_TILE_CACHING;
      // Bytes are sent as they are, never serialized: the string schema describes what they carry.
      return reply
        .type('application/octet-stream')
        .header('cache-control', caching)
        .send(bytes as unknown as string);
    },
  );
};
