/**
 * The reach group's site (reach-checks.ts): the built server on a fresh SQLite file with PUBLIC_URL,
 * an admin declaring and correcting through the API, visitors each from an address of their own, and
 * a restart on the same database and port. What else it needs (a push service's CA, a Telegram
 * stand-in) comes in `env`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { addressSource, send, signIn } from '../lib/client.js';
import { SEED_ADMIN } from '../lib/seed.js';
import { freePort, type ServerProcess, startServer } from '../lib/server-process.js';
import { jsonOf, type TimedAnswer } from '../lib/timed-request.js';
import { siteEnv } from './site-env.js';
import type { CheckSettings } from './types.js';

export interface ReachGhadi {
  GID: number;
  NameEn: string;
  NameHn: string;
  RTime: string;
  Kind: string;
  OpenTime: string | null;
  Days: number[];
  OrderId: number;
}

/** An entry of GET /api/declarations. */
export interface LogEntry {
  seq: number;
  GID: number;
  Date: string;
  Result: string;
  Previous: string | null;
  DeclaredAt: string;
  hash: string;
}

export interface ReachSite {
  url: string;
  port: number;
  today: string;
  /** A visitor's request, from an address of its own. */
  get(pathname: string, headers?: Record<string, string>): Promise<TimedAnswer>;
  /** A visitor's JSON call (the push subscription routes are public), from `address` or a new one. */
  call(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    pathname: string,
    json?: unknown,
    address?: string,
  ): Promise<{ status: number; body: Record<string, unknown>; headers: TimedAnswer['headers'] }>;
  createGhadi(ghadi: Omit<ReachGhadi, 'GID'>): Promise<ReachGhadi>;
  /** An admin's declaration (or correction: the same call again) of a ghadi's value on a date. */
  declare(gid: number, value: string, date: string): Promise<void>;
  /** Every log entry of one ghadi, oldest first. */
  log(gid: number): Promise<LogEntry[]>;
  /**
   * Stops the server (SIGTERM, as a deploy does) and starts it again on the same database and port,
   * with `env` over the first start's.
   */
  restart(env?: NodeJS.ProcessEnv): Promise<void>;
  /** A counter or gauge of GET /metrics (summed over its labels that match `labels`), or 0. */
  metric(name: string, labels?: string): Promise<number>;
  output(): string;
  stop(): Promise<void>;
}

export async function startReachSite(
  settings: CheckSettings,
  env: NodeJS.ProcessEnv = {},
): Promise<ReachSite> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ghadi-reach-'));
  const port = await freePort();
  const metricsToken = 'reach-acceptance-metrics-token';
  const start = (more: NodeJS.ProcessEnv = {}) =>
    startServer({
      port,
      env: {
        ...siteEnv(settings, `sqlite:${path.join(dir, 'site.db')}`, port),
        METRICS_TOKEN: metricsToken,
        ...env,
        ...more,
      },
    });
  let server: ServerProcess = await start();
  const url = server.url;
  const nextAddress = addressSource();
  const token = await signIn(url, SEED_ADMIN, nextAddress());
  const call: ReachSite['call'] = async (method, pathname, json, address) => {
    const answer = await send(url, pathname, {
      method,
      address: address ?? nextAddress(),
      token: pathname.startsWith('/api/push/') ? undefined : token,
      ...(json === undefined ? {} : { json }),
    });
    return { status: answer.status, body: jsonOf(answer, `${method} ${pathname}`), headers: answer.headers };
  };
  const site = await call('GET', '/api/site');
  const today = String(site.body.today);
  return {
    url,
    port,
    today,
    get: (pathname, headers = {}) => send(url, pathname, { address: nextAddress(), headers }),
    call,
    async createGhadi(ghadi) {
      const made = await call('POST', '/api/ghadis', ghadi);
      if (made.status !== 201)
        throw new Error(`creating ${ghadi.NameEn} answered ${made.status}: ${made.body.message}`);
      return made.body.data as ReachGhadi;
    },
    async declare(gid, value, date) {
      const made = await call('POST', '/api/agent/my-ghadi/update-result', {
        ghadiId: gid,
        result: value,
        dateTime: date,
      });
      if (made.status >= 300)
        throw new Error(`declaring ${gid} ${date} answered ${made.status}: ${made.body.message}`);
    },
    async log(gid) {
      const entries: LogEntry[] = [];
      for (let after = 0; ; ) {
        const page = await call('GET', `/api/declarations?after=${after}&limit=100`);
        const data = page.body.data as LogEntry[];
        entries.push(...data.filter((entry) => entry.GID === gid));
        if (data.length < 100) return entries;
        after = data.at(-1)?.seq ?? after;
      }
    },
    async restart(more) {
      await server.stop();
      server = await start(more);
    },
    async metric(name, labels = '') {
      const answer = await send(url, '/metrics', {
        address: nextAddress(),
        headers: { authorization: `Bearer ${metricsToken}` },
      });
      let sum = 0;
      for (const line of answer.body.toString('utf8').split('\n')) {
        const match = /^(\w+)(\{[^}]*\})? (\S+)$/.exec(line);
        if (match?.[1] === name && (match[2] ?? '').includes(labels)) sum += Number(match[3]);
      }
      return sum;
    },
    output: () => server.output(),
    async stop() {
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
