/**
 * The lists on ten years of results (issue 9; 30 ghadis × 3650 days by default): latency of the
 * paged and searched admin list and of an agent's history (wrk, BENCH_LIST_CONNECTIONS connections,
 * 1 by default so that the figures are a request's own time, not a queue's), then GET /api/ghadis
 * measured while 10 unpaged admin lists run at once (target p99 ≤ 50 ms). Nothing is pinned: a
 * server may build the unpaged list on another thread, which must have the other core.
 */
import { addDays } from '../../src/shared/dates.js';
import { measureAlongside } from '../lib/alongside.js';
import { signIn } from '../lib/client.js';
import { SEED_ADMIN } from '../lib/seed.js';
import { freePort, startServer } from '../lib/server-process.js';
import { jsonOf, timedRequest } from '../lib/timed-request.js';
import { runWrk } from '../lib/wrk.js';
import { ACCEPT_ENCODING, localOrigin, log, SETTINGS, type Seeded, serverEnv } from './setup.js';

const CONNECTIONS = Number(process.env.BENCH_LIST_CONNECTIONS ?? 1);
const ALONGSIDE_TARGET_MS = 50;
const LIMIT = 10;

interface ListRequest {
  label: string;
  path: string;
  params: Record<string, string>;
  token: string;
}

function urlOf(request: ListRequest, page: number): string {
  return `${request.path}?${new URLSearchParams({ ...request.params, page: String(page), limit: String(LIMIT) })}`;
}

/** The last page a paged answer names (1 when the answer is not paged). */
async function lastPage(baseUrl: string, request: ListRequest): Promise<number> {
  const answer = await timedRequest(`${baseUrl}${urlOf(request, 1)}`, {
    headers: { authorization: `Bearer ${request.token}` },
  });
  const body = jsonOf<{ pagination?: { totalPages?: number } }>(answer, request.label);
  return Math.max(1, body.pagination?.totalPages ?? 1);
}

/** Runs the scenario; answers whether the target was met. */
export async function listsScenario(seeded: Seeded): Promise<boolean> {
  const port = await freePort();
  const baseUrl = localOrigin(port);
  const server = await startServer({ port, env: serverEnv(seeded.file, port), keepOutput: false });
  try {
    const { seed } = seeded;
    const admin = await signIn(baseUrl, SEED_ADMIN, '127.0.0.1');
    const agent = seed.agents[0];
    if (!agent) throw new Error('the seed has no agent');
    const agentToken = await signIn(baseUrl, agent, '127.0.0.1');
    const middleDate = addDays(seed.lastDate, -Math.floor(seed.days / 2));
    const ghadi = seed.ghadis[3]?.name ?? '';
    const requests: ListRequest[] = [
      { label: 'admin list', path: '/api/results', params: {}, token: admin },
      { label: `admin q="${ghadi}"`, path: '/api/results', params: { q: ghadi }, token: admin },
      { label: `admin q="${middleDate}"`, path: '/api/results', params: { q: middleDate }, token: admin },
      { label: 'admin q="42"', path: '/api/results', params: { q: '42' }, token: admin },
      {
        label: `admin q="${seed.agents[1]?.displayName}"`,
        path: '/api/results',
        params: { q: seed.agents[1]?.displayName ?? '' },
        token: admin,
      },
      { label: 'agent history', path: '/api/agent/my-ghadi/results', params: {}, token: agentToken },
      {
        label: 'agent history q="42"',
        path: '/api/agent/my-ghadi/results',
        params: { q: '42' },
        token: agentToken,
      },
    ];
    log(`\nwrk: 1 thread, ${CONNECTIONS} connection(s), ${SETTINGS.seconds}s per request, limit ${LIMIT}\n`);
    const rows: string[] = [];
    for (const request of requests) {
      const last = await lastPage(baseUrl, request);
      const pages = [...new Set([1, Math.ceil(last / 2), last])];
      for (const page of pages) {
        const result = runWrk({
          url: `${baseUrl}${urlOf(request, page)}`,
          connections: CONNECTIONS,
          seconds: SETTINGS.seconds,
          headers: { 'Accept-Encoding': ACCEPT_ENCODING, Authorization: `Bearer ${request.token}` },
          serverPid: server.pid,
        });
        const row =
          `| ${request.label}, page ${page} of ${last} | ${result.requestsPerSecond.toFixed(0)} | ` +
          `${result.latencyP50Ms.toFixed(1)} | ${result.latencyP99Ms.toFixed(1)} | ${result.latencyMaxMs.toFixed(1)} | ` +
          `${result.serverCpuMicrosPerRequest.toFixed(0)} | ${result.failures} |`;
        rows.push(row);
        log(row);
      }
    }

    log(
      `\n10 unpaged admin lists at once for ${SETTINGS.loadSeconds}s while GET /api/ghadis is read in turn`,
    );
    const alongside = await measureAlongside({
      baseUrl,
      load: {
        path: '/api/results',
        headers: { authorization: `Bearer ${admin}` },
        connections: 10,
        seconds: SETTINGS.loadSeconds,
      },
      sampled: ['/api/ghadis'],
    });
    const figures = (label: string, one: (typeof alongside.alone)[number] | undefined) =>
      `| GET /api/ghadis ${label} | ${one?.count ?? 0} | ${one?.p50Ms.toFixed(1)} | ${one?.p99Ms.toFixed(1)} | ${one?.maxMs.toFixed(1)} | ${one?.failures ?? 0} |`;
    const during = alongside.alongside[0];
    const met = !!during && during.count > 0 && during.failures === 0 && during.p99Ms <= ALONGSIDE_TARGET_MS;

    log('\n| Request (limit 10) | req/s | p50 ms | p99 ms | max ms | server CPU µs/req | failures |');
    log('|---|---:|---:|---:|---:|---:|---:|');
    for (const row of rows) log(row);
    log(`\n| Read | count | p50 ms | p99 ms (target ≤ ${ALONGSIDE_TARGET_MS}) | max ms | failures |`);
    log('|---|---:|---:|---:|---:|---:|');
    log(figures('alone', alongside.alone[0]));
    log(`${figures('alongside 10 unpaged admin lists', during)} ${met ? 'met' : 'NOT MET'}`);
    const { load } = alongside;
    log(
      `\nunpaged admin lists: ${load.requests} answered in ${SETTINGS.loadSeconds}s, p50 ${load.latencyP50Ms.toFixed(0)} ms, ` +
        `max ${load.latencyMaxMs.toFixed(0)} ms, ${load.failures} failures`,
    );
    return met;
  } finally {
    await server.stop();
  }
}
