/**
 * The console group's checks of GET /api/activity (console-checks.ts): each action of the issue's
 * list found by its filter with the right user, role, target, address and user agent; each user's
 * entries by userId, newest first; the pages, totals and date filter consistent; and no password,
 * hash or token anywhere in the whole trail.
 */
import { jsonOf } from '../lib/timed-request.js';
import { check } from './check.js';
import type { Scenario } from './console-scenario.js';
import type { ExpectedEntry } from './console-site.js';
import type { CheckResult } from './types.js';

/** The issue's list, every one of which the scenario performs. */
const ACTIONS = [
  'login',
  'login_failed',
  'logout',
  'user_create',
  'user_update',
  'user_delete',
  'ghadi_create',
  'ghadi_update',
  'ghadi_delete',
  'assignment_create',
  'assignment_delete',
  'content_create',
  'content_update',
  'content_delete',
  'result_declare',
  'result_correct',
  'results_import',
];

interface Entry {
  _id: string;
  At: string;
  UserId: number | null;
  UserName: string | null;
  Role: string | null;
  Action: string;
  Target: { Id: string | null; Name: string };
  Summary: string;
  Ip: string;
  UserAgent: string;
}

interface Page {
  data: Entry[];
  pagination: { page: number; limit: number; total: number; totalPages: number };
}

/** Every page of a query, with each page's answer as sent (the text searched for secrets). */
async function allPages(scenario: Scenario, query: string, limit = 100) {
  const pages: Page[] = [];
  const bodies: string[] = [];
  for (let page = 1; ; page++) {
    const sent = await scenario.site.call(
      'GET',
      `/api/activity?${query}${query ? '&' : ''}page=${page}&limit=${limit}`,
      200,
      {
        token: scenario.admin.token,
      },
    );
    bodies.push(sent.answer.body.toString());
    pages.push(jsonOf<Page>(sent.answer, 'GET /api/activity'));
    if (page >= (pages.at(-1)?.pagination.totalPages ?? 0)) break;
  }
  return { pages, entries: pages.flatMap((page) => page.data), bodies };
}

/** Why an entry is not the expected one ('' when it is). */
function mismatch(entry: Entry, expected: ExpectedEntry): string {
  const { who, target, sent } = expected;
  const wrong: string[] = [];
  if (entry.UserId !== (who?.userId ?? null)) wrong.push(`UserId ${entry.UserId}`);
  if (entry.UserName !== (who?.userName ?? null)) wrong.push(`UserName ${entry.UserName}`);
  if (entry.Role !== (who?.role ?? null)) wrong.push(`Role ${entry.Role}`);
  if (entry.Target.Id !== target.id || entry.Target.Name !== target.name)
    wrong.push(`Target ${JSON.stringify(entry.Target)}`);
  if (entry.Ip !== sent.address) wrong.push(`Ip ${entry.Ip}`);
  if (entry.UserAgent !== sent.userAgent) wrong.push(`UserAgent ${entry.UserAgent}`);
  const at = Date.parse(entry.At);
  if (!(at >= sent.startedAt - 1000 && at <= sent.endedAt + 1000)) wrong.push(`At ${entry.At}`);
  for (const text of expected.summaryHas)
    if (!entry.Summary.includes(text)) wrong.push(`Summary ${JSON.stringify(entry.Summary)} lacks ${text}`);
  return wrong.join(', ');
}

/** Pairs each expected entry with one entry that matches it; what is left over on either side. */
function pair(entries: Entry[], expected: ExpectedEntry[]) {
  const left = [...entries];
  const missing: string[] = [];
  for (const wanted of expected) {
    const index = left.findIndex((entry) => mismatch(entry, wanted) === '');
    if (index >= 0) left.splice(index, 1);
    else {
      const near = left.find((entry) => entry.UserAgent === wanted.sent.userAgent);
      const why = near ? mismatch(near, wanted) : 'no entry from its request';
      missing.push(`${wanted.action} ${wanted.target.name} (${why})`);
    }
  }
  return { missing, unexpected: left };
}

