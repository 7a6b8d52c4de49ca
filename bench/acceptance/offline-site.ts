/**
 * The offline group's sites (offline-checks.ts): made through the API as an admin would (an agent
 * and its ghadis, assigned), and what the server recorded for a ghadi's date, read from outside: the
 * declaration log (GET /api/declarations), the result's history (the admin's GET /api/result-history)
 * and the public results (GET /api/ghadis, GET /api/results/{name}).
 */
import { randomBytes } from 'node:crypto';
import type { DeclarationEntry, ResultHistoryEntry } from '../../src/shared/schemas/declarations.js';
import { addressSource, send, signIn } from '../lib/client.js';
import { jsonOf, type TimedAnswer } from '../lib/timed-request.js';
import type { CheckSettings } from './types.js';

export interface OfflineGhadi {
  GID: number;
  NameEn: string;
}

export interface OfflineSite {
  url: string;
  today: string;
  adminToken: string;
  agent: { username: string; password: string; displayName: string; token: string };
  /** The agent's ghadis, made for this site. */
  ghadis: OfflineGhadi[];
  /** A new client address (X-Forwarded-For) at each call. */
  nextAddress: () => string;
}

/** What the server holds for one ghadi and date. */
export interface Recorded {
  log: DeclarationEntry[];
  history: ResultHistoryEntry[];
  /** The ghadi's TodayResult in GET /api/ghadis. */
  todayResult: string | undefined;
  /** GET /api/results/{name}?year=…&month=…: the rows of that date. */
  published: string[];
}

async function expectStatus(answer: Promise<TimedAnswer>, status: number, what: string) {
  const done = await answer;
  if (done.status !== status)
    throw new Error(`${what}: ${done.status} ${done.body.toString().slice(0, 300)}`);
  return done;
}

/** An agent with `count` new ghadis assigned, created by the admin through the API on `url`. */
export async function makeSite(url: string, settings: CheckSettings, count: number): Promise<OfflineSite> {
  const nextAddress = addressSource();
  const adminToken = await signIn(url, settings.admin, nextAddress());
  const admin = (path: string, json: unknown, status: number) =>
    expectStatus(
      send(url, path, { method: 'POST', json, token: adminToken, address: nextAddress() }),
      status,
      `POST ${path}`,
    );
  const { today } = jsonOf<{ today: string }>(
    await expectStatus(send(url, '/api/site', { address: nextAddress() }), 200, 'GET /api/site'),
    'GET /api/site',
  );
  const suffix = randomBytes(3).toString('hex');
  const ghadis: OfflineGhadi[] = [];
  for (let index = 0; index < count; index++) {
    const NameEn = `Offline ${String.fromCharCode(65 + index)} ${suffix}`;
    const fields = {
      NameEn,
      NameHn: `ऑफ़लाइन ${index + 1}`,
      RTime: `${index + 1}:30 PM`,
      OrderId: 50 + index,
    };
    const { GID } = jsonOf<{ data: OfflineGhadi }>(await admin('/api/ghadis', fields, 201), 'ghadi').data;
    ghadis.push({ GID, NameEn });
  }
  const username = `offline.agent.${suffix}`;
  const password = `${username}-password`;
  const displayName = `Offline Agent ${suffix}`;
  const user = jsonOf<{ data: { User_Id: number } }>(
    await admin(
      '/api/users',
      { UserName: username, DisplayName: displayName, Email: `${username}@example.com`, Password: password },
      201,
    ),
    'POST /api/users',
  ).data;
  await admin('/api/usermaps', { User_Id: user.User_Id, GID: ghadis.map((ghadi) => ghadi.GID) }, 201);
  const token = await signIn(url, { username, password }, nextAddress());
  return {
    url,
    today,
    adminToken,
    agent: { username, password, displayName, token },
    ghadis,
    nextAddress,
  };
}

/** What `site` (or `url`, another process on its database) shows of a ghadi's date. */
export async function recorded(
  site: OfflineSite,
  ghadi: OfflineGhadi,
  date: string,
  url = site.url,
): Promise<Recorded> {
  const get = async <T>(path: string, token?: string) =>
    jsonOf<T>(await expectStatus(send(url, path, { address: site.nextAddress(), token }), 200, path), path);
  const log = await get<{ data: DeclarationEntry[] }>(
    `/api/declarations?gid=${ghadi.GID}&date=${date}&limit=1000`,
  );
  const history = await get<{ data: ResultHistoryEntry[] }>(
    `/api/result-history?gid=${ghadi.GID}&date=${date}`,
    site.adminToken,
  );
  const listed = await get<{ data: Array<{ GID: number; TodayResult: string }> }>('/api/ghadis');
  // A ghadi with no result that month answers 404.
  const month = `year=${date.slice(0, 4)}&month=${Number(date.slice(5, 7))}`;
  const ofGhadi = `/api/results/${encodeURIComponent(ghadi.NameEn.toLowerCase())}?${month}`;
  const answer = await send(url, ofGhadi, { address: site.nextAddress() });
  if (answer.status !== 200 && answer.status !== 404)
    throw new Error(`${ofGhadi}: ${answer.status} ${answer.body.toString().slice(0, 300)}`);
  const published =
    answer.status === 200
      ? jsonOf<{ data: Array<{ Date: string; Result: string }> }>(answer, ofGhadi)
      : { data: [] };
  return {
    log: log.data,
    history: history.data,
    todayResult: listed.data.find((row) => row.GID === ghadi.GID)?.TodayResult,
    published: published.data.filter((row) => row.Date === date).map((row) => row.Result),
  };
}

/** One line of figures: the log's values, the history's values and authors, the public values. */
export function shown(found: Recorded): string {
  const log = found.log.map((entry) => `${entry.Previous ?? '∅'}→${entry.Result}`).join(', ');
  const history = found.history.map((entry) => `${entry.Result} by ${entry.DeclaredByName}`).join(', ');
  return `log [${log}], history [${history}], TodayResult "${found.todayResult ?? '-'}", published [${found.published.join(', ')}]`;
}
