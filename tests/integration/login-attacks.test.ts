import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ACCOUNT_DELAY_CAP_SECONDS,
  ADDRESS_LIMIT_FACTOR,
  LOGIN_WINDOW_MS,
} from '../../src/server/lib/login-throttle.js';
import { call, createAgent, type Failure, loginAdmin, type Response } from '../support/factories.js';
import { DIALECTS, useTestApp } from '../support/test-app.js';
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

/** Every test app here trusts X-Forwarded-For, as behind a reverse proxy, so a test picks its client address. */
describe.each(DIALECTS)('login throttle [%s]', (dialect) => {
  const clock = new TestClock();
  const t = useTestApp(dialect, { env: { TRUST_PROXY: 'true' }, now: clock.now });
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

  it('keeps attempts of the last 15 minutes only', async () => {
    const old = new Date(clock.now() - LOGIN_WINDOW_MS - 60_000).toISOString();
    await t.database.db
      .insertInto('login_attempts')
      .values({ account: 'forgotten', address: '192.0.2.1', kind: 'failure', attempted_at: old })
      .execute();
    await attempt('someone-else', 'wrong-password', freshAddress());
    const left = await t.database.db
      .selectFrom('login_attempts')
      .select('attempt_id')
      .where('attempted_at', '<=', new Date(clock.now() - LOGIN_WINDOW_MS).toISOString())
      .execute();
    expect(left).toEqual([]);
  });
});
