/**
 * The acceptance checks, driving the built server from outside. Run by hand (not by npm test), after
 * `npm run build`:
 *
 *   npm run acceptance                              # every group: live coherence scale ops integrity charts offline console matka two-person transparency account media reach phone result-time hardening database-faults auth
 *   npm run acceptance -- scale                     # one group (or several, in any order)
 *   npm run acceptance -- live --days=365           # issue 7's data: 30 ghadis × 365 days
 *
 * Seeds a database with years of results (--ghadis=30 --days=3650 by default, ~110 000 results;
 * bench/lib/seed.ts): a SQLite file under /tmp reused by later runs with the same size
 * (ACCEPTANCE_SQLITE_FILE to choose it), or, with ACCEPTANCE_DATABASE_URL=postgres://..., a fresh
 * PostgreSQL database on that server, dropped at the end. Starts `node dist/server/server.js` on it
 * (TRUST_PROXY=loopback, PUBLIC_URL), runs the groups, prints a table, and exits 1 if any check failed.
 * The coherence group starts its own pairs of servers (PostgreSQL at ACCEPTANCE_DATABASE_URL or the
 * test suite's, then SQLite); so does the ops group (issue 11: API docs, probes, metrics, shutdown,
 * backups and CSV; ops-checks.ts), the integrity group (issue 10: the declaration log;
 * integrity-checks.ts), the charts group (issue 31: the chart API, pages and sitemap, a live chart;
 * charts-checks.ts), the offline group (issue 35: Chromium as an agent offline, installability,
 * Idempotency-Key on two processes, PostgreSQL and SQLite; offline-checks.ts), the console group
 * (issue 33: today's board, the activity trail, the daily numbers; console-checks.ts), the matka group
 * (issue 39: kinds, pannas, steps, holidays, import, weekly charts, a live panel chart; matka-checks.ts),
 * the two-person group (issue 40: held entries, blind mismatches, receipts, punctuality;
 * two-person-checks.ts), the transparency group (issue 41: the Merkle tree, signed checkpoints, proofs
 * and tiles checked by the checker's own RFC 6962 code, a receipt verified in Chromium, `npm run verify`
 * catching a changed value and a log re-signed by a new key, on SQLite and PostgreSQL;
 * transparency-checks.ts), the account group (issue 42: two-factor sign-in with the checker's own
 * RFC 6238 code, the throttle on wrong codes, sessions, one's own password, REQUIRE_ADMIN_2FA, passkeys
 * through Chromium's virtual authenticator, no secret in any answer or log line; account-checks.ts), the
 * media group (issue 43: uploads, variants, refusals, the banner, deletes, the preview, a move to
 * PostgreSQL; media-checks.ts), the reach group (issue 44: push through the checker's own push
 * service, the Telegram channel, calendars, feeds and the embed; reach-checks.ts), the phone group
 * (issue 32: axe-core and overlaps in Chromium at 360 and 1280 px on a site of its own, and Lighthouse
 * on every public page kind of the seeded site, alone as phone-lighthouse; phone-checks.ts), the
 * result-time group (issue 46: burst, stampede, Varnish in front, cache headers, 404s, sitemap, a full
 * disk; result-time-checks.ts), the hardening group
 * (the security issue's findings replayed, ~2.5 min; hardening-checks.ts; needs `ulimit -n` above
 * 11 000), and the database-faults group (its own PostgreSQL stopped, frozen; SQLite on a full disk;
 * database-faults-checks.ts). The auth group runs last whatever the order given: it leaves the admin
 * account slowed down.
 */
