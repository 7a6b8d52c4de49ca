/**
 * The bench, run by hand (not part of npm test): `npm run bench` (builds first), or with a build in
 * place `npx tsx bench/run-bench.ts [hot] [workers] [lists]` to run some scenarios only (default: all).
 *
 * - hot: the public hot paths against a bare node:http server sending the same bytes (issue 7);
 * - workers: req/s with WORKERS=2 against WORKERS=1 (issue 8);
 * - lists: paged and searched lists on ten years of results, and public reads beside unpaged
 *   admin lists (issue 9);
 * - burst: result time on one origin, a declaration amid 200 connections reading the mix (issue 46);
 * - stampede: every year chart asked at once after a declaration, against a bare server (issue 46);
 * - varnish: the mix at full rate through Debian's Varnish with declarations every 10 s (issue 46);
 * - log: the transparency log at a million entries, on SQLite and PostgreSQL (issue 41);
 * - push: a declaration to 10 000 Web Push subscriptions, with reads beside it and a restart (issue 44).
 *
 * Each seeds a SQLite file first (bench/lib/seed.ts) and starts the built server on it. Knobs
 * (environment): BENCH_SECONDS (5), BENCH_ROUNDS (3), BENCH_CONNECTIONS (50), BENCH_GHADIS (30),
 * BENCH_DAYS (365), BENCH_LIST_DAYS (3650), BENCH_LIST_CONNECTIONS (1), BENCH_LOAD_SECONDS (10),
 * BENCH_DATABASE and BENCH_LIST_DATABASE (files seeded once and reused). See bench/README.md.
 */
import fs from 'node:fs';
import { requireBuilt, requireWrk } from './lib/server-process.js';
import { behindVarnishScenario } from './scenarios/behind-varnish.js';
import { burstScenario } from './scenarios/burst.js';
import { hotPaths } from './scenarios/hot-paths.js';
import { listsScenario } from './scenarios/lists.js';
import { transparencyLogScenario } from './scenarios/log-at-scale.js';
import { pushScenario } from './scenarios/push-at-scale.js';
import { benchDir, SETTINGS, type Seeded, seededFile } from './scenarios/setup.js';
import { stampedeScenario } from './scenarios/stampede.js';
import { workersScenario } from './scenarios/workers.js';

const SCENARIOS = ['hot', 'workers', 'lists', 'burst', 'stampede', 'varnish', 'log', 'push'] as const;
type Scenario = (typeof SCENARIOS)[number];

function chosen(argv: string[]): Scenario[] {
  for (const argument of argv) {
    if (!SCENARIOS.includes(argument as Scenario)) {
      throw new Error(`unknown scenario ${argument}: choose among ${SCENARIOS.join(', ')}`);
    }
  }
  return SCENARIOS.filter((scenario) => argv.length === 0 || argv.includes(scenario));
}

async function main() {
  const scenarios = chosen(process.argv.slice(2));
  requireBuilt();
  requireWrk();
  const dir = benchDir();
  process.on('SIGINT', () => {
    fs.rmSync(dir, { recursive: true, force: true });
    process.exit(130);
  });
  let allMet = true;
  try {
    let year: Seeded | undefined;
    const yearOfResults = async () => {
      year ??= await seededFile(dir, SETTINGS.days, 'BENCH_DATABASE');
      return year;
    };
    let tenYears: Seeded | undefined;
    const tenYearsOfResults = async () => {
      tenYears ??= await seededFile(dir, SETTINGS.listDays, 'BENCH_LIST_DATABASE');
      return tenYears;
    };
    for (const scenario of scenarios) {
      process.stdout.write(`\n== ${scenario}\n`);
      if (scenario === 'hot') allMet = (await hotPaths(await yearOfResults(), dir)) && allMet;
      if (scenario === 'workers') allMet = (await workersScenario(await yearOfResults())) && allMet;
      if (scenario === 'lists') allMet = (await listsScenario(await tenYearsOfResults())) && allMet;
      if (scenario === 'burst')
        allMet = (await burstScenario(await tenYearsOfResults(), dir, SETTINGS.rounds)).met && allMet;
      if (scenario === 'varnish')
        allMet = (await behindVarnishScenario(await tenYearsOfResults(), dir)).met && allMet;
      if (scenario === 'log')
        allMet = (await transparencyLogScenario(await tenYearsOfResults(), dir)).met && allMet;
      if (scenario === 'push') allMet = (await pushScenario(await yearOfResults(), dir)).met && allMet;
      if (scenario === 'stampede')
        allMet = (await stampedeScenario(await tenYearsOfResults(), dir, SETTINGS.rounds)).met && allMet;
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  if (!allMet) process.exitCode = 1;
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
