/**
 * The data half of issue 11's acceptance (ops-checks.ts runs it):
 * - `npm run db:export` from the running SQLite site, `npm run db:import` into a fresh PostgreSQL
 *   database, a second server on it answering GET /api/ghadis, GET /api/results (admin) and
 *   GET /api/users identically, and the old admin password signing in there;
 * - a CSV round trip: export a range, import it into a fresh site (dry run, then real), export
 *   again and compare byte for byte; then a file with bad lines: line numbers reported, nothing written.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { signIn } from '../lib/client.js';
import { createTemporaryDatabase } from '../lib/postgres.js';
import { SEED_ADMIN, type SeedSummary } from '../lib/seed.js';
import { freePort, type ServerProcess, startServer } from '../lib/server-process.js';
import { jsonOf, type TimedOptions, timedRequest } from '../lib/timed-request.js';
import { check } from './check.js';
import type { CheckResult } from './types.js';

const run = promisify(execFile);

export interface DataCheckContext {
  /** The running seeded SQLite site, with METRICS_TOKEN; `token` is its admin's. */
  site: ServerProcess;
  token: string;
  seed: SeedSummary;
  dir: string;
  /** The environment every server of the group starts with (admin, time zone, log level). */
  env: Record<string, string>;
}

interface ImportAnswer {
  success: boolean;
  created: number;
  corrected: number;
  unchanged: number;
  errors: Array<{ line: number; message: string }>;
}

function get(server: ServerProcess, address: string, token?: string, options: TimedOptions = {}) {
  return timedRequest(`${server.url}${address}`, {
    ...options,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...options.headers },
  });
}

async function npmScript(script: string, args: string[], databaseUrl: string): Promise<string> {
  const { stdout, stderr } = await run('npm', ['run', '--silent', script, '--', ...args], {
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
  });
  return `${stdout}${stderr}`.trim();
}

/** The same answer, byte for byte once parsed and printed again (key order is the server's own). */
async function sameAnswers(a: ServerProcess, b: ServerProcess, address: string, tokens: [string, string]) {
  const [left, right] = [await get(a, address, tokens[0]), await get(b, address, tokens[1])];
  const text = (answer: typeof left) => JSON.stringify(jsonOf(answer, `GET ${address}`));
  const same = left.status === 200 && right.status === 200 && text(left) === text(right);
  return `${address} ${same ? 'identical' : `DIFFERENT (${left.status}/${right.status})`} (${left.body.length} B)`;
}

async function backupMoveCheck(context: DataCheckContext, servers: ServerProcess[]): Promise<CheckResult> {
  return check(
    'db:export from the running SQLite site, db:import into PostgreSQL, same answers',
    async () => {
      const dump = path.join(context.dir, 'site.ndjson.gz');
      const exported = await npmScript('db:export', [dump], `sqlite:${path.join(context.dir, 'site.db')}`);
      const database = await createTemporaryDatabase('accept_restore');
      try {
        const imported = await npmScript('db:import', [dump], database.url);
        const moved = await startServer({
          port: await freePort(),
          env: { ...context.env, DATABASE_URL: database.url },
        });
        servers.push(moved);
        const movedToken = await signIn(moved.url, SEED_ADMIN, '10.11.0.2');
        const tokens: [string, string] = [context.token, movedToken];
        const comparisons = [
          await sameAnswers(context.site, moved, '/api/ghadis', tokens),
          await sameAnswers(context.site, moved, '/api/results', tokens),
          await sameAnswers(context.site, moved, '/api/users', tokens),
        ];
        await moved.stop();
        return {
          ok: comparisons.every((line) => line.includes('identical')),
          detail: `${comparisons.join('; ')}; old admin password signs in; export: "${exported.split('\n').at(-1)}"; import: "${imported.split('\n').at(-1)}"`,
        };
      } finally {
        await database.drop();
      }
    },
  );
}