type Listed = Pick<Entry, 'Action' | 'UserAgent'> & { Target: { Name: string } };

/**
 * The entries in order as text. Entries of one request (an assignment to several ghadis: one user
 * agent each request) have no order among themselves, so each run of them is sorted.
 */
function sequence(entries: Listed[]): string {
  const runs: string[][] = [];
  let agent: string | undefined;
  for (const entry of entries) {
    if (entry.UserAgent !== agent || runs.length === 0) runs.push([]);
    agent = entry.UserAgent;
    runs.at(-1)?.push(`${entry.Action} ${entry.Target.Name}`);
  }
  return runs.flatMap((run) => run.sort()).join(' | ');
}

/** Where two sequences first part ('' when they agree), with what each has there. */
function firstDifference(actual: string, expected: string): string {
  if (actual === expected) return '';
  const [a, b] = [actual.split(' | '), expected.split(' | ')];
  const index = a.findIndex((item, at) => item !== b[at]);
  const at = index < 0 ? a.length : index;
  return `${a.length} entries (expected ${b.length}); #${at + 1} is ${a.slice(at, at + 3).join(' | ') || 'none'}; expected ${b.slice(at, at + 3).join(' | ') || 'none'}`;
}
const newestFirst = (expected: ExpectedEntry[]): Listed[] =>
  expected
    .map((entry) => ({
      Action: entry.action,
      Target: { Name: entry.target.name },
      UserAgent: entry.sent.userAgent,
    }))
    .reverse();

