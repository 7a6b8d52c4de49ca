/**
 * The database-faults group's PostgreSQL checks (database-faults-checks.ts), on a PostgreSQL of the
 * group's own (bench/lib/own-postgres.ts), each with a fresh database seeded 10 × 30, one server
 * (WORKERS=1 or 2) and the traffic of database-faults-traffic.ts running throughout:
 * - faultsCheck: the database restarted (pg_ctl restart -m fast), then stopped for 20 s and started,
 *   then one of the server's idle connections ended (pg_terminate_backend);
 * - frozenCheck: the database frozen behind a proxy (nothing forwarded, nothing closed) for 10 s.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { startTcpProxy } from '../../tests/support/tcp-proxy.js';
import { signIn } from '../lib/client.js';
import { type LoggedServer, startLoggedServer } from '../lib/logged-server.js';
import { OWN_APPLICATION_NAME, type OwnPostgres } from '../lib/own-postgres.js';
import { SEED_ADMIN, seedDatabase } from '../lib/seed.js';
import { freePort } from '../lib/server-process.js';
import { check } from './check.js';
import {
  errorLogFigures,
  type Fault,
  judgeFault,
  judgeRun,
  lostWrites,
  outageLogFigures,
} from './database-faults-figures.js';
import { keepEvidence, startTraffic, type Traffic, waitFor } from './database-faults-traffic.js';
import type { CheckResult, CheckSettings } from './types.js';

/** DATABASE_DEADLINE_MS of these servers: short, to keep the run short (the default is 5000). */
export const DEADLINE_MS = 2000;
/** The client-side deadline the server adds for a database that does not answer at all. */
const CLIENT_MARGIN_MS = 1000;
/** What this runner allows on top (scheduling, the HTTP round trip). */
const OUR_MARGIN_MS = 500;
const WRITE_LIMIT_MS = DEADLINE_MS + CLIENT_MARGIN_MS + OUR_MARGIN_MS;
const RECOVERY_LIMIT_MS = 2000;
/** How long the live stream may take to deliver the first result declared after recovery. */
const STREAM_LIMIT_MS = 15_000;
const STOPPED_MS = 20_000;
const FROZEN_MS = 10_000;
const SETTLE_MS = 3000;
const BASELINE_MS = 3000;
const FIRST_DATE = '2003-01-01';

export interface SiteOnPostgres {
  server: LoggedServer;
  database: string;
  gids: number[];
  token: string;
}

export function serverEnv(settings: CheckSettings, workers: number, databaseUrl: string): NodeJS.ProcessEnv {
  return {
    DATABASE_URL: databaseUrl,
    DATABASE_DEADLINE_MS: String(DEADLINE_MS),
    WORKERS: String(workers),
    ADMIN_USERNAME: SEED_ADMIN.username,
    ADMIN_PASSWORD: SEED_ADMIN.password,
    SITE_TIMEZONE: settings.siteTimezone,
    LOGIN_MAX_FAILURES: String(settings.loginMaxFailures),
    TRUST_PROXY: '',
    PUBLIC_URL: '',
    METRICS_TOKEN: '',
    LOG_LEVEL: 'info',
    NODE_ENV: 'production',
  };
}

/** Starts the server and waits until all of its WORKERS are there. */
export async function startSite(env: NodeJS.ProcessEnv, workers: number): Promise<LoggedServer> {
  const server = await startLoggedServer({ port: await freePort(), env });
  if (workers > 1 && !(await waitFor(() => server.children().length >= workers, 30_000))) {
    await server.stop();
    throw new Error(`${workers} workers did not start in 30 s:\n${server.output().slice(-3000)}`);
  }
  // Each worker listens once it has built its app: give the last one a moment.
  if (workers > 1) await sleep(1000);
  return server;
}

async function seededSite(own: OwnPostgres, settings: CheckSettings, name: string) {
  const url = await own.createDatabase(name);
  const seed = await seedDatabase(
    { kind: 'postgres', url },
    { ghadis: 10, days: 30, admin: SEED_ADMIN, siteTimezone: settings.siteTimezone },
  );
  return { url, gids: seed.ghadis.map((ghadi) => ghadi.gid) };
}

