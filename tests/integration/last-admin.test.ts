import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows } from '../../src/server/db/database.js';
import { PasswordHasher } from '../../src/server/lib/passwords.js';
import { type AppProcess, startAppProcess } from '../support/app-process.js';
import { type CallOptions, call, loginAs, unique } from '../support/factories.js';
import { createTestApp, DIALECTS, type TestApp, tempDir } from '../support/test-app.js';

const PASSWORD = 'second-admin-password';
const ROUNDS = 3;
/** Long enough for both requests to have read the admins and to be waiting to write. */
const GATE_MS = 500;
/** Two server processes starting at once on a machine shared with other test runs. */
const STARTUP_TIMEOUT_MS = 90_000;

/** Where a request goes: an app in this process, or a server in a process of its own. */
type Target = FastifyInstance | AppProcess;

function isProcess(target: Target): target is AppProcess {
  return 'stop' in target && typeof target.url === 'string';
}

async function send(target: Target, options: CallOptions): Promise<number> {
  if (!isProcess(target)) return (await call(target, options)).statusCode;
  const response = await fetch(`${target.url}${options.url}`, {
    method: options.method ?? 'GET',
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  await response.arrayBuffer();
  return response.status;
}

/**
 * The two requests of each round go to two processes at once, while a third connection holds the
 * users table's writes back for a moment: without one transaction and a lock, both requests read
 * two active admins, then both write. SQLite: two server processes on the file (this process's
 * connection holds the write lock). PostgreSQL: two app instances whose pooled connections run in
 * parallel (this test's own connection holds a lock that lets reads through but not updates).
 */
describe.each(DIALECTS)('the last active admin under concurrent requests [%s]', (dialect) => {
  const dir = tempDir();
  let t: TestApp;
  const targets: Target[] = [];

  beforeAll(async () => {
    const sqliteFile = path.join(dir(), 'last-admin.db');
    t = await createTestApp(dialect, { sqliteFile });
    if (dialect === 'postgres') {
      targets.push(t.app, await t.startAnother());
    } else {
      const env = { DATABASE_URL: `sqlite:${sqliteFile}`, WEB_ROOT: path.join(dir(), 'no-web-app') };
      targets.push(...(await Promise.all([startAppProcess(env), startAppProcess(env)])));
    }
  }, STARTUP_TIMEOUT_MS);
  afterAll(async () => {
    await Promise.all(targets.filter(isProcess).map((target) => target.stop()));
    await t?.close();
  });

  /** Runs the requests while the users table's writes are held back for GATE_MS. */
  async function behindGate<T>(requests: () => Promise<T>): Promise<T> {
    let answers: Promise<T> | undefined;
    await t.database.db.connection().execute(async (connection) => {
      if (dialect === 'sqlite') await sql`begin immediate`.execute(connection);
      else await sql`begin; lock table users in share row exclusive mode`.execute(connection);
      answers = requests();
      await sleep(GATE_MS);
      await sql`commit`.execute(connection);
    });
    if (!answers) throw new Error('The requests were not sent');
    return answers;
  }

  const activeAdmins = () =>
    countRows(
      t.database.db
        .selectFrom('users')
        .where('user_type', '=', 'admin')
        .where('is_active', '=', 1)
        .where('is_deleted', '=', 0),
    );

  /** Two fresh admins, signed in, and no other active admin: each is the other's only peer. */
  async function twoLastAdmins() {
    const hash = await new PasswordHasher(t.config.passwordMemoryCost).hash(PASSWORD);
    await t.database.db.updateTable('users').set({ is_active: 0 }).where('user_type', '=', 'admin').execute();
    const admins = [];
    for (const name of [unique('first'), unique('second')]) {
      const now = new Date().toISOString();
      const { user_id } = await t.database.db
        .insertInto('users')
        .values({
          username: name,
          display_name: name,
          email: `${name}@example.com`,
          password_hash: hash,
          user_type: 'admin',
          is_active: 1,
          created_at: now,
          updated_at: now,
        })
        .returning('user_id')
        .executeTakeFirstOrThrow();
      admins.push({ id: user_id, name, token: await loginAs(t.app, name, PASSWORD) });
    }
    expect(await activeAdmins()).toBe(2);
    return admins as [(typeof admins)[0], (typeof admins)[0]];
  }

  async function race(first: CallOptions, second: CallOptions): Promise<number[]> {
    const [here, there] = targets as [Target, Target];
    return behindGate(() => Promise.all([send(here, first), send(there, second)]));
  }

  /** One request wins; the other is refused (409), or finds its caller already gone or demoted. */
  function expectOneWinner(statuses: number[]) {
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    for (const status of statuses) expect([200, 401, 403, 409]).toContain(status);
  }

  it('two admins deactivating each other at the same moment leave one active admin', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const [first, other] = await twoLastAdmins();
      const deactivate = (caller: typeof first, target: typeof first): CallOptions => ({
        method: 'PUT',
        url: `/api/users/${target.id}`,
        token: caller.token,
        body: { UserName: target.name, DisplayName: 'Admin', Email: 'admin@example.com', isActive: false },
      });
      expectOneWinner(await race(deactivate(first, other), deactivate(other, first)));
      expect(await activeAdmins()).toBe(1);
    }
  });

  it('two admins deleting and demoting each other at the same moment leave one active admin', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const [first, other] = await twoLastAdmins();
      const remove: CallOptions = { method: 'DELETE', url: `/api/users/${other.id}`, token: first.token };
      const demote: CallOptions = {
        method: 'PUT',
        url: `/api/users/${first.id}`,
        token: other.token,
        body: { UserName: first.name, DisplayName: 'Admin', Email: 'admin@example.com', UserType: 'agent' },
      };
      expectOneWinner(await (round % 2 === 0 ? race(remove, demote) : race(demote, remove)));
      expect(await activeAdmins()).toBe(1);
    }
  });
});