import os from 'node:os';
import path from 'node:path';
import { createTemporaryDatabase, type TemporaryDatabase } from '../lib/postgres.js';
import { SEED_ADMIN, seedDatabase } from '../lib/seed.js';
import {
  freePort,
  requireBuilt,
  requireWrk,
  type ServerProcess,
  startServer,
} from '../lib/server-process.js';
import { accountChecks } from './account-checks.js';
import { authChecks } from './auth-checks.js';
import { chartsChecks } from './charts-checks.js';
import { coherenceChecks } from './coherence-checks.js';
import { consoleChecks } from './console-checks.js';
import { databaseFaultsChecks } from './database-faults-checks.js';
import { hardeningChecks } from './hardening-checks.js';
import { integrityChecks } from './integrity-checks.js';
import { liveChecks } from './live-checks.js';
import { matkaChecks } from './matka-checks.js';
import { mediaChecks } from './media-checks.js';
import { offlineChecks } from './offline-checks.js';
import { opsChecks } from './ops-checks.js';
import { phoneChecks } from './phone-checks.js';
import { lighthouseChecks } from './phone-lighthouse.js';
import { reachChecks } from './reach-checks.js';
import { resultTimeChecks } from './result-time-checks.js';
import { scaleChecks } from './scale-checks.js';
import { transparencyChecks } from './transparency-checks.js';
import { twoPersonChecks } from './two-person-checks.js';
import type {
  AcceptanceChecks,
  AcceptanceContext,
  CheckResult,
  CheckSettings,
  StandaloneChecks,
} from './types.js';

type Group = { name: string; standalone: StandaloneChecks } | { name: string; checks: AcceptanceChecks };

/** In the order they run: auth last (it slows the admin account down for 15 minutes). */
const GROUPS: Group[] = [
  { name: 'live', checks: liveChecks },
  { name: 'coherence', standalone: coherenceChecks },
  { name: 'scale', checks: scaleChecks },
  { name: 'ops', standalone: opsChecks },
  { name: 'integrity', standalone: integrityChecks },
  { name: 'charts', standalone: chartsChecks },
  { name: 'offline', standalone: offlineChecks },
  { name: 'console', standalone: consoleChecks },
  { name: 'matka', standalone: matkaChecks },
  { name: 'two-person', standalone: twoPersonChecks },
  { name: 'transparency', standalone: transparencyChecks },
  { name: 'account', standalone: accountChecks },
  { name: 'media', standalone: mediaChecks },
  { name: 'reach', standalone: reachChecks },
  { name: 'phone', checks: phoneChecks },
  { name: 'phone-lighthouse', checks: lighthouseChecks },
  { name: 'result-time', standalone: resultTimeChecks },
  { name: 'hardening', standalone: hardeningChecks },
  { name: 'database-faults', standalone: databaseFaultsChecks },
  { name: 'auth', checks: authChecks },
];

const SITE_TIMEZONE = 'Asia/Kolkata';
const LOGIN_MAX_FAILURES = 10;

function log(message: string) {
  process.stdout.write(`${message}\n`);
}

function parseArguments(argv: string[]) {
  const options = {
    ghadis: Number(process.env.ACCEPTANCE_GHADIS ?? 30),
    days: Number(process.env.ACCEPTANCE_DAYS ?? 3650),
  };
  const names: string[] = [];
  for (const argument of argv) {
    const option = /^--(ghadis|days)=(\d+)$/.exec(argument);
    if (option) options[option[1] as 'ghadis' | 'days'] = Number(option[2]);
    else if (GROUPS.some((group) => group.name === argument)) names.push(argument);
    else
      throw new Error(
        `unknown argument ${argument}: groups are ${GROUPS.map((g) => g.name).join(', ')}; options --ghadis=N --days=N`,
      );
  }
  const groups = GROUPS.filter((group) => names.length === 0 || names.includes(group.name));
  return { ...options, groups };
}