export async function activityChecks(scenario: Scenario): Promise<CheckResult[]> {
  const { site, admin, agents } = scenario;
  const byAction = await check(
    'GET /api/activity?action=…: each of the 17 actions with its user, role, target, address, user agent and summary',
    async () => {
      const problems: string[] = [];
      const counts: string[] = [];
      for (const action of ACTIONS) {
        const expected = site.entries.filter((entry) => entry.action === action);
        const { entries, pages } = await allPages(scenario, `action=${action}`);
        if (expected.length === 0) problems.push(`${action}: the group performed none`);
        if (entries.some((entry) => entry.Action !== action))
          problems.push(`${action}: other actions in the answer`);
        if (pages[0]?.pagination.total !== entries.length)
          problems.push(`${action}: total ${pages[0]?.pagination.total}`);
        const { missing, unexpected } = pair(entries, expected);
        problems.push(...missing.map((text) => `missing ${text}`));
        problems.push(
          ...unexpected.map(
            (entry) => `unexpected ${entry.Action} ${entry.Target.Name} by ${entry.UserName}`,
          ),
        );
        counts.push(`${action} ${entries.length}`);
      }
      return {
        ok: problems.length === 0,
        detail: `${counts.join(', ')} (all as expected: ${site.entries.length} entries); ${problems.length} problems${problems.length ? `: ${problems.slice(0, 6).join('; ')}` : ''}`,
      };
    },
  );

  const byUser = await check(
    'GET /api/activity?userId=…(&action=…): each user’s entries, newest first',
    async () => {
      const problems: string[] = [];
      const figures: string[] = [];
      for (const person of [admin, agents.asha, agents.bharat, agents.chitra, agents.dev]) {
        const expected = site.entries.filter((entry) => entry.who?.userId === person.userId);
        const { entries } = await allPages(scenario, `userId=${person.userId}`);
        const difference = firstDifference(sequence(entries), sequence(newestFirst(expected)));
        if (difference) problems.push(`${person.userName}: ${difference}`);
        figures.push(`${person.userName} ${entries.length}`);
      }
      const declares = site.entries.filter(
        (entry) => entry.who === agents.asha && entry.action === 'result_declare',
      );
      const both = await allPages(scenario, `userId=${agents.asha.userId}&action=result_declare`);
      const declaresDiffer = firstDifference(sequence(both.entries), sequence(newestFirst(declares)));
      if (declaresDiffer) problems.push(`${agents.asha.userName}'s result_declare: ${declaresDiffer}`);
      const unknown = await allPages(scenario, 'action=login_failed');
      const nameless = unknown.entries.filter((entry) => entry.UserId === null).length;
      return {
        ok: problems.length === 0,
        detail: `${figures.join(', ')}; ${agents.asha.userName} × result_declare ${both.entries.length}; failed logins by no account (UserId null) ${nameless}; ${problems.length} problems${problems.length ? `: ${problems.slice(0, 4).join('; ')}` : ''}`,
      };
    },
  );

  const paging = await check(
    'GET /api/activity: newest first, pages of 7 = pages of 100, totals, date filter',
    async () => {
      const problems: string[] = [];
      const whole = await allPages(scenario, '');
      const small = await allPages(scenario, '', 7);
      const total = whole.pages[0]?.pagination.total ?? -1;
      if (total !== site.entries.length) problems.push(`total ${total}, ${site.entries.length} entries made`);
      const difference = firstDifference(sequence(whole.entries), sequence(newestFirst(site.entries)));
      if (difference) problems.push(`not the entries made, newest first: ${difference}`);
      const ids = (entries: Entry[]) => entries.map((entry) => entry._id).join(',');
      if (ids(small.entries) !== ids(whole.entries)) problems.push('pages of 7 differ from pages of 100');
      if (new Set(small.entries.map((entry) => entry._id)).size !== small.entries.length)
        problems.push('an entry on two pages');
      for (const [index, { pagination, data }] of small.pages.entries()) {
        const right =
          pagination.page === index + 1 &&
          pagination.limit === 7 &&
          pagination.total === total &&
          pagination.totalPages === Math.ceil(total / 7) &&
          data.length === Math.min(7, total - index * 7);
        if (!right) problems.push(`page ${index + 1}: ${JSON.stringify(pagination)}, ${data.length} entries`);
      }
      const backwards = whole.entries.findIndex(
        (entry, index) => index > 0 && entry.At > (whole.entries[index - 1]?.At ?? ''),
      );
      if (backwards >= 0) problems.push(`At goes forward at entry ${backwards}`);
      const { today, yesterday } = site.clock;
      const onToday = await allPages(scenario, `from=${today}&to=${today}`);
      const onYesterday = await allPages(scenario, `from=${yesterday}&to=${yesterday}`);
      if (onToday.entries.length !== total) problems.push(`from=to=today: ${onToday.entries.length}`);
      if (onYesterday.entries.length !== 0) problems.push(`from=to=yesterday: ${onYesterday.entries.length}`);
      return {
        ok: problems.length === 0,
        detail: `${total} entries: ${small.pages.length} pages of 7 match ${whole.pages.length} of 100, newest first, At never rises; today ${onToday.entries.length}, yesterday ${onYesterday.entries.length}; ${problems.length} problems${problems.length ? `: ${problems.slice(0, 5).join('; ')}` : ''}`,
      };
    },
  );

  const secrets = await check(
    'GET /api/activity: no password, hash or token in any page of the trail',
    async () => {
      const { bodies, entries } = await allPages(scenario, '', 10);
      const text = bodies.join('\n');
      const found = [...site.secrets].filter((secret) => text.includes(secret));
      const hashes = /\$argon2|\$2[aby]\$|eyJ[\w-]{8,}\.[\w-]{8,}\./.exec(text);
      const passwordChange = entries.find((entry) => entry.Action === 'user_update')?.Summary ?? '';
      const tokens = [...site.secrets].filter((secret) => secret.startsWith('eyJ')).length;
      return {
        ok: found.length === 0 && hashes === null && site.secrets.size > 10,
        detail: `${bodies.length} pages (${text.length} characters) searched for ${site.secrets.size} secrets (${site.secrets.size - tokens} passwords, wrong and unknown ones included; ${tokens} tokens): ${found.length} found${found.length ? ` (${found.map((secret) => secret.slice(0, 12)).join(', ')})` : ''}; hash or token pattern: ${hashes ? hashes[0] : 'none'}; the password change reads ${JSON.stringify(passwordChange)}`,
      };
    },
  );
  return [byAction, byUser, paging, secrets];
}
