/**
 * The matka group's site (matka-checks.ts): a server of its own on a fresh SQLite file, an admin and
 * two agents, and the calls the checks make as those people, each from an address of its own.
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

export interface Ghadi {
  GID: number;
  NameEn: string;
  NameHn: string;
  RTime: string;
  Kind: string;
  OpenTime: string | null;
  Days: number[];
  Closed: string | null;
  Confirmations: 1 | 2;
  TodayResult: string;
}

export interface Entry {
  seq: number;
  GID: number;
  Date: string;
  Result: string;
  Previous: string | null;
  DeclaredAt: string;
  prevHash: string;
  hash: string;
  Step: 'open' | 'close' | null;
}

export interface Answer<T = unknown> {
  status: number;
  body: { success?: boolean; message?: string; data?: T } & Record<string, unknown>;
}

export interface MatkaSite {
  url: string;
  server: ServerProcess;
  today: string;
  admin: string;
  agents: string[];
  /** Any call, as the token's holder (none: a visitor). */
  call<T = unknown>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    pathname: string,
    token?: string,
    json?: unknown,
  ): Promise<Answer<T>>;
  /** A visitor's GET, the raw answer (pages). */
  get(pathname: string): Promise<TimedAnswer>;
  /** POST /api/agent/my-ghadi/update-result. */
  submit(
    token: string,
    gid: number,
    result: string,
    date: string,
  ): Promise<Answer<{ Result: string; Corrected: boolean; Previous: string | null }>>;
  importCsv(text: string): Promise<Answer>;
  createGhadi(fields: Record<string, unknown>): Promise<Ghadi>;
  /** The whole declaration log, in seq order. */
  log(): Promise<Entry[]>;
  stop(): Promise<void>;
}

export async function startMatkaSite(settings: CheckSettings): Promise<MatkaSite> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ghadi-matka-'));
  const port = await freePort();
  const server = await startServer({
    port,
    env: {
      ...siteEnv(settings, `sqlite:${path.join(dir, 'site.db')}`, port),
    },
  });
  const url = server.url;
  const nextAddress = addressSource();
  const call: MatkaSite['call'] = async (method, pathname, token, json) => {
    const answer = await send(url, pathname, {
      method,
      address: nextAddress(),
      ...(token ? { token } : {}),
      ...(json === undefined ? {} : { json }),
    });
    return { status: answer.status, body: jsonOf(answer, `${method} ${pathname}`) };
  };
  const admin = await signIn(url, SEED_ADMIN, nextAddress());
  const today = jsonOf<{ today: string }>(
    await send(url, '/api/site', { address: nextAddress() }),
    'site',
  ).today;
  const agents: string[] = [];
  for (const index of [1, 2]) {
    const credentials = { username: `matka.agent${index}`, password: `matka-agent-${index}-password` };
    const created = await call('POST', '/api/users', admin, {
      UserName: credentials.username,
      DisplayName: `Matka Agent ${index}`,
      Email: `${credentials.username}@example.com`,
      Password: credentials.password,
    });
    if (created.status !== 201) throw new Error(`agent ${index}: ${created.status} ${created.body.message}`);
    agents.push(await signIn(url, credentials, nextAddress()));
  }
  const site: MatkaSite = {
    url,
    server,
    today,
    admin,
    agents,
    call,
    get: (pathname) => send(url, pathname, { address: nextAddress() }),
    submit: (token, gid, result, date) =>
      call('POST', '/api/agent/my-ghadi/update-result', token, { ghadiId: gid, result, dateTime: date }),
    importCsv: async (text) => {
      const answer = await send(url, '/api/results/import?dryRun=false', {
        method: 'POST',
        address: nextAddress(),
        token: admin,
        raw: { type: 'text/csv', data: Buffer.from(text) },
      });
      return { status: answer.status, body: jsonOf(answer, 'import') };
    },
    createGhadi: async (fields) => {
      const answer = await call<Ghadi>('POST', '/api/ghadis', admin, fields);
      if (answer.status !== 201 || !answer.body.data)
        throw new Error(`POST /api/ghadis: ${answer.status} ${answer.body.message}`);
      return answer.body.data;
    },
    log: async () => {
      const entries: Entry[] = [];
      for (let after = 0; ; ) {
        const page = await call<Entry[]>('GET', `/api/declarations?after=${after}&limit=1000`);
        const data = page.body.data ?? [];
        if (data.length === 0) return entries;
        entries.push(...data);
        after = data.at(-1)?.seq ?? after;
      }
    },
    stop: async () => {
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return site;
}

/** Assigns ghadis to an agent (by the agent's place in `site.agents`). */
export async function assign(site: MatkaSite, agent: number, gids: number[]): Promise<void> {
  const users = await site.call<Array<{ UserName: string; User_Id: number }>>(
    'GET',
    '/api/users',
    site.admin,
  );
  const user = users.body.data?.find((row) => row.UserName === `matka.agent${agent + 1}`);
  if (!user) throw new Error(`no matka.agent${agent + 1}`);
  const answer = await site.call('POST', '/api/usermaps', site.admin, { User_Id: user.User_Id, GID: gids });
  if (answer.status !== 201) throw new Error(`assign: ${answer.status} ${answer.body.message}`);
}

/** The checker's own panna rule (not the site's code): digits rising in the order 1 … 9 0. */
export function isPannaByHand(text: string): boolean {
  const order = '1234567890';
  const [a, b, c] = [...text].map((digit) => order.indexOf(digit));
  return /^\d{3}$/.test(text) && (a as number) <= (b as number) && (b as number) <= (c as number);
}

export const ankByHand = (panna: string) => [...panna].reduce((sum, digit) => sum + Number(digit), 0) % 10;

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

export const weekdayOf = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();
