import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { type KyselyPlugin, sql } from 'kysely';
import { type Database, openDatabase } from '../../src/server/db/database.js';
import { TABLE_ORDER, tableSpec } from '../../src/server/modules/backup/dump-tables.js';
import {
  assignGhadis,
  call,
  createAgentWithToken,
  createContentBlock,
  createGhadi,
  daysFromToday,
  expectStatus,
  login,
  loginAdmin,
  postResult,
  submitResult,
  today,
  unique,
} from './factories.js';
import { solidImage, uploadImage } from './media-uploads.js';
import { addLocalPasskey } from './software-authenticator.js';
import type { TestApp } from './test-app.js';
import { enableTwoFactor } from './totp-codes.js';

/** Helpers of tests/integration/backup.test.ts: db:export files, databases to fill and compare, the CLI. */

export type Row = Record<string, unknown>;
export interface DumpFile {
  header: { migrations: string[]; dialect: string; format: string };
  /** Rows per table, in code-point order of their keys (PostgreSQL may order text keys otherwise). */
  rows: Record<string, Row[]>;
  counts: Record<string, number>;
}

export function readDump(file: string): DumpFile {
  const lines = zlib.gunzipSync(fs.readFileSync(file)).toString('utf8').trimEnd().split('\n');
  const parsed = lines.map((line) => JSON.parse(line));
  const rows: Record<string, Row[]> = Object.fromEntries(TABLE_ORDER.map((table) => [table, []]));
  for (const line of parsed.slice(1, -1)) rows[line.table]?.push(line.row);
  for (const table of TABLE_ORDER) rows[table]?.sort(byKey(tableSpec(table).key));
  return { header: parsed[0], rows, counts: parsed[parsed.length - 1].counts };
}

const byKey = (key: string) => (a: Row, b: Row) => {
  const [x, y] = [a[key], b[key]];
  return typeof x === 'number' && typeof y === 'number' ? x - y : String(x) < String(y) ? -1 : 1;
};

/** A second handle on the app's database, as db:export in another process would open it. */
export function openAgain(t: TestApp): Database {
  return openDatabase(t.config.database, t.database.pgSchema ? { pgSchema: t.database.pgSchema } : {});
}

export async function rowCounts(database: Database): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of TABLE_ORDER) {
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(
      database.db,
    );
    counts[table] = Number(rows[0]?.n);
  }
  return counts;
}

/**
 * The database, whose first query answer holding a ghadi waits for `write` (through the site, on
 * another connection): the export has begun, and has the rest of the ghadis and the change log to read.
 */
export function writingMidway(database: Database, write: () => Promise<unknown>): Database {
  let written = false;
  const plugin: KyselyPlugin = {
    transformQuery: (args) => args.node,
    async transformResult(args) {
      if (!written && args.result.rows.some((row) => typeof row === 'object' && row && 'name_en' in row)) {
        written = true;
        await write();
      }
      return args.result;
    },
  };
  return { ...database, db: database.db.withPlugin(plugin) };
}