async function storedValues(own: OwnPostgres, database: string): Promise<Map<string, string>> {
  const rows = await own.query<{ gid: number; result_date: string; value: string }>(
    "select gid, result_date, value from results where result_date >= $1 and result_date < '2020-01-01'",
    [FIRST_DATE],
    database,
  );
  return new Map(rows.map((row) => [`${row.gid}|${row.result_date}`, row.value]));
}

/** When the database was seen away after `since`, and back: from the traffic's poller. */
function seenAway(
  traffic: Traffic,
  since: number,
): { from: number; to: number; backFrom: number } | undefined {
  const firstDown = traffic.polls.find((poll) => poll.start >= since && !poll.up);
  if (!firstDown) return undefined;
  const back = traffic.polls.find((poll) => poll.start > firstDown.start && poll.up);
  if (!back) return undefined;
  // Each failed poll proves the database away at some moment within it; it went away once and came
  // back once, so it was away from the first failed poll's end to the last one's start, and may have
  // been back from the last one's end: that is when recovery is timed from.
  const lastDown = traffic.polls.filter((poll) => poll.start < back.start && !poll.up).at(-1) ?? firstDown;
  return { from: firstDown.end, to: Math.max(firstDown.end, lastDown.start), backFrom: lastDown.end };
}

/** Until a write started after `since` succeeded, or `limitMs`. */
const untilWriteSucceeds = (traffic: Traffic, since: number, limitMs: number) =>
  waitFor(() => traffic.writes.some((write) => write.start >= since && write.acknowledged), limitMs);

/** One of the server's connections now idle (a pool's, not the change bus's LISTEN), or any idle one. */
async function idleServerBackend(own: OwnPostgres, database: string) {
  for (let attempt = 0; attempt < 40; attempt++) {
    const rows = await own.query<{ pid: number; state: string; query: string }>(
      `select pid, state, left(query, 40) as query from pg_stat_activity
       where datname = $1 and pid <> pg_backend_pid() and backend_type = 'client backend'
         and application_name <> $2`,
      [database, OWN_APPLICATION_NAME],
    );
    const pooled = rows.find((row) => row.state === 'idle' && !/^listen/i.test(row.query));
    if (pooled) return { ...pooled, backends: rows.length, kind: 'a pooled connection' };
    if (attempt === 39) {
      const listener = rows.find((row) => row.state === 'idle');
      if (listener) return { ...listener, backends: rows.length, kind: "the change bus's LISTEN connection" };
    }
    await sleep(50);
  }
  return undefined;
}

function aliveFigures(server: LoggedServer, workersBefore: number[]): { ok: boolean; detail: string } {
  const exit = server.exited();
  const workersAfter = server.children();
  const sameWorkers =
    workersBefore.length === workersAfter.length && workersBefore.every((pid) => workersAfter.includes(pid));
  const restarts = (server.output().match(/a worker stopped; starting another/g) ?? []).length;
  const ok = exit === null && sameWorkers && restarts === 0;
  return {
    ok,
    detail: exit
      ? `the server EXITED (${JSON.stringify(exit)})`
      : `the server ran throughout (pid ${server.pid}` +
        (workersBefore.length > 0
          ? `, workers ${workersBefore.join(',')} → ${workersAfter.join(',')}, ${restarts} restarted)`
          : ')'),
  };
}

