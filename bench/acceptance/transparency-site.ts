/**
 * The transparency group's site (transparency-checks.ts): the built server on a fresh SQLite file or
 * PostgreSQL database, an admin declaring through the API, a visitor's reads (each from an address of
 * its own), the checker's own SQL on the database behind the site's back, and a restart on the same
 * database, port and LOG_ORIGIN (one log to a monitor).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { addressSource, send, signIn } from '../lib/client.js';
import type { ChainedEntry } from '../lib/declaration-chain.js';
import { createTemporaryDatabase, type TemporaryDatabase } from '../lib/postgres.js';
import { SEED_ADMIN } from '../lib/seed.js';
import { freePort, type ServerProcess, startServer } from '../lib/server-process.js';
import { jsonOf, type TimedAnswer } from '../lib/timed-request.js';
import type { CheckSettings } from './types.js';

/** An entry as GET /api/declarations answers it. */
export type Entry = ChainedEntry;

/** A statement and its parameters. */
export type Statement = [text: string, parameters?: unknown[]];

export interface TransparencySite {
  /** 'SQLite' or 'PostgreSQL', for the checks' names. */
  label: string;
  url: string;
  today: string;
  /** Every entry, read page by page (limit 100, as a reader walks the log). */
  log(): Promise<Entry[]>;
  get(pathname: string): Promise<TimedAnswer>;
  text(pathname: string): Promise<string>;
  json<T>(pathname: string): Promise<{ status: number; body: T }>;
  createGhadi(name: string): Promise<number>;
  /** An admin's declaration or correction of a ghadi's value on a date. */
  declare(gid: number, value: string, date: string): Promise<void>;
  /** The checker's own SQL, in one transaction, `?` for each parameter, on either database. */
  sql(statements: Statement[]): Promise<void>;
  /** The server's latest output, for a failure's report. */
  output(): string;
  /** Runs `work` with the server stopped, then starts it again on the same database and port. */
  whileStopped(work: () => Promise<void>): Promise<void>;
  stop(): Promise<void>;
}

/** The origin both starts sign under, so a restart is the same log to a monitor. */
export const LOG_ORIGIN = 'acceptance.example/transparency';

export async function startTransparencySite(
  kind: 'sqlite' | 'postgres',
  settings: CheckSettings,
): Promise<TransparencySite> {
  let dir: string | undefined;
  let database: TemporaryDatabase | undefined;
  let databaseUrl: string;
  if (kind === 'sqlite') {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ghadi-transparency-'));
    databaseUrl = `sqlite:${path.join(dir, 'site.db')}`;
  } else {
    database = await createTemporaryDatabase('accept_transparency');
    databaseUrl = database.url;
  }
  const port = await freePort();
  const start = () =>
    startServer({
      port,
      env: {
        DATABASE_URL: databaseUrl,
        ADMIN_USERNAME: SEED_ADMIN.username,
        ADMIN_PASSWORD: SEED_ADMIN.password,
        SITE_TIMEZONE: settings.siteTimezone,
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        LOG_ORIGIN,
        TRUST_PROXY: 'loopback',
        LOG_LEVEL: 'warn',
        NODE_ENV: 'production',
      },
    });
  let server: ServerProcess;
  try {
    server = await start();
  } catch (error) {
    await database?.drop();
    throw error;
  }
  const url = server.url;
  const nextAddress = addressSource();
  const get = (pathname: string) => send(url, pathname, { address: nextAddress() });
  const admin = await signIn(url, SEED_ADMIN, nextAddress());
  const post = async <T>(pathname: string, json: unknown) => {
    const answer = await send(url, pathname, { method: 'POST', address: nextAddress(), token: admin, json });
    const body = jsonOf<{ data?: T; message?: string }>(answer, `POST ${pathname}`);
    if (answer.status >= 300) throw new Error(`POST ${pathname} answered ${answer.status}: ${body.message}`);
    return body.data as T;
  };
  const json = async <T>(pathname: string) => {
    const answer = await get(pathname);
    return { status: answer.status, body: jsonOf<T>(answer, `GET ${pathname}`) };
  };
  const today = (await json<{ today: string }>('/api/site')).body.today;

  const sql = async (statements: Statement[]) => {
    if (dir) {
      const db = new Sqlite(path.join(dir, 'site.db'));
      try {
        db.pragma('busy_timeout = 5000');
        db.transaction(() => {
          for (const [text, parameters = []] of statements) db.prepare(text).run(...parameters);
        })();
      } finally {
        db.close();
      }
      return;
    }
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query('begin');
      for (const [text, parameters = []] of statements) {
        let n = 0;
        await client.query(
          text.replace(/\?/g, () => `$${++n}`),
          parameters,
        );
      }
      await client.query('commit');
    } finally {
      await client.end();
    }
  };

  return {
    label: kind === 'sqlite' ? 'SQLite' : 'PostgreSQL',
    url,
    today,
    get,
    text: async (pathname) => {
      const answer = await get(pathname);
      if (answer.status !== 200) throw new Error(`GET ${pathname} answered ${answer.status}`);
      return answer.body.toString('utf8');
    },
    json,
    log: async () => {
      const entries: Entry[] = [];
      for (let after = 0; ; after += 100) {
        const page = await json<{ data: Entry[] }>(`/api/declarations?after=${after}&limit=100`);
        if (page.status !== 200)
          throw new Error(`GET /api/declarations?after=${after} answered ${page.status}`);
        entries.push(...page.body.data);
        if (page.body.data.length < 100) return entries;
      }
    },
    createGhadi: async (name) =>
      (
        await post<{ GID: number }>('/api/ghadis', {
          NameEn: name,
          NameHn: `${name} हिंदी`,
          RTime: '11:55 PM',
          OrderId: 1,
        })
      ).GID,
    declare: async (gid, value, date) => {
      await post('/api/agent/my-ghadi/update-result', { ghadiId: gid, result: value, dateTime: date });
    },
    sql,
    output: () => server.output(),
    whileStopped: async (work) => {
      await server.stop();
      await work();
      server = await start();
    },
    stop: async () => {
      await server.stop();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
      await database?.drop();
    },
  };
}
