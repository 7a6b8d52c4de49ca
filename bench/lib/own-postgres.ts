/**
 * A PostgreSQL server of a check's own, for checks that stop, restart or freeze the database: the
 * machine's shared PostgreSQL (127.0.0.1:5432) serves other people's test runs and is never touched.
 *
 * `initdb` in a temporary folder owned by the `postgres` user (the server refuses to run as root; this
 * process, as root, runs its tools through `runuser -u postgres`), trust authentication, listening on
 * 127.0.0.1 only, on a free port, with its socket in that folder. `destroy()` stops it (immediate)
 * and removes the folder; so does this process's exit, should a run be interrupted.
 *
 * The binaries: PG_BIN, else the newest /usr/lib/postgresql/<version>/bin.
 */
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './server-process.js';

const run = promisify(execFile);
const RUN_AS = 'postgres';
/** What this module's own connections call themselves, so that checks can tell them apart. */
export const OWN_APPLICATION_NAME = 'acceptance-admin';

export interface OwnPostgres {
  port: number;
  dataDir: string;
  /** The version of the binaries, e.g. "15". */
  version: string;
  /** postgres://postgres@127.0.0.1:<port>/<database> */
  url(database?: string): string;
  /** One query on a connection of its own (named OWN_APPLICATION_NAME), closed after. */
  query<R extends pg.QueryResultRow>(text: string, values?: unknown[], database?: string): Promise<R[]>;
  createDatabase(name: string): Promise<string>;
  /** Whether a new connection is accepted and answers `select 1` within `timeoutMs`. */
  answers(timeoutMs?: number): Promise<boolean>;
  /** pg_ctl with the given arguments (restart, stop, start …), waiting for it (-w). */
  ctl(...args: string[]): Promise<void>;
  /** The server's own log, for a failure's message. */
  log(): string;
  destroy(): Promise<void>;
}

function binariesDir(): { dir: string; version: string } {
  if (process.env.PG_BIN)
    return { dir: process.env.PG_BIN, version: path.basename(path.dirname(process.env.PG_BIN)) };
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((name) => fs.existsSync(path.join(root, name, 'bin', 'pg_ctl')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const version = versions[0];
  if (!version)
    throw new Error(`no PostgreSQL binaries under ${root}: set PG_BIN, or apt-get install postgresql`);
  return { dir: path.join(root, version, 'bin'), version };
}

function userIds(name: string): { uid: number; gid: number } {
  const line = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith(`${name}:`));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (uid === undefined || gid === undefined) throw new Error(`no user ${name} on this machine`);
  return { uid: Number(uid), gid: Number(gid) };
}

export async function startOwnPostgres(): Promise<OwnPostgres> {
  if (process.getuid?.() !== 0)
    throw new Error('starting a PostgreSQL of its own needs root (runuser -u postgres)');
  const { dir: bin, version } = binariesDir();
  const owner = userIds(RUN_AS);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ghadi-own-pg-'));
  fs.chownSync(dataDir, owner.uid, owner.gid);
  fs.chmodSync(dataDir, 0o700);
  const logFile = path.join(dataDir, 'server.log');
  const asOwner = (program: string, args: string[]) =>
    run('runuser', ['-u', RUN_AS, '--', path.join(bin, program), ...args], { timeout: 120_000 });

  let running = false;
  const stopNow = () => {
    if (running) {
      try {
        execFileSync(
          'runuser',
          ['-u', RUN_AS, '--', path.join(bin, 'pg_ctl'), '-D', dataDir, '-m', 'immediate', '-w', 'stop'],
          {
            stdio: 'ignore',
            timeout: 30_000,
          },
        );
      } catch {
        // Already stopped.
      }
      running = false;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  // An interrupted run (Ctrl-C: the runner exits) still stops the server and removes its files.
  process.once('exit', stopNow);

  const port = await freePort();
  try {
    await asOwner('initdb', [
      '-D',
      dataDir,
      '-A',
      'trust',
      '-U',
      'postgres',
      '-E',
      'UTF8',
      '--no-locale',
      '--no-sync',
    ]);
    fs.appendFileSync(
      path.join(dataDir, 'postgresql.conf'),
      [
        '',
        '# acceptance: a server of its own',
        `port = ${port}`,
        "listen_addresses = '127.0.0.1'",
        `unix_socket_directories = '${dataDir}'`,
        'max_connections = 100',
        "log_line_prefix = '%m [%p] %a '",
        '',
      ].join('\n'),
    );
    await asOwner('pg_ctl', ['-D', dataDir, '-l', logFile, '-w', '-t', '60', 'start']);
    running = true;
  } catch (error) {
    stopNow();
    process.removeListener('exit', stopNow);
    throw new Error(`could not start a PostgreSQL of its own: ${(error as Error).message}`);
  }

  const url = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const connect = async (database: string, timeoutMs: number) => {
    const client = new pg.Client({
      connectionString: url(database),
      connectionTimeoutMillis: timeoutMs,
      application_name: OWN_APPLICATION_NAME,
    });
    client.on('error', () => {});
    await client.connect();
    return client;
  };
  const query = async <R extends pg.QueryResultRow>(
    text: string,
    values: unknown[] = [],
    database = 'postgres',
  ) => {
    const client = await connect(database, 5000);
    try {
      return (await client.query<R>(text, values)).rows;
    } finally {
      await client.end().catch(() => {});
    }
  };
  return {
    port,
    dataDir,
    version,
    url,
    query,
    async createDatabase(name) {
      await query(`create database ${name}`);
      return url(name);
    },
    async answers(timeoutMs = 1000) {
      let client: pg.Client | undefined;
      try {
        client = await connect('postgres', timeoutMs);
        await client.query({ text: 'select 1', query_timeout: timeoutMs } as pg.QueryConfig);
        return true;
      } catch {
        return false;
      } finally {
        await client?.end().catch(() => {});
      }
    },
    async ctl(...args) {
      await asOwner('pg_ctl', ['-D', dataDir, '-l', logFile, '-w', '-t', '60', ...args]);
      running = !args.includes('stop');
    },
    log: () => {
      try {
        return fs.readFileSync(logFile, 'utf8').slice(-4000);
      } catch {
        return '';
      }
    },
    async destroy() {
      process.removeListener('exit', stopNow);
      stopNow();
    },
  };
}
