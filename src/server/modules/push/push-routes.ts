import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { failureAnswer, successAnswer } from '../../../shared/schemas/common.js';
import {
  PUSH_BODY_MAX_BYTES,
  pushKeyAnswer,
  pushSubscriptionInput,
  pushUnsubscribeInput,
} from '../../../shared/schemas/push.js';
import { BadRequestError, NotFoundError, TooManyRequestsError } from '../../errors.js';
import { clientGroup } from '../../lib/client-address.js';
import type { Now } from '../../lib/clock.js';
import type { PerMinuteLimit } from '../../lib/per-minute-limit.js';
import { checkPushEndpoint, type EndpointPolicy } from '../../lib/push-endpoint.js';
import type { PushRepository } from './push-repository.js';

/**
 * A subscription body is a few hundred bytes: one over PUSH_BODY_MAX_BYTES is bad input (400, as any
 * other refused subscription). Past this cap the parser stops reading it at all (413).
 */
const BODY_CAP_BYTES = 4 * PUSH_BODY_MAX_BYTES;

async function refuseOver4Kb(request: FastifyRequest): Promise<void> {
  const declared = Number(request.headers['content-length']);
  const size = Number.isFinite(declared) ? declared : Buffer.byteLength(JSON.stringify(request.body ?? ''));
  if (size > PUSH_BODY_MAX_BYTES)
    throw new BadRequestError(
      `The body is over ${PUSH_BODY_MAX_BYTES / 1024} KB; a subscription needs far less`,
    );
}

export const PUSH_OFF_MESSAGE =
  'Push notifications are off on this site (the server has no PUBLIC_URL for their links)';

export interface PushRoutesOptions {
  /** The VAPID public key; null while push is off (no PUBLIC_URL): every route answers 404. */
  publicKey: string | null;
  repository: PushRepository;
  policy: EndpointPolicy;
  newPerMinute: PerMinuteLimit;
  now: Now;
  /** Told when the number of subscriptions may have changed (the metrics). */
  onChange?: () => void;
}

/**
 * Web Push subscriptions (decision 0025): public, as a visitor's browser subscribes without an
 * account. Nothing a route answers names another subscription.
 */
export const pushRoutes: FastifyPluginAsyncZod<PushRoutesOptions> = async (app, options) => {
  const { publicKey, repository, policy, newPerMinute, now } = options;
  const config = { access: 'public' } as const;
  app.addHook('onRequest', async () => {
    if (publicKey === null) throw new NotFoundError(PUSH_OFF_MESSAGE);
  });

  app.get(
    '/api/push/key',
    { config, schema: { response: { 200: pushKeyAnswer, 404: failureAnswer } } },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return { success: true as const, publicKey: publicKey ?? '' };
    },
  );

  app.post(
    '/api/push/subscriptions',
    {
      config,
      bodyLimit: BODY_CAP_BYTES,
      preValidation: refuseOver4Kb,
      schema: {
        body: pushSubscriptionInput,
        response: { 200: successAnswer, 201: successAnswer, 404: failureAnswer, 429: failureAnswer },
      },
    },
    async (request, reply) => {
      const { subscription, ghadis, lang } = request.body;
      const checked = checkPushEndpoint(subscription.endpoint, policy);
      if (!checked.ok) throw new BadRequestError(`subscription.endpoint: ${checked.reason}`);
      const gids = [...new Set(ghadis)];
      if ((await repository.countLiveGhadis(gids)) !== gids.length)
        throw new BadRequestError('ghadis: one of them is no ghadi of this site');
      // Only a new endpoint counts: a browser re-posting its own (new ghadis, a language) is not held back.
      if (!(await repository.exists(subscription.endpoint)) && !newPerMinute.take(clientGroup(request.ip)))
        throw new TooManyRequestsError(
          'Too many new push subscriptions from your address; try again in a minute',
          newPerMinute.secondsToNextMinute(),
        );
      const created = await repository.save(
        {
          endpoint: subscription.endpoint,
          p256dh: subscription.keys.p256dh,
          auth: subscription.keys.auth,
          lang,
          gids,
        },
        new Date(now()).toISOString(),
      );
      options.onChange?.();
      return reply
        .code(created ? 201 : 200)
        .send({ success: true as const, message: created ? 'Subscribed' : 'Subscription updated' });
    },
  );

  app.delete(
    '/api/push/subscriptions',
    {
      config,
      bodyLimit: BODY_CAP_BYTES,
      preValidation: refuseOver4Kb,
      schema: { body: pushUnsubscribeInput, response: { 200: successAnswer, 404: failureAnswer } },
    },
    async (request) => {
      // Answered alike whether it was there: nobody learns which endpoints are subscribed.
      await repository.removeByEndpoint(request.body.endpoint);
      options.onChange?.();
      return { success: true as const, message: 'Unsubscribed' };
    },
  );
};
