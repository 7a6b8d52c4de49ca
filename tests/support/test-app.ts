import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { type BuildOptions, buildApp } from '../../src/server/app.js';
import { type AppConfig, loadConfig } from '../../src/server/config.js';
import { type Database, type Dialect, openDatabase } from '../../src/server/db/database.js';

export type { Dialect };

export const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** PostgreSQL is part of the suite; only SKIP_POSTGRES=1 leaves it out (tests/support/global-setup.ts says so). */
export const SKIP_POSTGRES = process.env.SKIP_POSTGRES === '1';

/** The dialects every integration file runs its suites on: `describe.each(DIALECTS)`. */
export const DIALECTS: Dialect[] = SKIP_POSTGRES ? ['sqlite'] : ['sqlite', 'postgres'];

export const ADMIN_USERNAME = 'root-admin';
export const ADMIN_PASSWORD = 'admin-password-123';
export const SITE_TIMEZONE = 'Asia/Kolkata';

export interface TestApp {
  dialect: Dialect;
  config: AppConfig;
  database: Database;
  /** The running app; replaced by restart(). */
  app: FastifyInstance;
  /** Closes the running app (its visitor counter flushes) and starts a new one on the same database. */
  restart(): Promise<FastifyInstance>;
  /**
   * Starts one more app on the same database next to the running one; closed by close(). With
   * `ownConnection` it opens the database itself, as another process would (SQLite needs a file).
   */
  startAnother(options?: { ownConnection?: boolean }): Promise<FastifyInstance>;
  /** Closes every app, the database, and (PostgreSQL) drops the test schema. */
  close(): Promise<void>;
}

/** The configuration as the server would load it from a minimal environment, tuned for tests. */
export function testConfig(env: Record<string, string> = {}): AppConfig {
  const config = loadConfig({
    ADMIN_USERNAME,
    ADMIN_PASSWORD,
    SITE_TIMEZONE,
    LOG_LEVEL: 'silent',
    DATABASE_URL: 'sqlite::memory:',
    // Tests declare many results a (frozen) minute; the limit's own test sets its own.
    SUBMISSIONS_PER_USER_PER_MINUTE: '1000000',
    ...env,
  });
  return { ...config, passwordMemoryCost: 1024, visitorFlushMs: 50 };
}

/**
 * The output a test app's first start sees: never a terminal, whatever runs the suite, so that a
 * generated admin password goes to its file (and printing it would fail the test).
 */
export const NO_TERMINAL = {
  isTTY: false,
  write(): never {
    throw new Error('A test app printed a password to the terminal');
  },
};

function randomSchemaName(): string {
  return `test_${Date.now().toString(36)}_${randomBytes(5).toString('hex')}`;
}