/** A fresh site with the source's ghadis (same GID and names) and no results. */
async function freshSite(context: DataCheckContext, servers: ServerProcess[]) {
  const site = await startServer({
    port: await freePort(),
    env: { ...context.env, DATABASE_URL: `sqlite:${path.join(context.dir, 'fresh.db')}` },
  });
  servers.push(site);
  const token = await signIn(site.url, SEED_ADMIN, '10.11.0.3');
  type Ghadi = { GID: number; NameEn: string; NameHn: string; RTime: string; OrderId: number };
  const list = async (server: ServerProcess) =>
    jsonOf<{ data: Ghadi[] }>(await get(server, '/api/ghadis'), 'GET /api/ghadis').data;
  const present = new Set((await list(site)).map((ghadi) => ghadi.GID));
  for (const { GID, NameEn, NameHn, RTime, OrderId } of await list(context.site)) {
    if (present.has(GID)) continue;
    const made = await get(site, '/api/ghadis', token, {
      method: 'POST',
      json: { GID, NameEn, NameHn, RTime, OrderId },
    });
    if (made.status !== 201) throw new Error(`creating ghadi ${GID} answered ${made.status}`);
  }
  return { site, token };
}

async function csvChecks(context: DataCheckContext, servers: ServerProcess[]): Promise<CheckResult[]> {
  const range = `from=${context.seed.firstDate}&to=${context.seed.lastDate}`;
  const exportCsv = async (server: ServerProcess, token: string) => {
    const answer = await get(server, `/api/results/export.csv?${range}`, token);
    if (answer.status !== 200) throw new Error(`export answered ${answer.status}`);
    return answer.body;
  };
  const importCsv = async (server: ServerProcess, token: string, csv: Buffer, dryRun: boolean) => {
    const answer = await get(server, `/api/results/import?dryRun=${dryRun}`, token, {
      method: 'POST',
      raw: { type: 'text/csv', data: csv },
    });
    return { status: answer.status, body: jsonOf<ImportAnswer>(answer, 'POST /api/results/import') };
  };
  const { site: fresh, token } = await freshSite(context, servers);
  const original = await exportCsv(context.site, context.token);
  const rows = original.toString().trim().split('\n').length - 1;
  const header = original.toString().split('\n')[0] ?? '';

  const roundTrip = await check(
    'CSV: export, import into a fresh site (dry run, real), export again: same bytes',
    async () => {
      const dry = await importCsv(fresh, token, original, true);
      const afterDry = await exportCsv(fresh, token);
      const real = await importCsv(fresh, token, original, false);
      const again = await exportCsv(fresh, token);
      const second = await importCsv(fresh, token, original, false);
      const ok =
        dry.body.created === rows &&
        afterDry.toString().trim() === header.trim() &&
        real.body.created === rows &&
        real.body.errors.length === 0 &&
        again.equals(original) &&
        second.body.unchanged === rows &&
        second.body.created + second.body.corrected === 0;
      return {
        ok,
        detail:
          `${rows} rows (${original.length} B); dry run: created ${dry.body.created}, nothing written: ${afterDry.toString().trim() === header.trim()}; ` +
          `real: created ${real.body.created}; export again identical: ${again.equals(original)}; ` +
          `second import: unchanged ${second.body.unchanged}`,
      };
    },
  );

  const badLines = await check(
    'CSV: a file with bad lines reports their line numbers and writes nothing',
    async () => {
      const before = await exportCsv(fresh, token);
      const first = original.toString().split('\n')[1] ?? '';
      const [date, gid] = first.split(',');
      const file = [
        'Date,GID,Name,Result',
        `${date},${gid},,99`,
        `2026-13-45,${gid},,12`,
        `${date},999999,,12`,
        `${date},${gid},,`,
      ].join('\n');
      const answer = await importCsv(fresh, token, Buffer.from(`${file}\n`), false);
      const after = await exportCsv(fresh, token);
      const lines = answer.body.errors.map((error) => error.line);
      const ok =
        answer.body.success === false &&
        [3, 4, 5].every((line) => lines.includes(line)) &&
        after.equals(before);
      return {
        ok,
        detail: `status ${answer.status}; errors on lines ${lines.join(', ')}: ${answer.body.errors
          .map((error) => error.message)
          .join(' | ')
          .slice(0, 200)}; nothing written: ${after.equals(before)}`,
      };
    },
  );
  return [roundTrip, badLines];
}

export async function dataChecks(context: DataCheckContext): Promise<CheckResult[]> {
  const servers: ServerProcess[] = [];
  try {
    return [await backupMoveCheck(context, servers), ...(await csvChecks(context, servers))];
  } finally {
    for (const server of servers) await server.stop();
  }
}