/** The seeded database the server runs on: a reused SQLite file, or a fresh PostgreSQL database. */
async function seededTarget(ghadis: number, days: number) {
  let temporary: TemporaryDatabase | undefined;
  let databaseUrl: string;
  if (process.env.ACCEPTANCE_DATABASE_URL) {
    temporary = await createTemporaryDatabase('accept_seed');
    databaseUrl = temporary.url;
  } else {
    const file = path.resolve(
      process.env.ACCEPTANCE_SQLITE_FILE ?? path.join(os.tmpdir(), `ghadi-acceptance-${ghadis}x${days}.db`),
    );
    databaseUrl = `sqlite:${file}`;
  }
  const target = databaseUrl.startsWith('sqlite:')
    ? { kind: 'sqlite' as const, file: databaseUrl.slice('sqlite:'.length) }
    : { kind: 'postgres' as const, url: databaseUrl };
  log(
    `seeding ${ghadis} ghadis × ${days} days into ${temporary ? `PostgreSQL ${temporary.name}` : databaseUrl} …`,
  );
  const seed = await seedDatabase(target, {
    ghadis,
    days,
    admin: SEED_ADMIN,
    siteTimezone: SITE_TIMEZONE,
    log,
  });
  if (seed.reused) log(`reusing it: ${seed.results} results from ${seed.firstDate} to ${seed.lastDate}`);
  return { seed, databaseUrl, temporary };
}

function printTable(rows: Array<{ group: string; result: CheckResult }>) {
  const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');
  log('\n| Group | Check | Result | Figures |');
  log('|---|---|---|---|');
  for (const { group, result } of rows) {
    log(`| ${group} | ${cell(result.name)} | ${result.ok ? 'pass' : '**FAIL**'} | ${cell(result.detail)} |`);
  }
  const failed = rows.filter((row) => !row.result.ok).length;
  log(`\n${rows.length - failed} passed, ${failed} failed`);
}

async function main() {
  const { ghadis, days, groups } = parseArguments(process.argv.slice(2));
  requireBuilt();
  if (groups.some((group) => group.name === 'scale')) requireWrk();
  const settings: CheckSettings = {
    admin: SEED_ADMIN,
    loginMaxFailures: LOGIN_MAX_FAILURES,
    siteTimezone: SITE_TIMEZONE,
  };
  const rows: Array<{ group: string; result: CheckResult }> = [];
  const record = (group: string, results: CheckResult[]) => {
    for (const result of results) {
      rows.push({ group, result });
      log(`${result.ok ? 'pass' : 'FAIL'}  [${group}] ${result.name}: ${result.detail}`);
    }
  };

  let server: ServerProcess | undefined;
  let temporary: TemporaryDatabase | undefined;
  const stop = async () => {
    await server?.stop();
    await temporary?.drop();
  };
  process.once('SIGINT', () => void stop().finally(() => process.exit(130)));
  try {
    let context: AcceptanceContext | undefined;
    if (groups.some((group) => 'checks' in group)) {
      const seeded = await seededTarget(ghadis, days);
      temporary = seeded.temporary;
      const port = await freePort();
      server = await startServer({
        port,
        env: {
          DATABASE_URL: seeded.databaseUrl,
          ADMIN_USERNAME: SEED_ADMIN.username,
          ADMIN_PASSWORD: SEED_ADMIN.password,
          SITE_TIMEZONE,
          LOGIN_MAX_FAILURES: String(LOGIN_MAX_FAILURES),
          TRUST_PROXY: 'loopback',
          PUBLIC_URL: `http://127.0.0.1:${port}`,
          LOG_LEVEL: 'warn',
          NODE_ENV: 'production',
        },
      });
      log(
        `server on ${server.url} (pid ${server.pid}); results from ${seeded.seed.firstDate} to ${seeded.seed.lastDate}`,
      );
      context = { ...settings, baseUrl: server.url, seed: seeded.seed };
    }
    for (const group of groups) {
      log(`\n== ${group.name}`);
      const started = Date.now();
      try {
        if ('standalone' in group) record(group.name, await group.standalone(settings));
        else if (context) record(group.name, await group.checks(context));
      } catch (error) {
        record(group.name, [
          { name: 'the group ran', ok: false, detail: (error as Error).stack ?? String(error) },
        ]);
      }
      log(`(${group.name}: ${((Date.now() - started) / 1000).toFixed(1)} s)`);
    }
  } finally {
    await stop();
  }
  printTable(rows);
  if (rows.length === 0 || rows.some((row) => !row.result.ok)) process.exitCode = 1;
}

main().catch((error: unknown) => {
  process.stderr.write(
    `acceptance failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
