/**
 * The public hot paths, side by side with a bare node:http server sending the very same bytes.
 * Run by hand (not part of npm test): `npm run bench` (builds first) or `npx tsx bench/run.ts`.
 *
 * 1. Seeds a fresh SQLite file through the app (30 ghadis, a year of daily results each).
 * 2. Starts the built server (node dist/server/server.js, LOG_LEVEL=info as in production, its log
 *    discarded) and records its answers to the benched requests: status, headers, raw body bytes.
 * 3. Starts bench/bare-server.mjs with those recordings.
 * 4. Loads both from a separate process (wrk: `apt-get install -y wrk`), alternating rounds, and
 *    prints requests/second of each and the ratio ours/bare.
 *
 * Options (environment): BENCH_SECONDS per round (5), BENCH_ROUNDS (3), BENCH_CONNECTIONS (50),
 * BENCH_GHADIS (30), BENCH_DAYS (365), BENCH_DATABASE (a file to seed once and reuse). On a machine with 2+ cores the servers share core 0 and wrk
 * gets core 1 (taskset), so that the load generator does not steal the server's CPU.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/server/app.js';
import { loadConfig } from '../src/server/config.js';
import { addDays, todayInZone } from '../src/shared/dates.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const GHADIS = Number(process.env.BENCH_GHADIS ?? 30);
const DAYS = Number(process.env.BENCH_DAYS ?? 365);
const OURS_PORT = 3471;
const BARE_PORT = 3472;
const ORIGIN = `http://127.0.0.1:${OURS_PORT}`;
const ADMIN = { username: 'bench-admin', password: 'bench-admin-password' };
/** What a browser sends; both servers answer it with the same pre-compressed bytes. */
const ACCEPT_ENCODING = 'gzip, deflate, br';
const BENCH_DIR = path.dirname(new URL(import.meta.url).pathname);

interface Target {
  label: string;
  method: 'GET' | 'POST';
  path: string;
  /** The ratio ours/bare this path must reach. */
  target: number;
  script?: string;
}

interface Recorded {
  method: string;
  path: string;
  status: number;
  headers: Record<string, string | string[]>;
  body: string;
}

function log(message: string) {
  process.stdout.write(`${message}\n`);
}

function requireBuilt() {
  for (const file of ['dist/server/server.js', 'dist/ssr/entry-server.js', 'dist/web/public.html']) {
    if (!fs.existsSync(file))
      throw new Error(`${file} is missing: run npm run build first (npm run bench does)`);
  }
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
  } catch (error) {
    // wrk --version exits 1 after printing; only a missing binary throws ENOENT.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error('wrk is not installed: apt-get install -y wrk');
    }
  }
}

/** A year of results for every ghadi, written through the app's own API (validation and all). */
async function seed(databaseFile: string, env: NodeJS.ProcessEnv, alreadySeeded: boolean): Promise<string> {
  const config = loadConfig(env);
  const app = await buildApp(config, { logger: false, serveWebApp: false });
  try {
    const login = await app.inject({
      method: 'POST',
      url: '/api/users/login',
      payload: { UserName: ADMIN.username, Password: ADMIN.password },
    });
    const token = login.json<{ token: string }>().token;
    const authorization = `Bearer ${token}`;
    const existing = (await app.inject({ url: '/api/ghadis' })).json<{
      data: Array<{ GID: number; NameEn: string }>;
    }>().data;
    if (alreadySeeded) {
      log(`reusing ${databaseFile}`);
      return (existing[0]?.NameEn ?? '').toLowerCase();
    }
    const ghadis = [...existing];
    for (let index = existing.length; index < GHADIS; index++) {
      const answer = await app.inject({
        method: 'POST',
        url: '/api/ghadis',
        headers: { authorization },
        payload: {
          NameEn: `Bench Ghadi ${index + 1}`,
          NameHn: `बेंच ${index + 1}`,
          RTime: '6:00 PM',
          OrderId: index + 1,
        },
      });
      ghadis.push(answer.json<{ data: { GID: number; NameEn: string } }>().data);
    }
    const today = todayInZone(config.siteTimezone);
    let written = 0;
    for (const ghadi of ghadis) {
      for (let day = 0; day < DAYS; day++) {
        const response = await app.inject({
          method: 'POST',
          url: '/api/agent/my-ghadi/update-result',
          headers: { authorization },
          payload: {
            ghadiId: ghadi.GID,
            result: String((ghadi.GID * 37 + day * 13) % 100).padStart(2, '0'),
            dateTime: addDays(today, -day),
          },
        });
        if (response.statusCode !== 200) throw new Error(`seeding failed: ${response.body}`);
        written++;
      }
    }
    log(`seeded ${ghadis.length} ghadis and ${written} results into ${databaseFile}`);
    const first = ghadis[0];
    if (!first) throw new Error('no ghadi to bench');
    return first.NameEn.toLowerCase();
  } finally {
    await app.close();
  }
}