/** Something in every table: a corrected result (history), an assignment, a visit, a logout. */
export async function populate({ app, database }: TestApp): Promise<void> {
  const admin = await loginAdmin(app);
  const ghadi = await createGhadi(app, admin);
  const agent = await createAgentWithToken(app, admin);
  await assignGhadis(app, admin, agent.user.User_Id, ghadi.GID);
  await submitResult(app, agent.token, { ghadiId: ghadi.GID, result: '07', dateTime: today() });
  await submitResult(app, agent.token, { ghadiId: ghadi.GID, result: '42', dateTime: today() });
  // With an Idempotency-Key: its row is one a dump must leave out.
  expectStatus(
    await call(app, {
      method: 'POST',
      url: '/api/agent/my-ghadi/update-result',
      token: admin,
      headers: { 'idempotency-key': unique('key-') },
      body: { ghadiId: ghadi.GID, result: '5', dateTime: daysFromToday(-3) },
    }),
    200,
  );
  await createContentBlock(app, admin);
  // An image of the media library: its copies' bytes are a dump's only binary column.
  await uploadImage(app, admin, await solidImage(400, 200, 'png'));
  expectStatus(
    await call(app, {
      method: 'POST',
      url: '/api/holidays',
      token: admin,
      body: { Date: daysFromToday(10), GID: ghadi.GID, Note: 'Diwali' },
    }),
    201,
  );
  // An entry held for a second person's confirmation.
  const twoPerson = await createGhadi(app, admin, { Confirmations: 2 });
  await assignGhadis(app, admin, agent.user.User_Id, twoPerson.GID);
  expectStatus(
    await postResult(app, agent.token, { ghadiId: twoPerson.GID, result: '19', dateTime: today() }),
    202,
  );
  // Two-factor on for the agent: its secret and its backup codes' hashes are rows a dump carries.
  await enableTwoFactor(app, agent.token, Date.now());
  // A passkey (carried), and a sign-in's challenge never answered (not carried).
  await addLocalPasskey(app, agent.token);
  await call(app, {
    method: 'POST',
    url: '/api/users/login/passkey/options',
    headers: { host: 'localhost:3000' },
  });
  await call(app, { method: 'POST', url: '/api/users/logout', token: agent.token });
  await login(app, agent.user.UserName, 'wrong-password');
  await call(app, { method: 'POST', url: '/api/visitor/track', headers: { 'x-session-id': unique('s') } });
  const deadline = Date.now() + 3000;
  while ((await rowCounts(database)).visitors === 0) {
    if (Date.now() > deadline) throw new Error('The visit was not written');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** What an operator compares after a restore. */
export async function answers(app: FastifyInstance): Promise<unknown[]> {
  const token = await loginAdmin(app);
  const urls = ['/api/ghadis', '/api/results', '/api/users', '/api/pending'];
  return Promise.all(urls.map(async (url) => expectStatus(await call(app, { url, token }), 200)));
}

const run = promisify(execFile);

/**
 * The command an npm script runs (package.json, e.g. `db:export`: "tsx src/server/cli/db-tools.ts
 * export"), as node with tsx's loader, so that the test runs what the README's `npm run` runs without
 * npm itself, whose own warnings (a user's .npmrc) would land in the CLI's stderr.
 */
function npmScript(name: string): string[] {
  const packageJson = JSON.parse(fs.readFileSync('package.json', 'utf8')) as {
    scripts: Record<string, string>;
  };
  const [runner, ...args] = (packageJson.scripts[name] ?? '').split(' ');
  if (runner !== 'tsx') throw new Error(`npm script ${name} does not run tsx: ${packageJson.scripts[name]}`);
  return ['--import', 'tsx', ...args];
}

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/** `npm run db:COMMAND -- ARGS`, in a process of its own on a SQLite file. */
export function cli([command = '', ...args]: string[], databaseFile: string): Promise<CliRun> {
  return npmRun(`db:${command}`, args, { DATABASE_URL: `sqlite:${databaseFile}` });
}

/**
 * `npm run SCRIPT -- ARGS` in a process of its own, with this environment and `env` (JWT_SECRET only
 * when `env` sets it, so that a developer's own cannot change what is tested).
 */
export async function npmRun(script: string, args: string[], env: Record<string, string>): Promise<CliRun> {
  const environment = { ...process.env, JWT_SECRET: undefined, ...env };
  try {
    const { stdout, stderr } = await run(process.execPath, [...npmScript(script), ...args], {
      env: environment,
    });
    return { code: 0, out: stdout, err: stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: failed.stdout, err: failed.stderr };
  }
}

/** DATABASE_URL naming the test app's database, its PostgreSQL schema included, for a CLI process. */
export function databaseUrl({ config, database }: TestApp): string {
  const target = config.database;
  if (target.kind === 'sqlite') return `sqlite:${target.file}`;
  const url = new URL(target.url);
  if (database.pgSchema) url.searchParams.set('options', `-c search_path=${database.pgSchema}`);
  return url.toString();
}

/** Ways a dump goes wrong, from a good one: what each is, the file's bytes, the refusal it must get. */
export function damagedDumps(dumpFile: string): Array<[string, Buffer, RegExp]> {
  const lines = zlib.gunzipSync(fs.readFileSync(dumpFile)).toString('utf8').trimEnd().split('\n');
  const gzip = (list: string[]) => zlib.gzipSync(`${list.join('\n')}\n`);
  const edit = (index: number, change: (value: Record<string, unknown>) => void) => {
    const value = JSON.parse(lines[index] ?? '');
    change(value);
    return gzip(lines.map((line, at) => (at === index ? JSON.stringify(value) : line)));
  };
  const header = lines[0] ?? '';
  const rows = lines.slice(1, -1);
  const bytes = fs.readFileSync(dumpFile);
  // A byte of the gzip trailer's CRC: every line still reads as it was, so only the check of the whole
  // file can refuse it (a byte flipped mid-file may instead garble a line into another refusal).
  const flipped = Buffer.from(bytes);
  const crcByte = bytes.length - 6;
  flipped[crcByte] = (flipped[crcByte] ?? 0) ^ 0xff;
  return [
    [
      'cut short',
      bytes.subarray(0, Math.floor(bytes.length * 0.6)),
      /cut short or damaged \(gzip: unexpected end of file/,
    ],
    ['without its trailer', gzip(lines.slice(0, -1)), /ends before its trailer/],
    [
      'a line lost',
      gzip(lines.filter((_, index) => index !== lines.length - 2)),
      /trailer counts \d+ rows of \w+ but the file holds/,
    ],
    ['a corrupted byte', flipped, /cut short or damaged \(gzip: /],
    ['not a dump', zlib.gzipSync('hello\n'), /not JSON/],
    [
      'of other migrations',
      edit(0, (header) => (header.migrations as string[]).push('2099-01-01-0001-later')),
      /migrations this version does not know \(2099/,
    ],
    ['a row of an unknown table', edit(2, (row) => (row.table = 'nope')), /unknown table "nope"/],
    [
      'rows out of order',
      gzip([header, ...rows.slice(-1), ...rows.slice(0, -1), lines.at(-1) ?? '']),
      /a row of users after the rows of login_attempt_counts/,
    ],
  ];
}
