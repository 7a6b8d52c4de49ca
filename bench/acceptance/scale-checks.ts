/**
 * Issue 9's bounded cost, from outside, on years of seeded results (30 ghadis × 3650 days by default):
 * every page of the admin list and of an agent's history, and every public query, answers in
 * ≤ 50 ms (median of 5 after a warm-up); the admin Results screen never receives an answer over
 * 200 KB; public reads stay fast (p99 ≤ 50 ms) while 10 unpaged admin lists run; out-of-range
 * page/limit answers 400 naming the field; public searches are rate-limited per address.
 *
 * Written against the API contract: paged answers `{ success, data, pagination: { page, limit,
 * total, totalPages } }`; admin limit 1..500, page 1..100000; agent history paged by default (limit
 * 10, at most 100) with optional ghadiId and q; public q/page/limit always paged (limit ≤ 100) and
 * rate-limited per client address (429 with Retry-After). Needs TRUST_PROXY=loopback on the server.
 */
import { addDays } from '../../src/shared/dates.js';
import { measureAlongside } from '../lib/alongside.js';
import { addressSource, send, signIn } from '../lib/client.js';
import type { SeedSummary } from '../lib/seed.js';
import { kilobytes } from '../lib/stats.js';
import { check } from './check.js';
import {
  type Measured,
  measure,
  measurePages,
  type Query,
  type QueryRunner,
  slowest,
} from './scale-queries.js';
import type { AcceptanceChecks, CheckResult } from './types.js';

const BUDGET_MS = 50;
const SCREEN_BYTES = 200 * 1024;
const ADMIN_LIMITS = [5, 10, 15];
const PUBLIC_LIMITS = [10, 100];
const LOAD_SECONDS = Number(process.env.ACCEPTANCE_LOAD_SECONDS ?? 10);
const RATE_LIMIT_PROBES = 1000;
const RATE_LIMIT_SECONDS = 60;

function withinBudget(name: string, measured: Measured[]): CheckResult {
  const slow = measured.filter((one) => one.medianMs > BUDGET_MS);
  const failed = measured.filter((one) => one.status !== 200);
  return {
    name,
    ok: measured.length > 0 && slow.length === 0 && failed.length === 0,
    detail:
      `${slowest(measured)}` +
      (slow.length ? `; ${slow.length} over ${BUDGET_MS} ms` : '') +
      (failed.length
        ? `; ${failed.length} failed (first: ${failed[0]?.url} → ${failed[0]?.problems[0]})`
        : ''),
  };
}

function followsContract(measured: Measured[], adminTotal: number | undefined, seeded: number): CheckResult {
  const broken = measured.filter((one) => one.problems.length > 0);
  const totalOk = adminTotal !== undefined && adminTotal >= seeded;
  return {
    name: 'paged answers carry { data, pagination } with the right rows, and the admin total counts every result',
    ok: broken.length === 0 && totalOk,
    detail:
      `${measured.length - broken.length} of ${measured.length} as the contract says` +
      (broken[0] ? `; first break: ${broken[0].url}: ${broken[0].problems.join(', ')}` : '') +
      `; unsearched admin total ${adminTotal ?? 'missing'} (seeded ${seeded})`,
  };
}

async function outOfRange(runner: QueryRunner, adminToken: string, agentToken: string): Promise<CheckResult> {
  return check('out-of-range page/limit answers 400 naming the field', async () => {
    const cases: Array<{ path: string; field: string; token?: string }> = [
      { path: '/api/results?page=1&limit=0', field: 'limit', token: adminToken },
      { path: '/api/results?page=1&limit=501', field: 'limit', token: adminToken },
      { path: '/api/results?page=0&limit=10', field: 'page', token: adminToken },
      { path: '/api/results?page=100001&limit=10', field: 'page', token: adminToken },
      { path: '/api/agent/my-ghadi/results?page=1&limit=101', field: 'limit', token: agentToken },
      { path: '/api/agent/my-ghadi/results?page=0', field: 'page', token: agentToken },
      { path: '/api/results?q=a&page=1&limit=101', field: 'limit' },
      { path: '/api/results?q=a&page=-1&limit=10', field: 'page' },
    ];
    const wrong: string[] = [];
    for (const one of cases) {
      const address = one.token ? runner.staffAddress : runner.nextAddress();
      const answer = await send(runner.baseUrl, one.path, {
        address,
        ...(one.token ? { token: one.token } : {}),
      });
      const message = String(
        (JSON.parse(answer.body.toString() || '{}') as { message?: unknown }).message ?? '',
      );
      if (answer.status !== 400 || !message.toLowerCase().includes(one.field)) {
        wrong.push(`${one.path} → ${answer.status} "${message.slice(0, 80)}"`);
      }
    }
    return {
      ok: wrong.length === 0,
      detail: wrong.length ? wrong.join('; ') : `${cases.length} cases, all 400 naming the field`,
    };
  });
}

