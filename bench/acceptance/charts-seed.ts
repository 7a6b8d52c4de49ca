/**
 * The charts group's site (charts-checks.ts): two years of results (last year and this one, to today)
 * for 3 new ghadis, declared through the API as people would: an admin's CSV import for the bulk, an
 * admin's submissions for some past dates, two agents for yesterday and today (and their refusals
 * outside the window or the assignment), with three corrections (admin, CSV, agent) and gaps (a
 * month with no result at all, a week, a whole month of one ghadi, a ghadi with none last year).
 * `Declared` keeps what every chart cell must show.
 */
import { addressSource, send, signIn } from '../lib/client.js';
import { jsonOf, type TimedAnswer } from '../lib/timed-request.js';
import type { CheckSettings } from './types.js';

export const two = (value: number) => String(value).padStart(2, '0');
export const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();
/** A ghadi's name as its addresses spell it: composed, lower case, percent-encoded. */
const folded = (nameEn: string) => encodeURIComponent(nameEn.normalize('NFC').toLowerCase());
export const yearPath = (nameEn: string, year: number | string) => `/satta-results/${folded(nameEn)}/${year}`;
export const yearApiPath = (nameEn: string, year: number | string) => `/api/charts/${folded(nameEn)}/${year}`;

export interface Cell {
  Result: string;
  Corrected: boolean;
}

export interface ChartGhadi {
  GID: number;
  NameEn: string;
  NameHn: string;
}

/** The running site and what was declared on it: the expected value of every chart cell. */
export interface ChartsSite {
  /** The server's address, also its PUBLIC_URL. */
  url: string;
  today: string;
  /** Last year and this year. */
  years: number[];
  /** Every month from last January to the current one (YYYY-MM). */
  months: string[];
  /** Every live ghadi, by OrderId: the monthly chart's columns. */
  ghadis: ChartGhadi[];
  /** The three made by this check. */
  mine: ChartGhadi[];
  declared: Declared;
  /** The first agent's token (its ghadis: mine[0] and mine[1]). */
  agentToken: string;
  /** A public GET, from an address of its own (per-address limits apply as to many visitors). */
  get(path: string): Promise<TimedAnswer>;
  /** A submission (POST /api/agent/my-ghadi/update-result); its status. */
  declare(token: string, gid: number, date: string, value: string): Promise<number>;
}

/** What the site must show: one cell a ghadi and date, corrected when a value replaced another. */
export class Declared {
  private readonly cells = new Map<string, Cell>();
  corrections = 0;

  set(gid: number, date: string, value: string): void {
    const old = this.cells.get(`${gid}|${date}`);
    if (old?.Result === value) return;
    if (old) this.corrections++;
    this.cells.set(`${gid}|${date}`, { Result: value, Corrected: old !== undefined });
  }

  cell(gid: number, date: string): Cell | null {
    return this.cells.get(`${gid}|${date}`) ?? null;
  }

  get size(): number {
    return this.cells.size;
  }

  /** Years with a result of the ghadi, ascending. */
  yearsOf(gid: number): number[] {
    const years = [...this.cells.keys()].filter((key) => key.startsWith(`${gid}|`));
    const of = (key: string) => Number(key.slice(key.indexOf('|') + 1, key.indexOf('|') + 5));
    return [...new Set(years.map(of))].sort((x, y) => x - y);
  }

  /** Months (YYYY-MM) with at least one result. */
  months(): Set<string> {
    return new Set(
      [...this.cells.keys()].map((key) => key.slice(key.indexOf('|') + 1, key.indexOf('|') + 8)),
    );
  }
}

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

function hash(text: string): number {
  let value = 2166136261;
  for (const char of text) value = Math.imul(value ^ (char.codePointAt(0) ?? 0), 16777619) >>> 0;
  return value;
}

/** A two-digit value, leading zero kept. */
const valueFor = (gid: number, date: string, salt = '') => two(hash(`${gid}|${date}|${salt}`) % 100);

const GHADIS = [
  { NameEn: 'Chart Sundar', NameHn: 'चार्ट सुंदर', RTime: '10:30 AM', OrderId: 0 },
  { NameEn: 'Chart Bazar', NameHn: 'चार्ट बाजार', RTime: '2:15 PM', OrderId: 40 },
  // An English name in Devanagari, with a space: its addresses are percent-encoded.
  { NameEn: 'दिसावर सिटी', NameHn: 'दिसावर सिटी', RTime: '11:45 PM', OrderId: 41 },
];

