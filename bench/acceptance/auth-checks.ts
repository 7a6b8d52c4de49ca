import { randomBytes, randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ACCOUNT_DELAY_CAP_SECONDS } from '../../src/server/lib/login-throttle.js';
import { addDays } from '../../src/shared/dates.js';
import { check } from './check.js';
import type { AcceptanceChecks, AcceptanceContext, CheckResult } from './types.js';

/**
 * Logins, sessions and the agents' result window, checked from outside (issue 9, sections 3-5).
 *
 * REQUIRES the server to trust the runner as its proxy (TRUST_PROXY=loopback): every request here
 * names its client address in X-Forwarded-For, so that an attack from one address and the real
 * admin's sign-in from another can be told apart. Without it all requests share the runner's
 * address and the checks fail.
 *
 * The attack leaves the admin account slowed down for up to 15 minutes: a later sign-in from an
 * address that has not signed in before gets a 429 with a Retry-After of at most
 * ACCOUNT_DELAY_CAP_SECONDS and must wait that long (signInPatiently below does). Run these checks
 * after the others, or have the others honour Retry-After.
 */

interface Answer {
  status: number;
  retryAfter: number | null;
  body: { success?: boolean; message?: string; token?: string; data?: unknown };
}

interface SendOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  token?: string;
  address: string;
}

const ATTACK_SIZE = 30;
/** The owner honours at most this many 429s; the documented worst case is one. */
const MAX_PATIENT_TRIES = 3;

