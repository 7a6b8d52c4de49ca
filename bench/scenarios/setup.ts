/**
 * What the bench's scenarios share: their knobs (environment), a seeded SQLite file per data size,
 * and the server's environment as in production.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SEED_ADMIN, type SeedSummary, seedDatabase } from '../lib/seed.js';

export const SETTINGS = {
  seconds: Number(process.env.BENCH_SECONDS ?? 5),
  rounds: Number(process.env.BENCH_ROUNDS ?? 3),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 50),
  ghadis: Number(process.env.BENCH_GHADIS ?? 30),
  /** The hot paths' and the workers' data: a year of results. */
  days: Number(process.env.BENCH_DAYS ?? 365),
  /** The list scenarios' data: ten years of results. */
  listDays: Number(process.env.BENCH_LIST_DAYS ?? 3650),
  /** Seconds the unpaged admin lists run while GET /api/ghadis is measured. */
  loadSeconds: Number(process.env.BENCH_LOAD_SECONDS ?? 10),
  /** The hot rows measured: those whose label contains this text (default: all). */
  rows: process.env.BENCH_ROWS ?? '',
  /** The hot rows' servers loaded one at a time (`alternate`), all at once (`together`), or both (default). */
  load: process.env.BENCH_LOAD ?? 'both',
};

export const SITE_TIMEZONE = 'Asia/Kolkata';
/** What a browser sends; the servers answer it with pre-compressed bytes. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

export function log(message: string) {
  process.stdout.write(`${message}\n`);
}

/** What a scenario found: whether its targets were met, and its figures in a line or two. */
export interface Verdict {
  met: boolean;
  summary: string;
}

export interface Seeded {
  file: string;
  seed: SeedSummary;
}

/**
 * A SQLite file seeded with `days` of results for each ghadi: the file named by `reuseVariable`
 * (seeded on the first run and reused after), or a new one in `dir`.
 */
export async function seededFile(dir: string, days: number, reuseVariable: string): Promise<Seeded> {
  const named = process.env[reuseVariable];
  const file = named ? path.resolve(named) : path.join(dir, `bench-${SETTINGS.ghadis}x${days}.db`);
  log(`seeding ${SETTINGS.ghadis} ghadis × ${days} days into ${file} …`);
  const seed = await seedDatabase(
    { kind: 'sqlite', file },
    { ghadis: SETTINGS.ghadis, days, admin: SEED_ADMIN, siteTimezone: SITE_TIMEZONE },
  );
  log(
    `${seed.reused ? 'reused' : 'seeded'}: ${seed.results} results from ${seed.firstDate} to ${seed.lastDate}`,
  );
  return { file, seed };
}

export function benchDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'ghadi-bench-'));
}

/** The address a bench server listens on (startServer's host), which is also its PUBLIC_URL. */
export function localOrigin(port: number): string {
  return `http://127.0.0.1:${port}`;
}

/**
 * The environment of a server listening on `port`, as in production: its log on (LOG_LEVEL=info),
 * PUBLIC_URL its own origin.
 */
export function serverEnv(
  databaseFile: string,
  port: number,
  extra: NodeJS.ProcessEnv = {},
): NodeJS.ProcessEnv {
  return {
    DATABASE_URL: `sqlite:${databaseFile}`,
    ADMIN_USERNAME: SEED_ADMIN.username,
    ADMIN_PASSWORD: SEED_ADMIN.password,
    SITE_TIMEZONE,
    LOG_LEVEL: 'info',
    NODE_ENV: 'production',
    PUBLIC_URL: localOrigin(port),
    // Every wrk connection comes from 127.0.0.1: count them all, the worst case for storage.
    VISITOR_NEW_SESSIONS_PER_MINUTE: '1000000',
    ...extra,
  };
}
