/**
 * The hardening group's address findings (hardening-checks.ts). The site runs behind "its proxy" at
 * 127.0.0.1 (TRUST_PROXY=127.0.0.1): every request here comes from 127.0.0.1 with an X-Forwarded-For
 * of "SPOOFED, REAL", as a proxy that appends the address it saw leaves it when the client wrote the
 * first entry itself. The server must count REAL, whatever SPOOFED says:
 * - the login throttle: LOGIN_MAX_FAILURES failures with a new SPOOFED each lock REAL (the next
 *   attempt, even with the right password, is the pair's 429, not the account's short slow-down),
 *   while the same account still signs in from another address;
 * - the live stream cap: 20 streams per address, the 21st is 429 (another address still gets one);
 * - the visitor limit: past VISITOR_NEW_SESSIONS_PER_MINUTE new sessions, REAL's count stops growing;
 * - X-Forwarded-Host: evil.example never shows in /robots.txt, /sitemap.xml or /feed.xml (no PUBLIC_URL).
 * And TRUST_PROXY=true stops the start with a message.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { signIn } from '../lib/client.js';
import { freePort, type ServerProcess } from '../lib/server-process.js';
import { jsonOf, timedRequest } from '../lib/timed-request.js';
import { check } from './check.js';
import { openStream } from './hardening-probes.js';
import type { CheckResult } from './types.js';

const STREAMS_PER_ADDRESS = 20;
const VISITOR_SESSIONS_SENT = 150;
const VISITOR_CONTROL = 10;

export interface AddressContext {
  site: ServerProcess;
  /** An account of the site (not the admin: the throttle leaves it slowed down), its right password. */
  account: { username: string; password: string };
  loginMaxFailures: number;
  visitorSessionsPerMinute: number;
}

const spoofed = (index: number) => `203.0.113.${(index % 250) + 1}`;
const tally = (statuses: number[]) => {
  const counts = new Map<number, number>();
  for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1);
  return [...counts].map(([status, times]) => `${times}×${status}`).join(' ');
};

async function loginThrottleCheck({ site, account, loginMaxFailures }: AddressContext): Promise<CheckResult> {
  return check(
    `login throttle: ${loginMaxFailures} failures with a new spoofed X-Forwarded-For each lock the real address`,
    async () => {
      const real = '198.51.100.23';
      const login = (password: string, index: number) =>
        timedRequest(`${site.url}/api/users/login`, {
          method: 'POST',
          headers: { 'x-forwarded-for': `${spoofed(index)}, ${real}` },
          json: { UserName: account.username, Password: password },
        });
      const failures: number[] = [];
      for (let index = 0; index < loginMaxFailures; index++) {
        failures.push((await login(`wrong-${index}`, index)).status);
      }
      const next = await login(account.password, loginMaxFailures);
      const message = String(jsonOf<{ message?: string }>(next, 'login').message ?? '');
      const retryAfter = Number(next.headers['retry-after'] ?? 0);
      // The pair's lock lasts the 15-minute window; the account's slow-down (what counting every
      // spoofed value as a new address would give) is a few seconds and says so.
      const pairLock = next.status === 429 && retryAfter > 60 && !/this account/i.test(message);
      let elsewhere: string;
      try {
        await signIn(site.url, account, '198.51.100.24');
        elsewhere = 'signs in';
      } catch (error) {
        elsewhere = `FAILS: ${(error as Error).message}`;
      }
      return {
        ok: failures.every((status) => status === 401) && pairLock && elsewhere === 'signs in',
        detail:
          `${account.username} from ${real} behind ${loginMaxFailures} spoofed values: ${tally(failures)}; ` +
          `next attempt (right password, new spoofed value) ${next.status}, Retry-After ${retryAfter} s, "${message}"; ` +
          `the account from another address ${elsewhere}`,
      };
    },
  );
}

async function streamCapCheck({ site }: AddressContext): Promise<CheckResult> {
  return check(
    'live streams: 20 per real address whatever the spoofed X-Forwarded-For; the 21st is 429',
    async () => {
      const real = '198.51.100.31';
      const open: Array<Awaited<ReturnType<typeof openStream>>> = [];
      try {
        const statuses: number[] = [];
        for (let index = 0; index < STREAMS_PER_ADDRESS; index++) {
          const stream = await openStream(`${site.url}/api/events`, {
            headers: { 'x-forwarded-for': `${spoofed(index)}, ${real}` },
          });
          open.push(stream);
          statuses.push(stream.status);
        }
        const extra = await openStream(`${site.url}/api/events`, {
          headers: { 'x-forwarded-for': `${spoofed(99)}, ${real}` },
        });
        open.push(extra);
        const other = await openStream(`${site.url}/api/events`, {
          headers: { 'x-forwarded-for': `${spoofed(100)}, 198.51.100.32` },
        });
        open.push(other);
        return {
          ok: statuses.every((status) => status === 200) && extra.status === 429 && other.status === 200,
          detail:
            `${STREAMS_PER_ADDRESS} streams from ${real} behind spoofed values: ${tally(statuses)}; ` +
            `the 21st (a new spoofed value) ${extra.status}${extra.response.headers['retry-after'] ? `, Retry-After ${extra.response.headers['retry-after']}` : ''}; ` +
            `a stream from another real address ${other.status}`,
        };
      } finally {
        for (const stream of open) stream.request.destroy();
      }
    },
  );
}

async function visitorTotal(site: ServerProcess): Promise<number> {
  const answer = await timedRequest(`${site.url}/api/visitor/stats`, {
    headers: { 'x-forwarded-for': '10.80.1.1' },
  });
  return jsonOf<{ totalUsers: number }>(answer, 'GET /api/visitor/stats').totalUsers;
}