export function faultsCheck(
  own: OwnPostgres,
  settings: CheckSettings,
  workers: number,
): Promise<CheckResult> {
  return check(
    `PostgreSQL restarted, stopped 20 s, an idle connection ended (WORKERS=${workers}, DATABASE_DEADLINE_MS=${DEADLINE_MS}): ` +
      `no exit, 503 + Retry-After within ${WRITE_LIMIT_MS} ms, probes and cached reads answer, writes back within ${RECOVERY_LIMIT_MS} ms, stream gets the next result, nothing lost`,
    async () => {
      const database = `faults_w${workers}_${Date.now().toString(36)}`;
      const site = await seededSite(own, settings, database);
      const server = await startSite(serverEnv(settings, workers, site.url), workers);
      let traffic: Traffic | undefined;
      try {
        const workersBefore = server.children();
        const token = await signIn(server.url, SEED_ADMIN, '127.0.0.1');
        traffic = await startTraffic({
          baseUrl: server.url,
          token,
          gids: site.gids,
          firstDate: FIRST_DATE,
          databaseAnswers: (timeoutMs) => own.answers(timeoutMs),
          maxMs: 180_000,
        });
        const running = traffic;
        await sleep(BASELINE_MS);
        const faults: Fault[] = [];

        /** A fault `cause` makes and ends, measured from outside until a write succeeds again. */
        const outage = async (name: string, cause: () => Promise<void>, brief = false): Promise<Fault> => {
          const began = Date.now();
          await cause();
          const returned = Date.now();
          await waitFor(() => seenAway(running, began) !== undefined, 5000);
          await untilWriteSucceeds(running, returned, 10_000);
          await sleep(SETTLE_MS);
          const down = seenAway(running, began);
          return {
            name,
            began,
            endedAt: Date.now(),
            ...(down ? { down: { from: down.from, to: down.to } } : {}),
            backAt: down?.backFrom ?? returned,
            expectsOutage: true,
            ...(brief ? { brief } : {}),
          };
        };

        // a. A restart: every connection ended, the server away for a moment.
        faults.push(await outage('restart', () => own.ctl('-m', 'fast', 'restart'), true));

        // b. Stopped for 20 s, then started.
        faults.push(
          await outage('stopped 20 s', async () => {
            await own.ctl('-m', 'fast', 'stop');
            await sleep(STOPPED_MS);
            await own.ctl('start');
          }),
        );

        // c. One of the server's connections ended while idle.
        const idle = await idleServerBackend(own, database);
        const terminateAt = Date.now();
        const terminated = idle
          ? (await own.query<{ done: boolean }>('select pg_terminate_backend($1) as done', [idle.pid]))[0]
              ?.done
          : false;
        const terminatedAt = Date.now();
        await untilWriteSucceeds(running, terminatedAt, 10_000);
        await sleep(SETTLE_MS);
        faults.push({
          name: 'idle connection ended',
          began: terminateAt,
          endedAt: Date.now(),
          backAt: terminatedAt,
          startedAfterBack: true,
          expectsOutage: false,
        });

        // The stream may need a moment (a worker's change bus reconnects with back-off).
        const firstAfter = faults.map((fault) =>
          running.writes.find(
            (write) =>
              write.acknowledged &&
              (fault.startedAfterBack ? write.start >= fault.backAt : write.end > fault.backAt),
          ),
        );
        await waitFor(
          () =>
            firstAfter.every(
              (write) =>
                !write ||
                running.events.some((event) => event.kind === 'result' && event.value === write.value),
            ),
          STREAM_LIMIT_MS,
        );
        await running.stop();

        const limits = { writeMs: WRITE_LIMIT_MS, recoveryMs: RECOVERY_LIMIT_MS, streamMs: STREAM_LIMIT_MS };
        const judged = faults.map((fault) => judgeFault(fault, running, limits));
        const run = judgeRun(running, limits);
        const stored = await storedValues(own, database);
        const lost = lostWrites(running, stored);
        const alive = aliveFigures(server, workersBefore);
        const problems = [
          ...(alive.ok ? [] : ['the server did not run throughout']),
          ...(terminated ? [] : ['no idle server connection was found to end']),
          ...judged.flatMap((figures, index) =>
            figures.problems.map((problem) => `${faults[index]?.name}: ${problem}`),
          ),
          ...run.problems,
          ...(lost.lost.length > 0 ? [`${lost.lost.length} acknowledged writes lost`] : []),
        ];
        const kept = keepEvidence(`w${workers}`, server.output(), running);
        return {
          ok: problems.length === 0,
          detail:
            (problems.length > 0 ? `PROBLEMS: ${problems.join('; ')}. ` : '') +
            `${alive.detail}; ${judged.map((figures) => figures.detail).join('. ')}. ` +
            `ended ${idle ? `${idle.kind} (pid ${idle.pid}, one of ${idle.backends} backends of the app)` : 'nothing'}. ` +
            `Whole run: ${run.detail}; ${lost.detail}. Log: ${outageLogFigures(server.output(), faults)}; ${errorLogFigures(server.output())}. Kept: ${kept}`,
        };
      } finally {
        await traffic?.stop();
        await server.stop();
        if (!(await own.answers(1000))) await own.ctl('start').catch(() => {});
        await own.query(`drop database if exists ${database} with (force)`).catch(() => {});
      }
    },
  );
}