function pinned(core: number, command: string, args: string[]): [string, string[]] {
  return os.availableParallelism() > 1
    ? ['taskset', ['-c', String(core), command, ...args]]
    : [command, args];
}

function start(command: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const [program, programArgs] = pinned(0, command, args);
  const devNull = fs.openSync('/dev/null', 'w');
  return spawn(program, programArgs, { env, stdio: ['ignore', devNull, 'inherit'] });
}

async function waitUntilUp(port: number, pathName: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const status = await new Promise<number>((resolve, reject) => {
        http
          .get({ host: '127.0.0.1', port, path: pathName }, (response) => {
            response.resume();
            resolve(response.statusCode ?? 0);
          })
          .on('error', reject);
      });
      if (status > 0) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`nothing answered on port ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** One request to our server, recorded byte for byte (no decompression). */
function record(target: Target): Promise<Recorded> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port: OURS_PORT,
        method: target.method,
        path: target.path,
        headers: {
          'accept-encoding': ACCEPT_ENCODING,
          ...(target.method === 'POST'
            ? { 'x-session-id': `bench-record-${Date.now()}`, origin: ORIGIN }
            : {}),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const headers: Record<string, string | string[]> = {};
          for (const [name, value] of Object.entries(response.headers)) {
            // Per-response or per-connection headers are the server's own business.
            if (value === undefined || ['date', 'connection', 'keep-alive', 'x-request-id'].includes(name))
              continue;
            headers[name] = value;
          }
          resolve({
            method: target.method,
            path: target.path,
            status: response.statusCode ?? 0,
            headers,
            body: Buffer.concat(chunks).toString('base64'),
          });
        });
      },
    );
    request.on('error', reject);
    request.end();
  });
}

interface Load {
  requestsPerSecond: number;
  /** Server CPU time (user + system) per request, in microseconds: steadier than req/s on a busy machine. */
  cpuMicros: number;
  failures: number;
}

const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** A process's CPU time so far, in microseconds (Linux /proc). */
function cpuTime(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 of stat (utime, stime) are the 12th and 13th after the command name.
  return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / CLOCK_TICKS;
}

function wrk(port: number, pid: number, target: Target, seconds: number): Load {
  const args = [
    '-t1',
    `-c${CONNECTIONS}`,
    `-d${seconds}s`,
    '-H',
    `Accept-Encoding: ${ACCEPT_ENCODING}`,
    ...(target.script ? ['-s', path.join(BENCH_DIR, target.script)] : []),
    `http://127.0.0.1:${port}${target.path}`,
  ];
  const [program, programArgs] = pinned(1, 'wrk', args);
  const cpuBefore = cpuTime(pid);
  const output = execFileSync(program, programArgs, { encoding: 'utf8' });
  const cpuUsed = cpuTime(pid) - cpuBefore;
  const requests = Number(/(\d+) requests in/.exec(output)?.[1] ?? 0);
  const rate = /Requests\/sec:\s+([\d.]+)/.exec(output);
  const failures = /Non-2xx or 3xx responses:\s+(\d+)/.exec(output);
  const errors = /Socket errors:.*?(\d+).*?(\d+).*?(\d+).*?(\d+)/.exec(output);
  return {
    requestsPerSecond: Number(rate?.[1] ?? 0),
    cpuMicros: requests > 0 ? cpuUsed / requests : 0,
    failures:
      Number(failures?.[1] ?? 0) + (errors ? errors.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

async function main() {
  requireBuilt();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ghadi-bench-'));
  // BENCH_DATABASE keeps the seeded database between runs (seeded on the first).
  const databaseFile = process.env.BENCH_DATABASE
    ? path.resolve(process.env.BENCH_DATABASE)
    : path.join(dir, 'bench.db');
  const alreadySeeded = fs.existsSync(databaseFile);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(OURS_PORT),
    HOST: '127.0.0.1',
    DATABASE_URL: `sqlite:${databaseFile}`,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'info',
    NODE_ENV: 'production',
    // As in production: the site knows its address, and a browser's same-origin POST names it.
    PUBLIC_URL: ORIGIN,
    BENCH_ORIGIN: ORIGIN,
    // Every wrk connection comes from 127.0.0.1: count them all, the worst case for storage.
    VISITOR_NEW_SESSIONS_PER_MINUTE: '1000000',
  };
  const children: ChildProcess[] = [];
  const stopAll = () => {
    for (const child of children) child.kill('SIGTERM');
  };
  process.on('SIGINT', () => {
    stopAll();
    process.exit(130);
  });

  try {
    const name = await seed(databaseFile, env, alreadySeeded);
    const targets: Target[] = [
      { label: 'GET /', method: 'GET', path: '/', target: 0.9 },
      { label: 'GET /api/ghadis', method: 'GET', path: '/api/ghadis', target: 0.9 },
      {
        label: 'GET /api/results/{name}',
        method: 'GET',
        path: `/api/results/${encodeURIComponent(name)}`,
        target: 0.9,
      },
      {
        label: 'POST /api/visitor/track with Origin (a new visitor each)',
        method: 'POST',
        path: '/api/visitor/track',
        target: 0.8,
        script: 'track.lua',
      },
      {
        label: 'POST /api/visitor/track with Origin (one returning visitor)',
        method: 'POST',
        path: '/api/visitor/track',
        target: 0.8,
        script: 'track-returning.lua',
      },
    ];

    const ours = start('node', ['dist/server/server.js'], env);
    children.push(ours);
    await waitUntilUp(OURS_PORT, '/api/site');
    // One recording per method and path (the two track rows share theirs).
    const distinct = targets.filter(
      (target, index) =>
        targets.findIndex((other) => other.method === target.method && other.path === target.path) === index,
    );
    const recordings = await Promise.all(distinct.map(record));
    for (const recorded of recordings) {
      const size = Buffer.from(recorded.body, 'base64').length;
      log(
        `recorded ${recorded.method} ${recorded.path}: ${recorded.status}, ${size} bytes ` +
          `(${recorded.headers['content-encoding'] ?? 'identity'})`,
      );
      if (recorded.status !== 200)
        throw new Error(`${recorded.method} ${recorded.path} answered ${recorded.status}`);
    }
    const fixtures = path.join(dir, 'fixtures.json');
    fs.writeFileSync(fixtures, JSON.stringify(recordings));
    const bare = start('node', [path.join(BENCH_DIR, 'bare-server.mjs'), fixtures, String(BARE_PORT)], env);
    children.push(bare);
    await waitUntilUp(BARE_PORT, '/');

    log(
      `\nwrk: 1 thread, ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${SECONDS}s per server ` +
        `(after a 2s warm-up), median req/s; ${os.availableParallelism()} CPUs, Node ${process.version}\n`,
    );
    const rows: string[] = [];
    let allMet = true;
    const ourPid = ours.pid ?? 0;
    const barePid = bare.pid ?? 0;
    for (const target of targets) {
      wrk(BARE_PORT, barePid, target, 2);
      wrk(OURS_PORT, ourPid, target, 2);
      const bareRuns: Load[] = [];
      const ourRuns: Load[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        bareRuns.push(wrk(BARE_PORT, barePid, target, SECONDS));
        ourRuns.push(wrk(OURS_PORT, ourPid, target, SECONDS));
      }
      const bareRate = median(bareRuns.map((run) => run.requestsPerSecond));
      const ourRate = median(ourRuns.map((run) => run.requestsPerSecond));
      const bareCpu = median(bareRuns.map((run) => run.cpuMicros));
      const ourCpu = median(ourRuns.map((run) => run.cpuMicros));
      const failures = [...bareRuns, ...ourRuns].reduce((sum, run) => sum + run.failures, 0);
      const ratio = ourRate / bareRate;
      const cpuRatio = bareCpu / ourCpu;
      const met = ratio >= target.target && cpuRatio >= target.target && failures === 0;
      allMet &&= met;
      const row =
        `| ${target.label} | ${bareRate.toFixed(0)} | ${ourRate.toFixed(0)} | **${ratio.toFixed(2)}** | ≥ ${target.target.toFixed(1)} | ` +
        `${bareCpu.toFixed(1)} | ${ourCpu.toFixed(1)} | **${cpuRatio.toFixed(2)}** | ` +
        `${met ? 'met' : 'NOT MET'}${failures ? ` (${failures} failures)` : ''} |`;
      rows.push(row);
      log(row);
    }
    log(
      '\n| Request | bare req/s | ours req/s | ratio ours/bare | target | bare CPU µs/req | ours CPU µs/req | CPU ratio bare/ours | |',
    );
    log('|---|---:|---:|---:|---:|---:|---:|---:|---|');
    for (const row of rows) log(row);
    if (!allMet) process.exitCode = 1;
  } finally {
    stopAll();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