/** The total once it has held still for two flushes (5 s; at most 25 s of polling). */
async function settledTotal(site: ServerProcess): Promise<{ total: number; waitedMs: number }> {
  const started = Date.now();
  let total = await visitorTotal(site);
  let sameSince = Date.now();
  while (Date.now() - sameSince < 5000 && Date.now() - started < 25_000) {
    await sleep(500);
    const now = await visitorTotal(site);
    if (now !== total) {
      total = now;
      sameSince = Date.now();
    }
  }
  return { total, waitedMs: Date.now() - started };
}

async function visitorLimitCheck(context: AddressContext): Promise<CheckResult> {
  const { site, visitorSessionsPerMinute: limit } = context;
  return check(
    `visitors: past ${limit} new sessions a minute from the real address the count stops growing`,
    async () => {
      const real = '198.51.100.41';
      const run = randomBytes(4).toString('hex');
      const track = (session: string, forwardedFor: string) =>
        timedRequest(`${site.url}/api/visitor/track`, {
          method: 'POST',
          headers: { 'x-session-id': session, 'x-forwarded-for': forwardedFor },
        });
      const before = await settledTotal(site);
      // All within one clock minute (the server's minute may start up to one 2-s flush late).
      const second = Date.now() % 60_000;
      if (second > 45_000 || second < 4000) await sleep((64_000 - second) % 60_000);
      const statuses: number[] = [];
      for (let index = 0; index < VISITOR_SESSIONS_SENT; index++) {
        statuses.push((await track(`hardening-${run}-${index}`, `${spoofed(index)}, ${real}`)).status);
      }
      const after = await settledTotal(site);
      for (let index = 0; index < VISITOR_CONTROL; index++) {
        await track(`hardening-${run}-control-${index}`, `${spoofed(index)}, 198.51.100.${60 + index}`);
      }
      const control = await settledTotal(site);
      const counted = after.total - before.total;
      const others = control.total - after.total;
      return {
        ok:
          statuses.every((status) => status === 200) &&
          counted >= 1 &&
          counted <= limit &&
          others === VISITOR_CONTROL,
        detail:
          `${VISITOR_SESSIONS_SENT} new sessions from ${real} behind spoofed values (${tally(statuses)}): ` +
          `totalUsers ${before.total} → ${after.total} (+${counted}, limit ${limit}; settled after ${(after.waitedMs / 1000).toFixed(1)} s); ` +
          `${VISITOR_CONTROL} sessions from ${VISITOR_CONTROL} other real addresses: +${others}`,
      };
    },
  );
}

async function forwardedHostCheck({ site }: AddressContext): Promise<CheckResult> {
  return check(
    'X-Forwarded-Host: evil.example never appears in /robots.txt, /sitemap.xml, /feed.xml',
    async () => {
      const findings: string[] = [];
      let ok = true;
      for (const [index, address] of ['/robots.txt', '/sitemap.xml', '/feed.xml'].entries()) {
        const answer = await timedRequest(`${site.url}${address}`, {
          headers: {
            'x-forwarded-host': 'evil.example',
            'x-forwarded-proto': 'https',
            'x-forwarded-for': `${spoofed(index)}, 10.80.2.${index + 1}`,
          },
        });
        const body = answer.body.toString('utf8');
        const evil = body.includes('evil.example') || JSON.stringify(answer.headers).includes('evil.example');
        // The origins the answer links to, XML namespaces left out.
        const origins = new Set(
          [...body.matchAll(/https?:\/\/[^/<>\s"]+/g)]
            .map((match) => match[0])
            .filter((origin) => !/sitemaps\.org|w3\.org/.test(origin)),
        );
        ok &&= answer.status === 200 && !evil;
        findings.push(
          `${address} ${answer.status} (${answer.body.length} B), names ${[...origins].join(' ') || 'no origin'}, evil.example: ${evil}`,
        );
      }
      return { ok, detail: findings.join('; ') };
    },
  );
}

export async function addressChecks(context: AddressContext): Promise<CheckResult[]> {
  return [
    await loginThrottleCheck(context),
    await streamCapCheck(context),
    await visitorLimitCheck(context),
    await forwardedHostCheck(context),
  ];
}

/** TRUST_PROXY=true must stop the start: a non-zero exit and a message on stderr naming the variable. */
export async function trustEveryoneCheck(env: Record<string, string>): Promise<CheckResult> {
  return check('TRUST_PROXY=true stops the start with a message', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ghadi-hardening-trust-'));
    try {
      const port = await freePort();
      const child = spawn(process.execPath, ['dist/server/server.js'], {
        env: {
          ...process.env,
          ...env,
          TRUST_PROXY: 'true',
          PORT: String(port),
          HOST: '127.0.0.1',
          DATABASE_URL: `sqlite:${path.join(dir, 'site.db')}`,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      let stdout = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      const started = Date.now();
      const exit = await Promise.race([
        new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code))),
        sleep(20_000).then(() => 'running' as const),
      ]);
      if (exit === 'running') child.kill('SIGTERM');
      const line = stderr.trim().split('\n').slice(0, 3).join(' / ');
      return {
        ok: exit !== 'running' && exit !== 0 && exit !== null && /TRUST_PROXY/.test(stderr),
        detail:
          exit === 'running'
            ? `STILL RUNNING after 20 s (stopped); stdout "${stdout.slice(0, 200)}"`
            : `exit code ${exit} after ${Date.now() - started} ms; stderr: "${line.slice(0, 400)}"; database file made: ${fs.existsSync(path.join(dir, 'site.db'))}`,
      };
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
}