export function frozenCheck(own: OwnPostgres, settings: CheckSettings): Promise<CheckResult> {
  return check(
    `PostgreSQL frozen ${FROZEN_MS / 1000} s behind a proxy (nothing forwarded, nothing closed; WORKERS=1, DATABASE_DEADLINE_MS=${DEADLINE_MS}): ` +
      `writes answer 503 within ${WRITE_LIMIT_MS} ms, no hang; resumed, writes succeed within ${RECOVERY_LIMIT_MS} ms`,
    async () => {
      const database = `frozen_${Date.now().toString(36)}`;
      const site = await seededSite(own, settings, database);
      const proxy = await startTcpProxy({ host: '127.0.0.1', port: own.port });
      let server: LoggedServer | undefined;
      let traffic: Traffic | undefined;
      try {
        server = await startSite(serverEnv(settings, 1, proxy.through(site.url)), 1);
        const token = await signIn(server.url, SEED_ADMIN, '127.0.0.1');
        traffic = await startTraffic({
          baseUrl: server.url,
          token,
          gids: site.gids,
          firstDate: FIRST_DATE,
          maxMs: 120_000,
        });
        const running = traffic;
        await sleep(BASELINE_MS);
        const pausedAt = Date.now();
        proxy.pause();
        const connectionsHeld = proxy.openConnections;
        await sleep(FROZEN_MS);
        const resumedAt = Date.now();
        proxy.resume();
        await untilWriteSucceeds(running, resumedAt, 15_000);
        await sleep(SETTLE_MS);
        const fault: Fault = {
          name: 'frozen',
          began: pausedAt,
          endedAt: Date.now(),
          // A write that began once the freeze had begun and had to answer before it ended.
          down: { from: pausedAt, to: resumedAt },
          backAt: resumedAt,
          expectsOutage: true,
        };
        const first = running.writes.find((write) => write.acknowledged && write.end > resumedAt);
        await waitFor(
          () =>
            !first || running.events.some((event) => event.kind === 'result' && event.value === first.value),
          STREAM_LIMIT_MS,
        );
        await running.stop();
        const limits = { writeMs: WRITE_LIMIT_MS, recoveryMs: RECOVERY_LIMIT_MS, streamMs: STREAM_LIMIT_MS };
        const judged = judgeFault(fault, running, limits);
        const run = judgeRun(running, limits);
        const lost = lostWrites(running, await storedValues(own, database));
        const alive = aliveFigures(server, []);
        const kept = keepEvidence('frozen', server.output(), running);
        const problems = [
          ...(alive.ok ? [] : ['the server did not run throughout']),
          ...judged.problems,
          ...run.problems,
          ...(lost.lost.length > 0 ? [`${lost.lost.length} acknowledged writes lost`] : []),
        ];
        return {
          ok: problems.length === 0,
          detail:
            (problems.length > 0 ? `PROBLEMS: ${problems.join('; ')}. ` : '') +
            `${alive.detail}; ${connectionsHeld} connections held by the proxy when frozen; ${judged.detail}. ` +
            `Whole run: ${run.detail}; ${lost.detail}. Log: ${outageLogFigures(server.output(), [fault])}; ${errorLogFigures(server.output())}. Kept: ${kept}`,
        };
      } finally {
        proxy.resume();
        await traffic?.stop();
        await server?.stop();
        await proxy.close();
        await own.query(`drop database if exists ${database} with (force)`).catch(() => {});
      }
    },
  );
}