/**
 * The CSV's days: about 88 %, with gaps: last February for all, a week of the first ghadi, last
 * August of the second, and the third from this year's 4 January only.
 */
function imported(index: number, date: string, thisYear: number): boolean {
  const last = `${thisYear - 1}-`;
  if (date.startsWith(`${last}02-`)) return false;
  if (index === 0 && date >= `${last}03-10` && date <= `${last}03-16`) return false;
  if (index === 1 && date.startsWith(`${last}08-`)) return false;
  if (index === 2 && date < `${thisYear}-01-04`) return false;
  return hash(`present|${index}|${date}`) % 100 >= 12;
}

export async function seedSite(url: string, settings: CheckSettings) {
  const nextAddress = addressSource();
  const call = async (pathname: string, options: Parameters<typeof send>[2], status: number) => {
    const answer = await send(url, pathname, options);
    if (answer.status !== status)
      throw new Error(
        `${options.method ?? 'GET'} ${pathname}: ${answer.status} ${answer.body.toString().slice(0, 300)}`,
      );
    return answer;
  };
  const admin = await signIn(url, settings.admin, nextAddress());
  const { today } = jsonOf<{ today: string }>(
    await call('/api/site', { address: nextAddress() }, 200),
    'site',
  );
  const year = Number(today.slice(0, 4));
  const mine: ChartGhadi[] = [];
  for (const fields of GHADIS) {
    const answer = await call(
      '/api/ghadis',
      { method: 'POST', address: nextAddress(), token: admin, json: fields },
      201,
    );
    const { GID, NameEn, NameHn } = jsonOf<{ data: ChartGhadi }>(answer, 'POST /api/ghadis').data;
    mine.push({ GID, NameEn, NameHn });
  }
  const [a, b, c] = mine as [ChartGhadi, ChartGhadi, ChartGhadi];
  const agentTokens: string[] = [];
  for (const [index, gids] of [[a.GID, b.GID], [c.GID]].entries()) {
    const credentials = {
      username: `chart.agent${index + 1}`,
      password: `chart-agent-${index + 1}-password`,
    };
    const json = {
      UserName: credentials.username,
      DisplayName: `Chart Agent ${index + 1}`,
      Email: `${credentials.username}@example.com`,
      Password: credentials.password,
    };
    const user = jsonOf<{ data: { User_Id: number } }>(
      await call('/api/users', { method: 'POST', address: nextAddress(), token: admin, json }, 201),
      'POST /api/users',
    ).data;
    const assignment = { User_Id: user.User_Id, GID: gids };
    await call(
      '/api/usermaps',
      { method: 'POST', address: nextAddress(), token: admin, json: assignment },
      201,
    );
    agentTokens.push(await signIn(url, credentials, nextAddress()));
  }
  const [agent1 = '', agent2 = ''] = agentTokens;

  const declared = new Declared();
  const statuses: number[] = [];
  const declare = async (token: string, gid: number, date: string, value: string) => {
    const json = { ghadiId: gid, result: value, dateTime: date };
    const { status } = await send(url, '/api/agent/my-ghadi/update-result', {
      method: 'POST',
      address: nextAddress(),
      token,
      json,
    });
    if (status === 200) declared.set(gid, date, value);
    return status;
  };
  const importCsv = async (lines: string[]) => {
    const data = Buffer.from(`Date,GID,Result\n${lines.join('\n')}\n`);
    const raw = { type: 'text/csv', data };
    const answer = await call(
      '/api/results/import?dryRun=false',
      { method: 'POST', address: nextAddress(), token: admin, raw },
      200,
    );
    return jsonOf<{ created: number; corrected: number; unchanged: number }>(answer, 'import');
  };

  // The bulk: the admin's CSV, from last 1 January to the day before yesterday.
  const lines: string[] = [];
  for (let date = `${year - 1}-01-01`; date <= addDays(today, -2); date = addDays(date, 1)) {
    for (const [index, ghadi] of mine.entries()) {
      if (!imported(index, date, year)) continue;
      lines.push(`${date},${ghadi.GID},${valueFor(ghadi.GID, date)}`);
      declared.set(ghadi.GID, date, valueFor(ghadi.GID, date));
    }
  }
  const bulk = await importCsv(lines);
  // The admin's own submissions: dates in the gaps, a correction, and the same value again (no change).
  const firstIn = (gid: number, month: string) =>
    Array.from({ length: 28 }, (_, day) => `${month}-${two(day + 1)}`).find((date) =>
      declared.cell(gid, date),
    );
  const adminDates: Array<[number, string, string]> = [
    [a.GID, `${year - 1}-03-12`, '07'],
    [b.GID, `${year - 1}-08-15`, '00'],
  ];
  if (`${year}-01-02` <= addDays(today, -2)) adminDates.push([c.GID, `${year}-01-02`, '19']);
  const aJune = firstIn(a.GID, `${year - 1}-06`) ?? `${year - 1}-06-01`;
  adminDates.push([a.GID, aJune, two((Number(declared.cell(a.GID, aJune)?.Result ?? 0) + 1) % 100)]);
  const bJuly = firstIn(b.GID, `${year - 1}-07`) ?? `${year - 1}-07-01`;
  adminDates.push([b.GID, bJuly, declared.cell(b.GID, bJuly)?.Result ?? '11']);
  for (const [gid, date, value] of adminDates) statuses.push(await declare(admin, gid, date, value));
  // A correction by CSV, beside a line that changes nothing.
  const bNovember = firstIn(b.GID, `${year - 1}-11`) ?? `${year - 1}-11-01`;
  const aApril = firstIn(a.GID, `${year - 1}-04`) ?? `${year - 1}-04-01`;
  const changed = two((Number(declared.cell(b.GID, bNovember)?.Result ?? 0) + 50) % 100);
  const again = declared.cell(a.GID, aApril)?.Result ?? '22';
  const second = await importCsv([`${bNovember},${b.GID},${changed}`, `${aApril},${a.GID},${again}`]);
  declared.set(b.GID, bNovember, changed);
  declared.set(a.GID, aApril, again);
  // The agents: yesterday and today (the first ghadi's today left empty, for the live check).
  const yesterday = addDays(today, -1);
  const first = valueFor(a.GID, yesterday);
  const agentCalls: Array<[string, number, string, string]> = [
    [agent1, a.GID, yesterday, first],
    [agent1, a.GID, yesterday, two((Number(first) + 37) % 100)],
    [agent1, b.GID, yesterday, valueFor(b.GID, yesterday)],
    [agent1, b.GID, today, valueFor(b.GID, today)],
    [agent2, c.GID, yesterday, valueFor(c.GID, yesterday)],
    [agent2, c.GID, today, valueFor(c.GID, today)],
  ];
  for (const [token, gid, date, value] of agentCalls) statuses.push(await declare(token, gid, date, value));
  // Refused, nothing written: a date outside the agent's window, a ghadi not assigned to it.
  const refused = [
    await declare(agent1, a.GID, addDays(today, -3), '33'),
    await declare(agent2, a.GID, today, '33'),
  ];

  const ghadis = jsonOf<{ data: ChartGhadi[] }>(
    await call('/api/ghadis', { address: nextAddress() }, 200),
    'ghadis',
  ).data.map(({ GID, NameEn, NameHn }) => ({ GID, NameEn, NameHn }));
  const months: string[] = [];
  for (let month = `${year - 1}-01`; month <= today.slice(0, 7); ) {
    months.push(month);
    month = addDays(`${month}-28`, 7).slice(0, 7);
  }
  const site: ChartsSite = {
    url,
    today,
    years: [year - 1, year],
    months,
    ghadis,
    mine,
    declared,
    agentToken: agent1,
    get: (pathname) => send(url, pathname, { address: nextAddress() }),
    declare,
  };
  const ok =
    bulk.created === lines.length &&
    second.corrected === 1 &&
    second.unchanged === 1 &&
    statuses.every((status) => status === 200) &&
    refused.every((status) => status === 403) &&
    declared.corrections === 3;
  const detail =
    `${declared.size} results for ${mine.length} ghadis (${mine.map((g) => g.NameEn).join(', ')}) from ${year - 1}-01-01 to ${today}: ` +
    `import of ${lines.length} lines → created ${bulk.created}; ${adminDates.length} admin and ${agentCalls.length} agent submissions → ` +
    `${statuses.filter((status) => status === 200).length} × 200; CSV correction → corrected ${second.corrected}, unchanged ${second.unchanged}; ` +
    `${declared.corrections} corrections in all (admin, CSV, agent); agent outside its window / unassigned → ${refused.join(', ')}`;
  return {
    site,
    seeding: { name: 'two years seeded through the API (admin CSV and submissions, two agents)', ok, detail },
  };
}
