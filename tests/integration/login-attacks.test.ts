import type { FastifyInstance } from 'fastify';
import type { CompiledQuery, KyselyPlugin } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/database.js';
import { migrateToLatest } from '../../src/server/db/migrate.js';
import * as countsMigration from '../../src/server/db/migrations/2026-11-26-0101-login-attempt-counts.js';
import {
  ACCOUNT_DELAY_CAP_SECONDS,
  ADDRESS_LIMIT_FACTOR,
  LOGIN_WINDOW_MS,
  LoginThrottle,
} from '../../src/server/lib/login-throttle.js';
import {
  LoginAttemptsRepository,
  PRUNE_BATCH,
} from '../../src/server/modules/auth/login-attempts-repository.js';
import { call, createAgent, type Failure, loginAdmin, type Response } from '../support/factories.js';
import { DIALECTS, openTestDatabase, useTestApp } from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';

const MAX_FAILURES = 10;
const WINDOW_SECONDS = LOGIN_WINDOW_MS / 1000;

let addressSequence = 0;
/** An IPv4 address no other test here uses (from TEST-NET-2). */
function freshAddress(): string {
  addressSequence += 1;
  return `198.51.${(addressSequence >> 8) & 255}.${addressSequence & 255}`;
}

let networkSequence = 0;
/** A /64 network of its own, as a prefix to which an interface id is appended. */
function freshIpv6Network(): string {
  networkSequence += 1;
  return `2001:db8:${(process.pid & 0xffff).toString(16)}:${networkSequence.toString(16)}:`;
}

function retryAfter(response: Response): number {
  return Number(response.headers['retry-after']);
}

interface Statement {
  sql: string;
  parameters: readonly unknown[];
  /** Rows answered (a select, or a write's `returning`). */
  rows: number;
  /** Rows inserted, updated or deleted. */
  affected: number;
}

/** The database, recording each statement run through it with the rows it answered and changed. */
function recording(database: Database, statements: Statement[]): Database {
  const executor = database.db.getExecutor();
  const compiled = new WeakMap<object, CompiledQuery>();
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      compiled.set(args.queryId, executor.compileQuery(args.node, args.queryId));
      return args.node;
    },
    async transformResult(args) {
      const query = compiled.get(args.queryId);
      if (query) {
        statements.push({
          sql: query.sql,
          parameters: query.parameters,
          rows: args.result.rows.length,
          affected: Number(args.result.numAffectedRows ?? 0),
        });
      }
      return args.result;
    },
  };
  return { ...database, db: database.db.withPlugin(plugin) };
}

/** Inserts rows a few hundred at a time (the drivers bound the parameters of one statement). */
async function insertMany<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < rows.length; start += 500) await insert(rows.slice(start, start + 500));
}

/**
 * Every test app here sits behind a proxy on loopback (app.inject's requests come from 127.0.0.1), so
 * a test picks its client address with X-Forwarded-For, as the proxy would write it.
 */
