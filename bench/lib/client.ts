/**
 * What the acceptance checks send as clients: each from a client address of its own, named in
 * X-Forwarded-For (the servers run with TRUST_PROXY=loopback), so that per-address limits apply as
 * they would to many visitors.
 */
import { randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { jsonOf, type TimedAnswer, type TimedOptions, timedRequest } from './timed-request.js';

/** Addresses in 10.0.0.0/8 from a random start, a new one at each call. */
export function addressSource(): () => string {
  let next = randomInt(1 << 23);
  return () => {
    next = (next + 1) % (1 << 24);
    return `10.${next >> 16}.${(next >> 8) & 255}.${next & 255}`;
  };
}

export interface SendOptions extends TimedOptions {
  address: string;
  token?: string;
}

export function send(baseUrl: string, path: string, options: SendOptions): Promise<TimedAnswer> {
  return timedRequest(`${baseUrl}${path}`, {
    ...options,
    headers: {
      'x-forwarded-for': options.address,
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
  });
}

/** Signs in as a person would: after a 429, waits as long as Retry-After says (30 s at most), once or twice. */
export async function signIn(
  baseUrl: string,
  credentials: { username: string; password: string },
  address: string,
): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const answer = await send(baseUrl, '/api/users/login', {
      method: 'POST',
      address,
      json: { UserName: credentials.username, Password: credentials.password },
    });
    const retryAfter = Number(answer.headers['retry-after'] ?? 0);
    if (answer.status === 429 && attempt < 3 && retryAfter <= 30) {
      await sleep(Math.max(1, retryAfter) * 1000);
      continue;
    }
    const body = jsonOf<{ token?: string; message?: string }>(answer, 'POST /api/users/login');
    if (answer.status !== 200 || !body.token) {
      throw new Error(`${credentials.username} could not sign in: ${answer.status} ${body.message ?? ''}`);
    }
    return body.token;
  }
}