async function publicRateLimit(runner: QueryRunner, name: string): Promise<CheckResult> {
  return check('public searches from one address are rate-limited (429 with Retry-After)', async () => {
    const address = runner.nextAddress();
    const deadline = Date.now() + RATE_LIMIT_SECONDS * 1000;
    let sent = 0;
    while (sent < RATE_LIMIT_PROBES && Date.now() < deadline) {
      sent++;
      const answer = await send(
        runner.baseUrl,
        `/api/results?q=${encodeURIComponent(name)}&page=${(sent % 10) + 1}&limit=10`,
        {
          address,
        },
      );
      if (answer.status === 429) {
        const retryAfter = answer.headers['retry-after'];
        return {
          ok: Number(retryAfter) > 0,
          detail: `429 at search ${sent}, Retry-After ${retryAfter ?? 'missing'}`,
        };
      }
    }
    return {
      ok: false,
      detail: `no 429 within ${sent} searches from one address (${RATE_LIMIT_SECONDS} s at most)`,
    };
  });
}

async function alongsideUnpaged(baseUrl: string, adminToken: string): Promise<CheckResult> {
  return check(
    `public reads stay fast (p99 ≤ ${BUDGET_MS} ms) while 10 unpaged admin lists run`,
    async () => {
      const result = await measureAlongside({
        baseUrl,
        load: {
          path: '/api/results',
          headers: { authorization: `Bearer ${adminToken}` },
          connections: 10,
          seconds: LOAD_SECONDS,
        },
        sampled: ['/api/ghadis', '/'],
      });
      const line = (figures: typeof result.alone) =>
        figures
          .map(
            (one) =>
              `${one.path} p50 ${one.p50Ms.toFixed(1)} / p99 ${one.p99Ms.toFixed(1)} / max ${one.maxMs.toFixed(1)} ms (${one.count})`,
          )
          .join(', ');
      const ok =
        result.alongside.every((one) => one.count > 0 && one.failures === 0 && one.p99Ms <= BUDGET_MS) &&
        result.load.requests > 0 &&
        result.load.failures === 0;
      return {
        ok,
        detail:
          `alongside: ${line(result.alongside)}; alone: ${line(result.alone)}; ` +
          `${result.load.requests} unpaged lists answered in ${LOAD_SECONDS} s (p50 ${result.load.latencyP50Ms.toFixed(0)} ms, ` +
          `${result.load.failures} failures)`,
      };
    },
  );
}

interface Planned {
  query: Query;
  /** Paged: measured on its first, middle and last page of this size. Unpaged: measured as it is. */
  limit?: number;
}

/** Every query the checks time: who asks, for what, with which searches. */
function plan(seed: SeedSummary, adminToken: string, agentToken: string) {
  const agent = seed.agents[0];
  const ghadiName = seed.ghadis[3]?.name ?? seed.ghadis[0]?.name ?? '';
  const agentGhadi = seed.ghadis.find((ghadi) => ghadi.gid === agent?.gids[0]);
  const middleDate = addDays(seed.lastDate, -Math.floor(seed.days / 2));
  const searches = (names: string[]): Array<Record<string, string>> => [
    {},
    ...[...names, middleDate, '42'].map((q) => ({ q })),
  ];
  const labelOf = (who: string, params: Record<string, string>, limit: number) =>
    `${who}${params.q ? ` q="${params.q}"` : ''}${params.ghadiId ? ` ghadiId=${params.ghadiId}` : ''} limit=${limit}`;
  const paged = (
    who: string,
    path: string,
    params: Record<string, string>,
    limit: number,
    token?: string,
  ) => ({
    query: { label: labelOf(who, params, limit), path, params, ...(token ? { token } : { isPublic: true }) },
    limit,
  });

  const admin: Planned[] = ADMIN_LIMITS.flatMap((limit) =>
    searches([ghadiName, seed.agents[1]?.displayName ?? '']).map((params) =>
      paged('admin', '/api/results', params, limit, adminToken),
    ),
  );
  const agentHistory: Planned[] = [
    ...searches(agentGhadi ? [agentGhadi.name] : []),
    { ghadiId: String(agent?.gids[0] ?? 1) },
  ].map((params) => paged('agent', '/api/agent/my-ghadi/results', params, 10, agentToken));
  const publicReads: Planned[] = [
    ...PUBLIC_LIMITS.flatMap((limit) =>
      searches([ghadiName])
        .slice(1)
        .map((params) => paged('public', '/api/results', params, limit)),
    ),
    ...[seed.lastDate, middleDate, seed.firstDate].map((date) => ({
      query: {
        label: `public month=${date.slice(0, 7)}`,
        path: '/api/results',
        params: { month: date.slice(0, 7) },
        isPublic: true,
      },
    })),
    ...seed.ghadis.slice(0, 3).flatMap((ghadi) => {
      const path = `/api/results/${encodeURIComponent(ghadi.name.toLowerCase())}`;
      const pastMonth = { month: String(Number(middleDate.slice(5, 7))), year: middleDate.slice(0, 4) };
      return [
        { query: { label: `public ${ghadi.name}`, path, params: {}, isPublic: true } },
        { query: { label: `public ${ghadi.name} in a past month`, path, params: pastMonth, isPublic: true } },
      ];
    }),
  ];
  const screenGhadis: Planned = {
    query: { label: 'the screen’s ghadi list', path: '/api/ghadis', params: {}, token: adminToken },
  };
  return { admin, agentHistory, publicReads, screenGhadis, ghadiName };
}

