/**
 * Issue 7's live check, from outside: 10,000 open event streams on one server process, an admin
 * declares a result, and every stream must receive an event carrying the new value within 1 s (p99)
 * of the call. The streams come from 500 client addresses (127.0.x.y, 20 each: the per-address limit),
 * so the server needs no TRUST_PROXY for it.
 */
import http from 'node:http';
import type { AcceptanceChecks, AcceptanceContext, CheckResult } from './types.js';

const STREAMS = Number(process.env.ACCEPTANCE_STREAMS ?? 10_000);
const PER_ADDRESS = 20;
const OPEN_AT_ONCE = 250;

interface OpenStream {
  request: http.ClientRequest;
  /** When the event carrying the awaited value arrived (ms since the epoch), once it has. */
  arrivedAt: number | undefined;
}

function addressOf(index: number): string {
  const group = Math.floor(index / PER_ADDRESS) + 1;
  return `127.0.${Math.floor(group / 250)}.${(group % 250) + 1}`;
}

function openStream(url: URL, localAddress: string, awaited: () => string | null): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const stream: OpenStream = { request: undefined as unknown as http.ClientRequest, arrivedAt: undefined };
    stream.request = http.get(url, { agent: false, localAddress }, (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        reject(new Error(`stream answered ${response.statusCode}`));
        return;
      }
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        const value = awaited();
        if (stream.arrivedAt !== undefined || value === null) return;
        text += chunk;
        if (text.includes(`"Result":"${value}"`)) stream.arrivedAt = Date.now();
        else if (text.length > 100_000) text = text.slice(-10_000);
      });
      resolve(stream);
    });
    stream.request.on('error', reject);
  });
}

async function api(
  base: string,
  path: string,
  init: { method?: string; token?: string; body?: unknown } = {},
) {
  const response = await fetch(`${base}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      'content-type': 'application/json',
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  if (!response.ok)
    throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${await response.text()}`);
  return response.json() as Promise<Record<string, unknown>>;
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * fraction) - 1)] ?? Number.NaN;
}

export const liveChecks: AcceptanceChecks = async ({ baseUrl, admin }: AcceptanceContext) => {
  const login = await api(baseUrl, '/api/users/login', {
    method: 'POST',
    body: { UserName: admin.username, Password: admin.password },
  });
  const token = String(login.token);
  const site = await api(baseUrl, '/api/site');
  const ghadis = (await api(baseUrl, '/api/ghadis')).data as Array<{ GID: number }>;
  const gid = ghadis[0]?.GID;
  if (gid === undefined) throw new Error('no ghadi to declare a result for');

  const url = new URL('/api/events', baseUrl);
  let value: string | null = null;
  const streams: OpenStream[] = [];
  const openedAt = Date.now();
  try {
    for (let start = 0; start < STREAMS; start += OPEN_AT_ONCE) {
      const batch = Array.from({ length: Math.min(OPEN_AT_ONCE, STREAMS - start) }, (_, offset) =>
        openStream(url, addressOf(start + offset), () => value),
      );
      streams.push(...(await Promise.all(batch)));
    }
    const openSeconds = (Date.now() - openedAt) / 1000;
    // A value no earlier check used, so that only this declaration's event matches.
    value = String(Date.now() % 100_000);
    const calledAt = Date.now();
    await api(baseUrl, '/api/agent/my-ghadi/update-result', {
      method: 'POST',
      token,
      body: { ghadiId: gid, result: value, dateTime: String(site.today) },
    });
    const answeredAt = Date.now();
    const deadline = calledAt + 10_000;
    while (streams.some((stream) => stream.arrivedAt === undefined) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const delays = streams
      .filter((stream) => stream.arrivedAt !== undefined)
      .map((stream) => (stream.arrivedAt ?? 0) - calledAt)
      .sort((a, b) => a - b);
    const p99 = percentile(delays, 0.99);
    const results: CheckResult[] = [
      {
        name: `all ${STREAMS} streams receive the declared value`,
        ok: delays.length === STREAMS,
        detail: `${delays.length} of ${STREAMS} received it within 10 s (streams opened in ${openSeconds.toFixed(1)} s)`,
      },
      {
        name: 'the event reaches the streams within 1 s of the call (p99)',
        ok: delays.length === STREAMS && p99 < 1000,
        detail:
          `after the call: p50 ${percentile(delays, 0.5)} ms, p99 ${p99} ms, max ${delays[delays.length - 1]} ms; ` +
          `the call itself took ${answeredAt - calledAt} ms`,
      },
    ];
    return results;
  } finally {
    for (const stream of streams) stream.request.destroy();
  }
};
