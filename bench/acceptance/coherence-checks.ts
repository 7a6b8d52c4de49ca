/**
 * Issue 8's "Done when", from outside: two instances of the built server (node dist/server/server.js)
 * on two ports and one database — a fresh PostgreSQL database (created here, dropped after), then one
 * fresh SQLite file — started at the same moment, and checked for:
 * - the first start done once: one admin, seven ghadis, one JWT secret (looked up in the database);
 * - writes on A showing on B within 1 s, reads and live stream (coherence-writes.ts);
 * - LOGIN_MAX_FAILURES failed logins for one account and address, spread over both, lock the next
 *   attempt on either (429);
 * - visits tracked on A and on B counted in GET /api/visitor/stats on either within 5 s.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { addressSource, send, signIn } from '../lib/client.js';
import { createTemporaryDatabase } from '../lib/postgres.js';
import { freePort, type ServerProcess, startServer } from '../lib/server-process.js';
import { check } from './check.js';
import { type Pair, writeChecks } from './coherence-writes.js';
import type { CheckResult, CheckSettings, StandaloneChecks } from './types.js';

const VISITS_WITHIN_MS = 5000;

interface FirstStart {
  admins: number;
  ghadis: number;
  secrets: number;
}

interface Backend {
  label: string;
  databaseUrl: string;
  /** What the first start left in the database. */
  firstStart(): Promise<FirstStart>;
  remove(): Promise<void>;
}

const FIRST_START_SQL = {
  admins: "select count(*) as n from users where user_type = 'admin'",
  ghadis: 'select count(*) as n from ghadis',
  secrets: "select count(*) as n from settings where key = 'jwt_secret'",
};

async function postgresBackend(): Promise<Backend> {
  const database = await createTemporaryDatabase('accept');
  const count = async (query: string) => Number((await database.query<{ n: string }>(query))[0]?.n ?? -1);
  return {
    label: `PostgreSQL (database ${database.name})`,
    databaseUrl: database.url,
    firstStart: async () => ({
      admins: await count(FIRST_START_SQL.admins),
      ghadis: await count(FIRST_START_SQL.ghadis),
      secrets: await count(FIRST_START_SQL.secrets),
    }),
    remove: () => database.drop(),
  };
}

