import { PerMinuteLimit } from '../../lib/per-minute-limit.js';
import type { EndpointPolicy } from '../../lib/push-endpoint.js';
import type { ModuleContext, ModuleRoutes } from '../module-context.js';
import { PushRepository } from './push-repository.js';
import { pushRoutes } from './push-routes.js';
import { ensureVapidKeys, type VapidKeys } from './vapid-key-store.js';

/** Why push is off, in the words the start's log uses; null when it is on. */
export function pushOffReason(config: ModuleContext['config']): string | null {
  if (!config.publicUrl)
    return 'Push notifications are off: PUBLIC_URL is not set (their links need the site’s address)';
  const subject = config.push.vapidSubject ?? '';
  if (!/^(https:|mailto:)/.test(subject))
    return 'Push notifications are off: the VAPID subject must be an https: URL or a mailto: address (set VAPID_SUBJECT, as PUBLIC_URL is not https)';
  return null;
}

/**
 * Web Push subscriptions (decision 0025): the VAPID key pair (the environment's, or made at the first
 * start and kept), and the public routes that store and remove subscriptions. Off without PUBLIC_URL.
 */
export async function pushModule(context: ModuleContext, options: { onChange?: () => void } = {}) {
  const { database, config, log, now } = context;
  const repository = new PushRepository(database);
  const off = pushOffReason(config);
  if (off) log.info(off);
  const vapid: VapidKeys | null = off ? null : (config.push.vapidKeys ?? (await ensureVapidKeys(database)));
  const policy: EndpointPolicy = { allowLoopback: config.push.allowLoopback };
  if (policy.allowLoopback)
    log.warn('PUSH_ALLOW_LOOPBACK is on: push endpoints on loopback are accepted (tests only)');
  const routes: ModuleRoutes = (app) =>
    app.register(pushRoutes, {
      publicKey: vapid?.publicKey ?? null,
      repository,
      policy,
      newPerMinute: new PerMinuteLimit(config.push.subscriptionsPerMinute, now),
      now,
      onChange: options.onChange,
    });
  return { repository, vapid, policy, routes };
}