/** A client on the test suite's PostgreSQL database, with a clear message when it is not running. */
export async function withAdminClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL is required by the test suite but is not reachable at ${POSTGRES_URL} ` +
        `(${(error as Error).message}). Start it (pg_ctlcluster --skip-systemctl-redirect <version> main start) ` +
        'or run with SKIP_POSTGRES=1 to leave the PostgreSQL variants out.',
    );
  }
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function openTestDatabase(
  dialect: Dialect,
  sqliteFile: string,
): Promise<{ database: Database; dropDatabase: () => Promise<void>; target: AppConfig['database'] }> {
  if (dialect === 'sqlite') {
    const target = { kind: 'sqlite' as const, file: sqliteFile };
    return { database: openDatabase(target), dropDatabase: async () => {}, target };
  }
  if (SKIP_POSTGRES) throw new Error('PostgreSQL variants are skipped (SKIP_POSTGRES=1)');
  const schema = randomSchemaName();
  await withAdminClient((client) => client.query(`create schema ${schema}`));
  const target = { kind: 'postgres' as const, url: POSTGRES_URL };
  return {
    database: openDatabase(target, { pgSchema: schema }),
    dropDatabase: () =>
      withAdminClient((client) => client.query(`drop schema ${schema} cascade`)).then(() => undefined),
    target,
  };
}

/**
 * A fresh app on a fresh database: SQLite in memory, or a new PostgreSQL schema with a random name.
 * `sqliteFile` may name a file instead of memory (tests that reopen the database themselves).
 */
export async function createTestApp(
  dialect: Dialect,
  options: {
    env?: Record<string, string>;
    sqliteFile?: string;
    liveEvents?: BuildOptions['liveEvents'];
    /** Serve the built web app and server-rendered pages too (needs `npm run build`). */
    serveWebApp?: boolean;
    /** The limits' and throttles' clock (a TestClock's `now`). */
    now?: BuildOptions['now'];
    /** The limits on building public answers other than the defaults. */
    buildLimits?: BuildOptions['buildLimits'];
    /** Settings that are no environment variable's (where the first admin's password file goes). */
    config?: Partial<AppConfig>;
    /** The notification sender's pace and trust (a short poll, a local push service's CA). */
    notifications?: BuildOptions['notifications'];
  } = {},
): Promise<TestApp> {
  const base = { ...testConfig(options.env), ...options.config };
  const { database, dropDatabase, target } = await openTestDatabase(
    dialect,
    options.sqliteFile ?? ':memory:',
  );
  const config: AppConfig = { ...base, database: target };
  const apps: FastifyInstance[] = [];
  const connections: Database[] = [];
  const start = async (startOptions: { ownConnection?: boolean } = {}) => {
    let own: Database | undefined;
    if (startOptions.ownConnection) {
      if (target.kind === 'sqlite' && target.file === ':memory:')
        throw new Error('Another connection to SQLite needs a file: pass sqliteFile');
      own = openDatabase(target, database.pgSchema ? { pgSchema: database.pgSchema } : {});
      connections.push(own);
    }
    const app = await buildApp(config, {
      database: own ?? database,
      logger: false,
      terminal: NO_TERMINAL,
      serveWebApp: options.serveWebApp ?? false,
      ...(options.liveEvents ? { liveEvents: options.liveEvents } : {}),
      ...(options.now ? { now: options.now } : {}),
      ...(options.buildLimits ? { buildLimits: options.buildLimits } : {}),
      ...(options.notifications ? { notifications: options.notifications } : {}),
    });
    apps.push(app);
    return app;
  };

  let app: FastifyInstance;
  try {
    app = await start();
  } catch (error) {
    await database.close();
    await dropDatabase();
    throw error;
  }

  const testApp: TestApp = {
    dialect,
    config,
    database,
    app,
    async restart() {
      await testApp.app.close();
      testApp.app = await start();
      return testApp.app;
    },
    startAnother: start,
    async close() {
      for (const running of apps) await running.close();
      for (const connection of connections) await connection.close();
      await database.close();
      await dropDatabase();
    },
  };
  return testApp;
}

/**
 * One app per suite: built before the suite's tests, closed after them.
 * The returned object reads the app once it exists.
 */
export function useTestApp(
  dialect: Dialect,
  options: { env?: Record<string, string>; now?: BuildOptions['now']; serveWebApp?: boolean } = {},
): TestApp {
  let current: TestApp | undefined;
  beforeAll(async () => {
    current = await createTestApp(dialect, options);
  });
  afterAll(async () => {
    await current?.close();
  });
  const ready = (): TestApp => {
    if (!current) throw new Error('The test app is not ready (did its beforeAll fail?)');
    return current;
  };
  return {
    dialect,
    get config() {
      return ready().config;
    },
    get database() {
      return ready().database;
    },
    get app() {
      return ready().app;
    },
    restart: () => ready().restart(),
    startAnother: (options) => ready().startAnother(options),
    close: () => ready().close(),
  };
}

/** Whether the web app and the server renderer are built (npm run build; `npm test` builds first). */
export const WEB_BUILT =
  fs.existsSync(path.resolve('dist/web/public.html')) &&
  fs.existsSync(path.resolve('dist/ssr/entry-server.js'));

/** Says once, out loud, why a file's page tests are skipped when the web app is not built. */
export function noteUnbuilt(file: string): void {
  if (!WEB_BUILT) {
    process.stderr.write(
      `\n  ${file}: dist is not built, so the server-rendered page tests are skipped ` +
        '(run npm run build first; npm test does).\n\n',
    );
  }
}

/** A temporary directory for the enclosing suite: made before its tests, removed after them. */
export function tempDir(): () => string {
  let dir: string | undefined;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ghadi-test-'));
  });
  afterAll(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    if (!dir) throw new Error('The temporary directory is made before the suite’s tests');
    return dir;
  };
}