function sqliteBackend(): Backend {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ghadi-coherence-'));
  const file = path.join(dir, 'shared.db');
  return {
    label: 'SQLite (one file)',
    databaseUrl: `sqlite:${file}`,
    firstStart: async () => {
      const sqlite = new SQLite(file, { readonly: true });
      try {
        const count = (query: string) => Number((sqlite.prepare(query).get() as { n: number }).n);
        return {
          admins: count(FIRST_START_SQL.admins),
          ghadis: count(FIRST_START_SQL.ghadis),
          secrets: count(FIRST_START_SQL.secrets),
        };
      } finally {
        sqlite.close();
      }
    },
    remove: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

async function loginsShared(
  pair: Pair,
  settings: CheckSettings,
  nextAddress: () => string,
): Promise<CheckResult> {
  const limit = settings.loginMaxFailures;
  return check(
    `${limit} failed logins spread over A and B lock the next attempt on either (429)`,
    async () => {
      const username = `coherence${Date.now().toString(36)}`;
      const created = await send(pair.a, '/api/users', {
        method: 'POST',
        token: pair.adminToken,
        address: pair.address,
        json: {
          UserName: username,
          DisplayName: 'Coherence',
          Email: `${username}@example.com`,
          Password: 'right-password',
          isActive: true,
        },
      });
      if (created.status !== 201 && created.status !== 200)
        throw new Error(`creating an agent answered ${created.status}`);
      const address = nextAddress();
      const attempt = (base: string) =>
        send(base, '/api/users/login', {
          method: 'POST',
          address,
          json: { UserName: username, Password: 'wrong-password' },
        });
      const statuses: number[] = [];
      for (let index = 0; index < limit; index++)
        statuses.push((await attempt(index % 2 ? pair.b : pair.a)).status);
      const onA = await attempt(pair.a);
      const onB = await attempt(pair.b);
      const unauthorized = statuses.filter((status) => status === 401).length;
      return {
        ok: unauthorized === limit && onA.status === 429 && onB.status === 429,
        detail:
          `${unauthorized} of ${limit} alternating attempts answered 401; then A ${onA.status} ` +
          `(Retry-After ${onA.headers['retry-after'] ?? '-'}), B ${onB.status} (Retry-After ${onB.headers['retry-after'] ?? '-'})`,
      };
    },
  );
}

async function visitsShared(pair: Pair, origin: string): Promise<CheckResult> {
  return check('visits tracked on A and on B count on either within 5 s', async () => {
    const stats = async (base: string) =>
      (
        JSON.parse((await send(base, '/api/visitor/stats', { address: pair.address })).body.toString()) as {
          totalUsers: number;
        }
      ).totalUsers;
    const before = { a: await stats(pair.a), b: await stats(pair.b) };
    const started = Date.now();
    const track = (base: string, session: string) =>
      send(base, '/api/visitor/track', {
        method: 'POST',
        address: pair.address,
        headers: { 'x-session-id': session, origin },
      });
    const tracked = [
      await track(pair.a, `coherence-a-${started}`),
      await track(pair.b, `coherence-b-${started}`),
    ];
    if (tracked.some((answer) => answer.status !== 200))
      throw new Error(`tracking answered ${tracked.map((t) => t.status)}`);
    const seen: { a?: number; b?: number } = {};
    let last = before;
    while (Date.now() - started < VISITS_WITHIN_MS * 2 && (seen.a === undefined || seen.b === undefined)) {
      last = { a: await stats(pair.a), b: await stats(pair.b) };
      if (seen.a === undefined && last.a >= before.a + 2) seen.a = Date.now() - started;
      if (seen.b === undefined && last.b >= before.b + 2) seen.b = Date.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const within = (ms: number | undefined) => ms !== undefined && ms <= VISITS_WITHIN_MS;
    return {
      ok: within(seen.a) && within(seen.b),
      detail:
        `totalUsers on A ${before.a} → ${last.a} (both visits after ${seen.a ?? 'never'} ms), ` +
        `on B ${before.b} → ${last.b} (after ${seen.b ?? 'never'} ms)`,
    };
  });
}

async function onBackend(backend: Backend, settings: CheckSettings): Promise<CheckResult[]> {
  const [portA, portB] = [await freePort(), await freePort()];
  const origin = `http://127.0.0.1:${portA}`;
  const env = {
    DATABASE_URL: backend.databaseUrl,
    ADMIN_USERNAME: settings.admin.username,
    ADMIN_PASSWORD: settings.admin.password,
    SITE_TIMEZONE: settings.siteTimezone,
    LOGIN_MAX_FAILURES: String(settings.loginMaxFailures),
    // Behind one load balancer: one public address, client addresses from X-Forwarded-For.
    PUBLIC_URL: origin,
    TRUST_PROXY: 'loopback',
    LOG_LEVEL: 'warn',
    WORKERS: '1',
  };
  const servers: ServerProcess[] = [];
  const results: CheckResult[] = [];
  const label = (result: CheckResult) => ({ ...result, name: `${backend.label}: ${result.name}` });
  try {
    // Both at once on the empty database: the first start must happen once.
    const started = await Promise.allSettled([
      startServer({ port: portA, env }),
      startServer({ port: portB, env }),
    ]);
    for (const one of started) if (one.status === 'fulfilled') servers.push(one.value);
    const failed = started.find((one) => one.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    results.push(
      label(
        await check(
          'two instances started at once create one admin, seven ghadis and one JWT secret',
          async () => {
            const found = await backend.firstStart();
            return {
              ok: found.admins === 1 && found.ghadis === 7 && found.secrets === 1,
              detail: `${found.admins} admin, ${found.ghadis} ghadis, ${found.secrets} JWT secret in the database`,
            };
          },
        ),
      ),
    );
    const nextAddress = addressSource();
    const address = nextAddress();
    const pair: Pair = {
      a: origin,
      b: `http://127.0.0.1:${portB}`,
      address,
      adminToken: await signIn(origin, settings.admin, address),
    };
    results.push(...(await writeChecks(pair)).map(label));
    results.push(label(await loginsShared(pair, settings, nextAddress)));
    results.push(label(await visitsShared(pair, origin)));
  } catch (error) {
    const output = servers.map((server) => server.output().slice(-2000)).join('\n');
    results.push({
      name: `${backend.label}: the checks ran`,
      ok: false,
      detail: `${(error as Error).message}\n${output}`,
    });
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    await backend.remove();
  }
  return results;
}

export const coherenceChecks: StandaloneChecks = async (settings) => {
  const results: CheckResult[] = [];
  let postgres: Backend | undefined;
  try {
    postgres = await postgresBackend();
  } catch (error) {
    results.push({ name: 'PostgreSQL: a fresh database', ok: false, detail: (error as Error).message });
  }
  if (postgres) results.push(...(await onBackend(postgres, settings)));
  results.push(...(await onBackend(sqliteBackend(), settings)));
  return results;
};
