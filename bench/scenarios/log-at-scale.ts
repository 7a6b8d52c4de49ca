/**
 * `log`: the transparency log at a million entries (issue 41), on SQLite and on PostgreSQL. A copy
 * of the ten-year seed (110 000 results) gets nine corrections a result (seed-log.ts), the app's
 * backfill builds the log and its tree; then, against the built server on it, uncached inclusion
 * and consistency proofs (each asked once) and a full `npm run verify`; and, in this process with
 * the server stopped, an append with its tree and checkpoint against the same append without them,
 * alternated, in the same run.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { type Database, openDatabase } from '../../src/server/db/database.js';
import type { DatabaseTarget } from '../../src/server/db/database-target.js';
import type { Declared } from '../../src/server/modules/declarations/declaration-log.js';
import { createTemporaryDatabase } from '../lib/postgres.js';
import { SEED_ADMIN, seedDatabase } from '../lib/seed.js';
import { addCorrections, type BuiltLog, buildLog } from '../lib/seed-log.js';
import { freePort, startServer } from '../lib/server-process.js';
import { ascending, median, ms, percentile } from '../lib/stats.js';
import { jsonOf, keepAliveAgent, timedRequest } from '../lib/timed-request.js';
import { log, SETTINGS, type Seeded, SITE_TIMEZONE, type Verdict } from './setup.js';

const TARGETS = { addedAppendMs: 1, proofP95Ms: 10, verifySeconds: 60 };
/** Corrections per result: 110 000 results × (1 + 9) ≈ 1 100 000 entries. */
const CORRECTIONS = 9;
const PROOFS = 300;
const APPENDS = 300;

interface Figures {
  entries: number;
  appendMs: number;
  withTreeMs: number;
  inclusion: number[];
  consistency: number[];
  verifySeconds: number;
}

/** A seeded random number generator (mulberry32): the same proofs every run. */
function randomFrom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Each proof asked once (neither the server's nor the process's cache has it): times in ms. */
async function proofTimes(url: string, size: number, kind: 'inclusion' | 'consistency'): Promise<number[]> {
  const random = randomFrom(kind === 'inclusion' ? 41 : 42);
  const asked = new Set<string>();
  const times: number[] = [];
  while (times.length < PROOFS) {
    const to = size - Math.floor(random() * 1000);
    const other = 1 + Math.floor(random() * (to - 1));
    const query = kind === 'inclusion' ? `seq=${other}&size=${to}` : `from=${other}&to=${to}`;
    if (asked.has(query)) continue;
    asked.add(query);
    const answer = await timedRequest(`${url}/api/log/proof/${kind}?${query}`, { agent: keepAliveAgent });
    const body = jsonOf<{ hashes?: string[] }>(answer, `proof ${query}`);
    if (answer.status !== 200 || !body.hashes) throw new Error(`${kind} ${query}: ${answer.status}`);
    times.push(answer.ms);
  }
  return times;
}

/** `npm run verify -- URL`, timed; throws unless it verified. */
async function verifySeconds(url: string): Promise<number> {
  const started = performance.now();
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn('npx', ['tsx', 'src/server/cli/verify-log.ts', url], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('exit', (exitCode) => resolve({ code: exitCode, output }));
  });
  if (code !== 0) throw new Error(`npm run verify exited ${code}:\n${output}`);
  log(`  ${output.trim().split('\n').join('\n  ')}`);
  return (performance.now() - started) / 1000;
}

/**
 * Appends alternate between the log alone and the log with its tree and checkpoint, one entry in one
 * transaction each; after an append without the tree, the tree catches up outside the timing so that
 * each timed append with it adds exactly one leaf.
 */
async function appendTimes(
  database: Database,
  built: BuiltLog,
): Promise<{ alone: number[]; withTree: number[] }> {
  const gids = await database.db.selectFrom('ghadis').select('gid').limit(1).execute();
  const gid = gids[0]?.gid ?? 1;
  const alone: number[] = [];
  const withTree: number[] = [];
  const declared = (n: number): Declared => ({
    gid,
    date: '2099-01-01',
    value: String(n % 100).padStart(2, '0'),
    previous: null,
    declaredAt: new Date(Date.UTC(2099, 0, 1, 0, 0, n)).toISOString(),
    declaredBy: null,
  });
  for (let n = 0; n < APPENDS * 2; n++) {
    const tree = n % 2 === 1;
    const started = performance.now();
    await database.db.transaction().execute(async (trx) => {
      await (tree ? built.withTree : built.withoutTree).append(trx, [declared(n)]);
    });
    const elapsed = performance.now() - started;
    (tree ? withTree : alone).push(elapsed);
    if (!tree) await built.tree.catchUp();
  }
  return { alone, withTree };
}