/** A client address no earlier run is likely to have used: a random one in 10.0.0.0/8. */
function randomAddress(): string {
  return `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
}

async function send(baseUrl: string, path: string, options: SendOptions): Promise<Answer> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: options.method ?? 'GET',
    headers: {
      'x-forwarded-for': options.address,
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  let body: Answer['body'] = {};
  try {
    body = text ? (JSON.parse(text) as Answer['body']) : {};
  } catch {
    body = { message: text.slice(0, 200) };
  }
  const retryAfter = response.headers.get('retry-after');
  return { status: response.status, retryAfter: retryAfter === null ? null : Number(retryAfter), body };
}

function login(context: AcceptanceContext, UserName: string, Password: string, address: string) {
  return send(context.baseUrl, '/api/users/login', {
    method: 'POST',
    body: { UserName, Password },
    address,
  });
}

/** Signs in as a person would: after a 429, waits as long as Retry-After says and tries again. */
async function signInPatiently(
  context: AcceptanceContext,
  UserName: string,
  Password: string,
  address: string,
) {
  const waits: number[] = [];
  let answer = await login(context, UserName, Password, address);
  while (answer.status === 429 && waits.length < MAX_PATIENT_TRIES) {
    const wait = answer.retryAfter ?? 1;
    waits.push(wait);
    if (wait > ACCOUNT_DELAY_CAP_SECONDS) break;
    await sleep(wait * 1000);
    answer = await login(context, UserName, Password, address);
  }
  return { answer, waits };
}

async function adminToken(context: AcceptanceContext, address: string): Promise<string> {
  const { answer } = await signInPatiently(context, context.admin.username, context.admin.password, address);
  if (answer.status !== 200 || !answer.body.token) {
    throw new Error(`the admin could not sign in: ${answer.status} ${answer.body.message ?? ''}`);
  }
  return answer.body.token;
}

async function parallelAttack(context: AcceptanceContext, attacker: string): Promise<CheckResult> {
  return check(`${ATTACK_SIZE} parallel wrong logins from one address`, async () => {
    const answers = await Promise.all(
      Array.from({ length: ATTACK_SIZE }, () =>
        login(context, context.admin.username, `wrong-${randomBytes(6).toString('hex')}`, attacker),
      ),
    );
    const unauthorized = answers.filter((answer) => answer.status === 401).length;
    const throttled = answers.filter((answer) => answer.status === 429);
    const withRetryAfter = throttled.filter((answer) => (answer.retryAfter ?? 0) > 0).length;
    const ok =
      unauthorized <= context.loginMaxFailures &&
      unauthorized + throttled.length === ATTACK_SIZE &&
      withRetryAfter === throttled.length;
    return {
      ok,
      detail:
        `${unauthorized} × 401 (at most ${context.loginMaxFailures} allowed), ${throttled.length} × 429 ` +
        `(${withRetryAfter} with Retry-After), other: ${ATTACK_SIZE - unauthorized - throttled.length}`,
    };
  });
}

async function ownerAfterAttack(context: AcceptanceContext, attacker: string): Promise<CheckResult> {
  return check('the real admin signs in from another address after the attack', async () => {
    const started = Date.now();
    const owner = randomAddress();
    const { answer, waits } = await signInPatiently(
      context,
      context.admin.username,
      context.admin.password,
      owner,
    );
    const stillLocked = await login(context, context.admin.username, context.admin.password, attacker);
    const ok = answer.status === 200 && waits.every((wait) => wait <= ACCOUNT_DELAY_CAP_SECONDS);
    return {
      ok,
      detail:
        `answered ${answer.status} after ${waits.length} × 429 (Retry-After ${waits.join(', ') || 'none'} s; ` +
        `at most ${ACCOUNT_DELAY_CAP_SECONDS} s each), ${((Date.now() - started) / 1000).toFixed(1)} s in all; ` +
        `the attacking address meanwhile answers ${stillLocked.status}`,
    };
  });
}

async function logoutRevokes(context: AcceptanceContext, address: string): Promise<CheckResult> {
  return check('logout ends the token at once, and only that token', async () => {
    const token = await adminToken(context, address);
    const other = await adminToken(context, address);
    const before = await send(context.baseUrl, '/api/users', { token, address });
    const logout = await send(context.baseUrl, '/api/users/logout', { method: 'POST', token, address });
    const after = await send(context.baseUrl, '/api/users', { token, address });
    const otherAfter = await send(context.baseUrl, '/api/users', { token: other, address });
    return {
      ok: before.status === 200 && logout.status === 200 && after.status === 401 && otherAfter.status === 200,
      detail:
        `before ${before.status}, logout ${logout.status}, the same token after ${after.status}, ` +
        `another session of the same admin ${otherAfter.status}`,
    };
  });
}

async function agentDateWindow(context: AcceptanceContext, address: string): Promise<CheckResult> {
  return check('an agent’s 3-day-old submission answers 403 while the admin’s succeeds', async () => {
    const token = await adminToken(context, address);
    const admin = (method: SendOptions['method'], path: string, body?: unknown) =>
      send(context.baseUrl, path, { method, token, address, body });
    const stamp = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;

    const site = await send(context.baseUrl, '/api/site', { address });
    const today = (site.body as { today?: string }).today;
    if (!today) throw new Error(`GET /api/site answered ${site.status} without today`);
    const ghadi = await admin('POST', '/api/ghadis', {
      NameEn: `Acceptance ${stamp}`,
      NameHn: `स्वीकृति ${stamp}`,
      RTime: '6:00 PM',
      OrderId: 900,
    });
    const agentPassword = `agent-${randomBytes(8).toString('hex')}`;
    const agent = await admin('POST', '/api/users', {
      UserName: `acceptance${stamp}`,
      DisplayName: `Acceptance ${stamp}`,
      Email: `acceptance${stamp}@example.com`,
      Password: agentPassword,
      isActive: true,
    });
    const gid = (ghadi.body.data as { GID?: number } | undefined)?.GID;
    const userId = (agent.body.data as { User_Id?: number } | undefined)?.User_Id;
    if (gid === undefined || userId === undefined) {
      throw new Error(`setup answered ghadi ${ghadi.status}, agent ${agent.status}`);
    }
    const assigned = await admin('POST', '/api/usermaps', { User_Id: userId, GID: gid });
    if (assigned.status !== 201) throw new Error(`assignment answered ${assigned.status}`);
    const agentToken = (await login(context, `acceptance${stamp}`, agentPassword, randomAddress())).body
      .token;
    if (!agentToken) throw new Error('the agent could not sign in');

    const submit = (bearer: string, dateTime: string) =>
      send(context.baseUrl, '/api/agent/my-ghadi/update-result', {
        method: 'POST',
        token: bearer,
        address,
        body: { ghadiId: gid, result: '42', dateTime },
      });
    const threeDaysAgo = addDays(today, -3);
    const agentOld = await submit(agentToken, threeDaysAgo);
    const adminOld = await submit(token, threeDaysAgo);
    // The agent may still declare yesterday's result: the 403 is the date rule, not a broken setup.
    const agentYesterday = await submit(agentToken, addDays(today, -1));
    return {
      ok: agentOld.status === 403 && adminOld.status === 200 && agentYesterday.status === 200,
      detail:
        `${threeDaysAgo}: agent ${agentOld.status} ("${agentOld.body.message ?? ''}"), admin ${adminOld.status}; ` +
        `agent for yesterday ${agentYesterday.status}`,
    };
  });
}

export const authChecks: AcceptanceChecks = async (context) => {
  const attacker = randomAddress();
  const results: CheckResult[] = [];
  results.push(await parallelAttack(context, attacker));
  results.push(await ownerAfterAttack(context, attacker));
  const adminAddress = randomAddress();
  results.push(await logoutRevokes(context, adminAddress));
  results.push(await agentDateWindow(context, adminAddress));
  return results;
};
