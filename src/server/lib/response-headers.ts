import { randomUUID } from 'node:crypto';

/** Headers every answer carries (set by the app's onSend hook, and by the public front door). */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
};

const REQUEST_ID = /^[\w-]{1,64}$/;

/** The caller's x-request-id when it is a plain token (a proxy's, say), else undefined. */
export function givenRequestId(given: string | string[] | undefined): string | undefined {
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : undefined;
}

/** A request's id: the caller's x-request-id when it is a plain token, otherwise a new one. */
export function requestIdFrom(given: string | string[] | undefined): string {
  return givenRequestId(given) ?? randomUUID();
}