async function measure(
  label: string,
  target: DatabaseTarget,
  serverEnv: NodeJS.ProcessEnv,
): Promise<Figures> {
  const database = openDatabase(target, { poolSize: 2 });
  try {
    log(`${label}: adding ${CORRECTIONS} corrections to each result …`);
    let started = performance.now();
    const corrections = await addCorrections(database, CORRECTIONS, log);
    log(
      `${label}: ${corrections} corrections in ${((performance.now() - started) / 1000).toFixed(0)} s; backfilling the log …`,
    );
    started = performance.now();
    const built = await buildLog(database);
    log(
      `${label}: ${built.entries} entries and their tree in ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );

    const port = await freePort();
    const server = await startServer({
      port,
      env: serverEnv,
      keepOutput: true,
      startTimeoutMs: 600_000,
    });
    let inclusion: number[];
    let consistency: number[];
    let verify: number;
    try {
      const checkpoint = await timedRequest(`${server.url}/api/log/checkpoint`);
      const size = Number(checkpoint.body.toString('utf8').split('\n')[1]);
      if (size !== built.entries) throw new Error(`the checkpoint has size ${size}, not ${built.entries}`);
      inclusion = await proofTimes(server.url, size, 'inclusion');
      consistency = await proofTimes(server.url, size, 'consistency');
      log(`${label}: verifying ${size} entries with npm run verify …`);
      verify = await verifySeconds(server.url);
    } finally {
      await server.stop();
    }
    const appends = await appendTimes(database, built);
    return {
      entries: built.entries,
      appendMs: median(appends.alone),
      withTreeMs: median(appends.withTree),
      inclusion,
      consistency,
      verifySeconds: verify,
    };
  } finally {
    await database.close();
  }
}

function report(label: string, figures: Figures): boolean {
  const added = figures.withTreeMs - figures.appendMs;
  const p95 = (times: number[]) => percentile(ascending(times), 0.95);
  const rows: Array<[string, string, boolean]> = [
    [
      `append + tree + checkpoint − append alone (medians of ${APPENDS}: ${ms(figures.withTreeMs)} − ${ms(figures.appendMs)})`,
      `${ms(added)} ≤ ${TARGETS.addedAppendMs} ms`,
      added <= TARGETS.addedAppendMs,
    ],
    [
      `inclusion proof, uncached (median ${ms(median(figures.inclusion))})`,
      `p95 ${ms(p95(figures.inclusion))} ≤ ${TARGETS.proofP95Ms} ms`,
      p95(figures.inclusion) <= TARGETS.proofP95Ms,
    ],
    [
      `consistency proof, uncached (median ${ms(median(figures.consistency))})`,
      `p95 ${ms(p95(figures.consistency))} ≤ ${TARGETS.proofP95Ms} ms`,
      p95(figures.consistency) <= TARGETS.proofP95Ms,
    ],
    [
      'npm run verify -- URL, the whole log',
      `${figures.verifySeconds.toFixed(1)} s ≤ ${TARGETS.verifySeconds} s`,
      figures.verifySeconds <= TARGETS.verifySeconds,
    ],
  ];
  log(`\n${label}, ${figures.entries} entries:`);
  for (const [what, figure, met] of rows) log(`  ${met ? 'met ' : 'MISS'}  ${figure.padEnd(24)} ${what}`);
  return rows.every(([, , met]) => met);
}

const serverEnvOf = (database: string): NodeJS.ProcessEnv => ({
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  DATABASE_URL: database,
  SITE_TIMEZONE,
  ADMIN_USERNAME: SEED_ADMIN.username,
  ADMIN_PASSWORD: SEED_ADMIN.password,
  LOG_ORIGIN: 'bench.example/log',
});

export async function transparencyLogScenario(seeded: Seeded, dir: string): Promise<Verdict> {
  // A copy: the other scenarios share the ten-year file and want it without the corrections.
  const file = path.join(dir, 'bench-log.db');
  fs.copyFileSync(seeded.file, file);
  const sqlite = await measure('SQLite', { kind: 'sqlite', file }, serverEnvOf(`sqlite:${file}`));
  const sqliteMet = report('SQLite', sqlite);
  fs.rmSync(file, { force: true });

  const postgres = await createTemporaryDatabase('bench_log');
  try {
    log('PostgreSQL: seeding …');
    await seedDatabase(
      { kind: 'postgres', url: postgres.url },
      { ghadis: SETTINGS.ghadis, days: SETTINGS.listDays, admin: SEED_ADMIN, siteTimezone: SITE_TIMEZONE },
    );
    const figures = await measure(
      'PostgreSQL',
      { kind: 'postgres', url: postgres.url },
      serverEnvOf(postgres.url),
    );
    const postgresMet = report('PostgreSQL', figures);
    return {
      met: sqliteMet && postgresMet,
      summary: `SQLite ${sqlite.entries} entries, PostgreSQL ${figures.entries}`,
    };
  } finally {
    await postgres.drop();
  }
}