async function measureAll(runner: QueryRunner, planned: Planned[]): Promise<Measured[]> {
  const measured: Measured[] = [];
  for (const { query, limit } of planned) {
    if (limit === undefined) measured.push((await measure(runner, query)).measured);
    else measured.push(...(await measurePages(runner, query, limit)));
  }
  return measured;
}

export const scaleChecks: AcceptanceChecks = async ({ baseUrl, admin, seed }) => {
  const nextAddress = addressSource();
  const runner: QueryRunner = {
    baseUrl,
    staffAddress: nextAddress(),
    nextAddress,
    report: (one) =>
      process.stdout.write(
        `  ${one.medianMs.toFixed(1).padStart(6)} ms (max ${one.maxMs.toFixed(1).padStart(6)})` +
          ` ${(one.bytes / 1024).toFixed(1).padStart(6)} KB ${one.status}  ${one.url}\n`,
      ),
  };
  const agent = seed.agents[0];
  if (!agent) throw new Error('the seed has no agent');
  const adminToken = await signIn(baseUrl, admin, runner.staffAddress);
  const agentToken = await signIn(baseUrl, agent, runner.staffAddress);
  const planned = plan(seed, adminToken, agentToken);
  const adminMeasured = await measureAll(runner, planned.admin);
  const agentMeasured = await measureAll(runner, planned.agentHistory);
  const publicMeasured = await measureAll(runner, planned.publicReads);
  const screen = [...adminMeasured, ...(await measureAll(runner, [planned.screenGhadis]))];
  const largest = [...screen].sort((a, b) => b.bytes - a.bytes)[0];
  const unsearched = planned.admin[0]?.query.label;
  const adminTotal = adminMeasured.find((one) => one.label === unsearched)?.pagination?.total;
  return [
    withinBudget(
      `admin list: first, middle and last pages, limits ${ADMIN_LIMITS.join('/')}, with and without q, ≤ ${BUDGET_MS} ms`,
      adminMeasured,
    ),
    withinBudget(
      `agent history: first, middle and last pages, with and without q and ghadiId, ≤ ${BUDGET_MS} ms`,
      agentMeasured,
    ),
    withinBudget(`public queries (q paged, month, by name) ≤ ${BUDGET_MS} ms`, publicMeasured),
    followsContract(
      [...adminMeasured, ...agentMeasured, ...publicMeasured.filter((one) => one.url.includes('page='))],
      adminTotal,
      seed.results,
    ),
    {
      name: 'the admin Results screen never receives an answer over 200 KB',
      ok: screen.every((one) => one.bytes <= SCREEN_BYTES && one.status === 200),
      detail:
        `largest of ${screen.length}: ${kilobytes(largest?.bytes ?? 0)} decoded, ` +
        `${kilobytes(largest?.wireBytes ?? 0)} on the wire (${largest?.url})`,
    },
    await outOfRange(runner, adminToken, agentToken),
    await publicRateLimit(runner, planned.ghadiName),
    await alongsideUnpaged(baseUrl, adminToken),
  ];
};