describe.each(DIALECTS)('login throttle [%s]', (dialect) => {
  const clock = new TestClock();
  const t = useTestApp(dialect, { env: { TRUST_PROXY: 'loopback' }, now: clock.now });
  let adminToken: string;

  beforeAll(async () => {
    adminToken = await loginAdmin(t.app);
  });

  const attempt = (UserName: string, Password: string, address: string, app: FastifyInstance = t.app) =>
    call(app, {
      method: 'POST',
      url: '/api/users/login',
      body: { UserName, Password },
      headers: { 'x-forwarded-for': address },
    });

  const statuses = (responses: Response[]) => responses.map((response) => response.statusCode);
  const countOf = (responses: Response[], status: number) =>
    responses.filter((response) => response.statusCode === status).length;

  function expectTooMany(response: Response, maxSeconds: number) {
    expect(response.statusCode).toBe(429);
    expect(response.json<Failure>()).toMatchObject({ success: false, message: expect.any(String) });
    expect(retryAfter(response)).toBeGreaterThan(0);
    expect(retryAfter(response)).toBeLessThanOrEqual(maxSeconds);
  }

  /** Signs in as the owner would: waits (on the test clock) as long as each 429 says, a few times at most. */
  async function signInPatiently(UserName: string, Password: string, address: string) {
    const waits: number[] = [];
    let response = await attempt(UserName, Password, address);
    while (response.statusCode === 429 && waits.length < 3) {
      waits.push(retryAfter(response));
      clock.advance(retryAfter(response) * 1000);
      response = await attempt(UserName, Password, address);
    }
    return { response, waits };
  }

  it('30 parallel wrong logins from one address: 10 answer 401, the rest 429 with Retry-After', async () => {
    const agent = await createAgent(t.app, adminToken);
    const attacker = freshAddress();
    const responses = await Promise.all(
      Array.from({ length: 30 }, () => attempt(agent.user.UserName, 'wrong-password', attacker)),
    );
    expect(countOf(responses, 401)).toBe(MAX_FAILURES);
    expect(countOf(responses, 429)).toBe(30 - MAX_FAILURES);
    for (const response of responses.filter((each) => each.statusCode === 429)) {
      expectTooMany(response, WINDOW_SECONDS);
    }
    // The pair is locked for the window, even for the right password.
    expectTooMany(await attempt(agent.user.UserName, agent.password, attacker), WINDOW_SECONDS);
    expect(retryAfter(await attempt(agent.user.UserName, agent.password, attacker))).toBeGreaterThan(
      ACCOUNT_DELAY_CAP_SECONDS,
    );
  });

  it('after that attack the owner signs in from another address, after one short wait at most', async () => {
    const agent = await createAgent(t.app, adminToken);
    const attacker = freshAddress();
    await Promise.all(
      Array.from({ length: 30 }, () => attempt(agent.user.UserName, 'wrong-password', attacker)),
    );

    const owner = freshAddress();
    const first = await attempt(agent.user.UserName, agent.password, owner);
    expectTooMany(first, ACCOUNT_DELAY_CAP_SECONDS);
    expect(first.json<Failure>().message).toMatch(/second/);
    const { response, waits } = await signInPatiently(agent.user.UserName, agent.password, owner);
    expect(response.statusCode).toBe(200);
    expect(waits.length).toBeLessThanOrEqual(1);

    // Signed in once, the owner's address is not slowed down again.
    expect((await attempt(agent.user.UserName, agent.password, owner)).statusCode).toBe(200);
    // The owner's success clears the owner's own failures only: the attacker stays locked out.
    expectTooMany(await attempt(agent.user.UserName, agent.password, attacker), WINDOW_SECONDS);
  });

  it('an attack from many addresses slows the account down for a few seconds but never locks it', async () => {
    const agent = await createAgent(t.app, adminToken);
    const responses = await Promise.all(
      Array.from({ length: 30 }, () => attempt(agent.user.UserName, 'wrong-password', freshAddress())),
    );
    expect(countOf(responses, 401)).toBeLessThanOrEqual(MAX_FAILURES);
    expect(countOf(responses, 401) + countOf(responses, 429)).toBe(30);
    for (const response of responses.filter((each) => each.statusCode === 429)) {
      expectTooMany(response, ACCOUNT_DELAY_CAP_SECONDS);
    }
    const { response } = await signInPatiently(agent.user.UserName, agent.password, freshAddress());
    expect(response.statusCode).toBe(200);
  });

  it('groups IPv6 addresses by /64, and counts an IPv4-mapped address as its IPv4 address', async () => {
    const agent = await createAgent(t.app, adminToken);
    const network = freshIpv6Network();
    for (let host = 1; host <= MAX_FAILURES; host++) {
      const response = await attempt(
        agent.user.UserName,
        'wrong-password',
        `${network}:${host.toString(16)}`,
      );
      expect(response.statusCode).toBe(401);
    }
    // Another address of the same /64 is the same client: locked for the window.
    const sameNetwork = await attempt(agent.user.UserName, agent.password, `${network}abcd:1:2:3`);
    expectTooMany(sameNetwork, WINDOW_SECONDS);
    expect(retryAfter(sameNetwork)).toBeGreaterThan(ACCOUNT_DELAY_CAP_SECONDS);
    // The next /64 is another client: at most slowed down, never locked.
    const { response } = await signInPatiently(
      agent.user.UserName,
      agent.password,
      `${freshIpv6Network()}:1`,
    );
    expect(response.statusCode).toBe(200);

    const other = await createAgent(t.app, adminToken);
    const ipv4 = freshAddress();
    for (let index = 0; index < MAX_FAILURES; index++) {
      const address = index % 2 === 0 ? ipv4 : `::ffff:${ipv4}`;
      expect((await attempt(other.user.UserName, 'wrong-password', address)).statusCode).toBe(401);
    }
    expectTooMany(await attempt(other.user.UserName, other.password, ipv4), WINDOW_SECONDS);
    expectTooMany(await attempt(other.user.UserName, other.password, `::ffff:${ipv4}`), WINDOW_SECONDS);
  });

  it('nine failures do not block the pair, and a success clears its count', async () => {
    const agent = await createAgent(t.app, adminToken);
    const address = freshAddress();
    for (let round = 0; round < 2; round++) {
      for (let index = 0; index < MAX_FAILURES - 1; index++) {
        expect((await attempt(agent.user.UserName, 'wrong', address)).statusCode).toBe(401);
      }
      expect((await attempt(agent.user.UserName, agent.password, address)).statusCode).toBe(200);
    }
  });

  it(`one address may fail ${ADDRESS_LIMIT_FACTOR} times the limit across accounts, then waits out the window`, async () => {
    const address = freshAddress();
    const failures = MAX_FAILURES * ADDRESS_LIMIT_FACTOR;
    const responses = [];
    for (let index = 0; index < failures; index++) {
      responses.push(await attempt(`unknown-user-${address}-${index}`, 'wrong-password', address));
    }
    expect(statuses(responses)).toEqual(new Array(failures).fill(401));
    const agent = await createAgent(t.app, adminToken);
    expectTooMany(await attempt(agent.user.UserName, agent.password, address), WINDOW_SECONDS);
    // The same account from another address still signs in.
    expect((await attempt(agent.user.UserName, agent.password, freshAddress())).statusCode).toBe(200);
  });

  it('counts the failures of every app instance on the database', async () => {
    const agent = await createAgent(t.app, adminToken);
    const other = await t.startAnother();
    const address = freshAddress();
    for (let index = 0; index < MAX_FAILURES; index++) {
      const app = index % 2 === 0 ? t.app : other;
      expect((await attempt(agent.user.UserName, 'wrong', address, app)).statusCode).toBe(401);
    }
    expectTooMany(await attempt(agent.user.UserName, agent.password, address, t.app), WINDOW_SECONDS);
    expectTooMany(await attempt(agent.user.UserName, agent.password, address, other), WINDOW_SECONDS);
  });

  it('counts the address the proxy appended, whatever the client wrote before it', async () => {
    // As a proxy that appends to the client's X-Forwarded-For (nginx's $proxy_add_x_forwarded_for).
    const forwarded = (written: string, client: string) => `${written}, ${client}`;
    const agent = await createAgent(t.app, adminToken);
    const attacker = freshAddress();
    for (let index = 0; index < MAX_FAILURES; index++) {
      const response = await attempt(
        agent.user.UserName,
        'wrong-password',
        forwarded(freshAddress(), attacker),
      );
      expect(response.statusCode).toBe(401);
    }
    // Rotating the written address gains nothing: the pair is locked for the window.
    const rotated = await attempt(agent.user.UserName, agent.password, forwarded(freshAddress(), attacker));
    expectTooMany(rotated, WINDOW_SECONDS);
    expect(retryAfter(rotated)).toBeGreaterThan(ACCOUNT_DELAY_CAP_SECONDS);

    // Failures that name the owner's address count against the attacker's: the owner is not locked out.
    const owned = await createAgent(t.app, adminToken);
    const owner = freshAddress();
    const other = freshAddress();
    for (let index = 0; index < MAX_FAILURES; index++) {
      const response = await attempt(owned.user.UserName, 'wrong-password', forwarded(owner, other));
      expect(response.statusCode).toBe(401);
    }
    expectTooMany(
      await attempt(owned.user.UserName, owned.password, forwarded(owner, other)),
      WINDOW_SECONDS,
    );
    const { response, waits } = await signInPatiently(owned.user.UserName, owned.password, owner);
    expect(response.statusCode).toBe(200);
    expect(waits.every((wait) => wait <= ACCOUNT_DELAY_CAP_SECONDS)).toBe(true);
  });

  it('keeps attempts of the last 15 minutes only', async () => {
    const old = new Date(clock.now() - LOGIN_WINDOW_MS - 60_000).toISOString();
    await t.database.db
      .insertInto('login_attempts')
      .values({ account: 'forgotten', address: '192.0.2.1', kind: 'failure', attempted_at: old })
      .execute();
    const oldCounter = JSON.stringify(['account', 'forgotten']);
    await t.database.db
      .insertInto('login_attempt_counts')
      .values({
        counter: oldCounter,
        failures: JSON.stringify([[Date.parse(old), 3]]),
        touched_at: Date.parse(old),
        last_attempt: null,
        last_succeeded: 0,
        admitted: 0,
      })
      .execute();
    await attempt('someone-else', 'wrong-password', freshAddress());
    const left = await t.database.db
      .selectFrom('login_attempts')
      .select('attempt_id')
      .where('attempted_at', '<=', new Date(clock.now() - LOGIN_WINDOW_MS).toISOString())
      .execute();
    expect(left).toEqual([]);
    const counters = await t.database.db
      .selectFrom('login_attempt_counts')
      .select('counter')
      .where('counter', '=', oldCounter)
      .execute();
    expect(counters).toEqual([]);
  });

  it('lifts a pair lock when its Retry-After has passed, and not a second before', async () => {
    const agent = await createAgent(t.app, adminToken);
    const address = freshAddress();
    // Spread over several minutes, so that the failures fall in different buckets of the window.
    for (let index = 0; index < MAX_FAILURES; index++) {
      expect((await attempt(agent.user.UserName, 'wrong-password', address)).statusCode).toBe(401);
      clock.advance(40_000);
    }
    const locked = await attempt(agent.user.UserName, agent.password, address);
    expectTooMany(locked, WINDOW_SECONDS);
    const wait = retryAfter(locked);
    expect(wait).toBeGreaterThan(WINDOW_SECONDS - (MAX_FAILURES * 40 + 60));
    clock.advance((wait - 1) * 1000);
    expectTooMany(await attempt(agent.user.UserName, agent.password, address), 1);
    clock.advance(1000);
    expect((await attempt(agent.user.UserName, agent.password, address)).statusCode).toBe(200);
  });

  it('decides a login on its three counters, however many attempts the account and the log hold', async () => {
    const throttle = new LoginThrottle(MAX_FAILURES);
    const crowded = `crowded-${dialect}`;
    const now = clock.now();
    const recently = now - 5 * 60_000;
    const attackers = Array.from({ length: 5000 }, (_, index) => `198.18.${index >> 8}.${index & 255}`);
    // As in the finding: thousands of addresses failed on the account in the window...
    const counter = (key: unknown[], failures: number, lastAttempt: number | null) => ({
      counter: JSON.stringify(key),
      failures: JSON.stringify([[recently, failures]]),
      touched_at: recently,
      last_attempt: lastAttempt,
      last_succeeded: 0,
      admitted: lastAttempt === null ? 0 : failures,
    });
    const counters = attackers.flatMap((address) => [
      counter(['pair', address, crowded], 1, recently),
      counter(['address', address], 1, null),
    ]);
    counters.push(counter(['account', crowded], attackers.length, null));
    await insertMany(counters, (chunk) =>
      t.database.db.insertInto('login_attempt_counts').values(chunk).execute(),
    );
    // ...and the log holds their attempts, and as many older than the window.
    const longAgo = now - LOGIN_WINDOW_MS - 60_000;
    const logged = attackers.flatMap((address, index) => [
      { account: crowded, address, kind: 'failure' as const, attempted_at: new Date(recently).toISOString() },
      {
        account: crowded,
        address,
        kind: 'failure' as const,
        attempted_at: new Date(longAgo - index).toISOString(),
      },
    ]);
    await insertMany(logged, (chunk) => t.database.db.insertInto('login_attempts').values(chunk).execute());

    /** One admitted attempt and its success, as a login runs them, with the statements they ran. */
    async function signIn(account: string, address: string) {
      const statements: Statement[] = [];
      const attempts = new LoginAttemptsRepository(recording(t.database, statements));
      const key = { account, address };
      const admission = await attempts.admit(key, clock.now(), throttle);
      if (!admission.admit) throw new Error(`refused: ${JSON.stringify(admission)}`);
      await attempts.recordSuccess(admission, key, throttle);
      return statements;
    }

    // The counters are what decides: the account's thousands of failures slow a new address down.
    const owner = freshAddress();
    const knock = await new LoginAttemptsRepository(t.database).admit(
      { account: crowded, address: owner },
      clock.now(),
      throttle,
    );
    expect(knock).toEqual({
      admit: false,
      reason: 'account',
      retryAfterSeconds: ACCOUNT_DELAY_CAP_SECONDS,
      recordKnock: true,
    });
    clock.advance(ACCOUNT_DELAY_CAP_SECONDS * 1000);
    const busy = await signIn(crowded, owner);
    const quiet = await signIn(`quiet-${dialect}`, freshAddress());

    const isPrune = (statement: Statement) => statement.sql.startsWith('delete from');
    const shape = (statements: Statement[]) =>
      statements.map((statement) => ({
        sql: statement.sql,
        rows: statement.rows,
        affected: isPrune(statement) ? 'a batch' : statement.affected,
      }));
    // The same statements, answering and changing the same rows, for a crowded account as for a quiet one.
    expect(shape(busy)).toEqual(shape(quiet));
    expect(busy.filter(isPrune)).toHaveLength(2);
    for (const statement of busy) {
      expect(statement.rows, statement.sql).toBeLessThanOrEqual(3);
      expect(statement.affected, statement.sql).toBeLessThanOrEqual(isPrune(statement) ? PRUNE_BATCH : 3);
      // The log is written, and pruned a batch at a time, but never read to decide.
      if (statement.sql.includes('"login_attempts"')) {
        expect(statement.sql, statement.sql).toMatch(
          /^insert into "login_attempts" |^update "login_attempts" set .* where "attempt_id" = \$?\d*\??$|^delete from "login_attempts" where "attempt_id" in \(select .* limit /,
        );
      }
    }
    // The counters are read by their keys: the pair's, the address's and the account's.
    const reads = busy.filter((statement) => statement.sql.includes('returning'));
    expect(reads.map((statement) => statement.rows)).toEqual([3, 1, 3]);
    expect(reads[0]?.parameters).toEqual(
      expect.arrayContaining([
        JSON.stringify(['account', crowded]),
        JSON.stringify(['address', owner]),
        JSON.stringify(['pair', owner, crowded]),
      ]),
    );
    expect(busy.find(isPrune)?.affected).toBe(PRUNE_BATCH);

    if (t.database.sqlite) {
      // Every table access is an index search, never a scan of a table.
      const sqlite = t.database.sqlite;
      for (const statement of busy) {
        const plan = sqlite
          .prepare(`explain query plan ${statement.sql}`)
          .all(...(statement.parameters as unknown[])) as { detail: string }[];
        // A VALUES list is scanned: it holds the statement's own three rows.
        for (const step of plan) expect(step.detail, statement.sql).not.toMatch(/^SCAN (?!\d+-ROW VALUES)/);
      }
    }

    await t.database.db.deleteFrom('login_attempts').where('account', '=', crowded).execute();
  });
});

describe.each(DIALECTS)('the login counters’ migration [%s]', (dialect) => {
  it('counts the log’s window in, so an upgrade forgets no failure', async () => {
    const { database, dropDatabase } = await openTestDatabase(dialect, ':memory:');
    try {
      await migrateToLatest(database);
      // The database as it was before the counters: its log holds the window's attempts.
      await countsMigration.down(database.db);
      // The migration reads the real clock.
      const now = Date.now();
      const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000).toISOString();
      const row = (address: string, kind: 'failure' | 'success' | 'knock', minutesAgo: number) => ({
        account: 'upgraded',
        address,
        kind,
        attempted_at: at(minutesAgo),
      });
      await database.db
        .insertInto('login_attempts')
        .values([
          ...Array.from({ length: MAX_FAILURES }, (_, index) => row('192.0.2.1', 'failure', 12 - index)),
          row('192.0.2.2', 'success', 3),
          ...Array.from({ length: MAX_FAILURES }, () => row('192.0.2.3', 'failure', 20)),
        ])
        .execute();
      await countsMigration.up(database.db);

      const throttle = new LoginThrottle(MAX_FAILURES);
      const attempts = new LoginAttemptsRepository(database);
      const admit = (address: string) => attempts.admit({ account: 'upgraded', address }, now, throttle);
      // The pair that failed ten times is still locked, until its oldest failure leaves the window.
      expect(await admit('192.0.2.1')).toEqual({
        admit: false,
        reason: 'pair',
        retryAfterSeconds: 3 * 60,
        recordKnock: false,
      });
      // The account is slowed down for a new address, but not for the one that signed in.
      expect(await admit('192.0.2.4')).toMatchObject({ admit: false, reason: 'account', recordKnock: true });
      expect(await admit('192.0.2.2')).toMatchObject({ admit: true });
      // Failures older than the window were left out: that address is slowed down, not locked.
      expect(await admit('192.0.2.3')).toMatchObject({ admit: false, reason: 'account', recordKnock: true });
    } finally {
      await database.close();
      await dropDatabase();
    }
  });
});
