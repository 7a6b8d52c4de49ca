import { z } from 'zod';
import { LANGUAGES } from '../page-language.js';
import { positiveId } from './common.js';

/** The longest endpoint kept: real push services' are a few hundred characters. */
export const PUSH_ENDPOINT_MAX_LENGTH = 1000;
/** Ghadis one subscription may follow. */
export const PUSH_GHADIS_MAX = 100;
/** The largest subscription body accepted (the route's bodyLimit). */
export const PUSH_BODY_MAX_BYTES = 4096;

/** A P-256 public key (65 bytes) and an auth secret (16 bytes), base64url as PushSubscription.toJSON() gives them. */
const base64Url = (bytes: number, what: string) =>
  z
    .string(`${what} is required`)
    .regex(/^[\w-]+={0,2}$/, `${what} must be base64url`)
    // Shared with the web app (no Buffer): unpadded base64 of n bytes has ceil(4n / 3) characters.
    .refine(
      (value) => value.replace(/=+$/, '').length === Math.ceil((bytes * 4) / 3),
      `${what} must be ${bytes} bytes`,
    );

const endpoint = z
  .string('endpoint is required')
  .min(1, 'endpoint is required')
  .max(PUSH_ENDPOINT_MAX_LENGTH, `endpoint must be at most ${PUSH_ENDPOINT_MAX_LENGTH} characters`);

/** POST /api/push/subscriptions: a browser's subscription, the ghadis it follows, its language. */
export const pushSubscriptionInput = z.object({
  subscription: z.object({
    endpoint,
    // A browser may send it (null); the server does not keep it.
    expirationTime: z.number().nullable().optional(),
    keys: z.object({ p256dh: base64Url(65, 'keys.p256dh'), auth: base64Url(16, 'keys.auth') }),
  }),
  ghadis: z
    .array(positiveId)
    .min(1, 'ghadis: follow at least one ghadi')
    .max(PUSH_GHADIS_MAX, `ghadis: at most ${PUSH_GHADIS_MAX}`),
  lang: z.enum(LANGUAGES, 'lang must be en or hi'),
});
export type PushSubscriptionInput = z.infer<typeof pushSubscriptionInput>;

/** DELETE /api/push/subscriptions. */
export const pushUnsubscribeInput = z.object({ endpoint });

/** GET /api/push/key: the VAPID public key a browser subscribes with (applicationServerKey). */
export const pushKeyAnswer = z.object({ success: z.literal(true), publicKey: z.string() });

/** What a notification carries to the service worker. */
export interface PushPayload {
  title: string;
  body: string;
  /** The ghadi's results page, absolute. */
  url: string;
  /** One per ghadi: a newer notification replaces the shown one. */
  tag: string;
}
