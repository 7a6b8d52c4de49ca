/**
 * The console group's checks of GET /api/today (console-checks.ts): every live ghadi (the starter
 * ones and the group's) in OrderId order with the dueAt and state the site's clock gives, today's
 * Result, DeclaredAt and DeclaredBy, and each ghadi's agents with their lastSeenAt.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { jsonOf } from '../lib/timed-request.js';
import { check } from './check.js';
import { type BoardState, expectedState } from './console-clock.js';
import { OVERDUE_AFTER_MINUTES, type Scenario } from './console-scenario.js';
import type { ConsoleSite, Sent } from './console-site.js';
import type { CheckResult } from './types.js';

interface BoardAgent {
  User_Id: number;
  UserName: string;
  DisplayName: string;
  lastSeenAt: string | null;
}

interface BoardGhadi {
  GID: number;
  NameEn: string;
  NameHn: string;
  RTime: string;
  dueAt: string | null;
  state: string;
  Result: string | null;
  DeclaredAt: string | null;
  DeclaredBy: string | null;
  agents: BoardAgent[];
}

interface Board {
  date: string;
  timeZone: string;
  overdueAfterMinutes: number;
  ghadis: BoardGhadi[];
}

/** The board once every agent who made a request has a lastSeenAt (written in the background), or after 5 s. */
async function readBoard(scenario: Scenario): Promise<{ board: Board; sent: Sent; waitedMs: number }> {
  const { site, admin } = scenario;
  const seen = [...site.people.values()].filter((person) => person.firstSeen);
  const started = Date.now();
  for (;;) {
    const sent = await site.call('GET', '/api/today', 200, { token: admin.token });
    const board = jsonOf<{ data: Board }>(sent.answer, 'GET /api/today').data;
    const agents = board.ghadis.flatMap((ghadi) => ghadi.agents);
    const all = seen.every((person) =>
      agents.some((agent) => agent.User_Id === person.userId && agent.lastSeenAt !== null),
    );
    if (all || Date.now() - started > 5000) return { board, sent, waitedMs: Date.now() - started };
    await sleep(100);
  }
}

/** The live ghadis as the board must list them: by OrderId, then GID. */
function liveGhadis(site: ConsoleSite) {
  return [...site.ghadis.values()]
    .filter((ghadi) => !ghadi.deleted)
    .sort((x, y) => x.OrderId - y.OrderId || x.GID - y.GID);
}

const within = (iso: string | null, from: number, to: number) =>
  iso !== null && Date.parse(iso) >= from && Date.parse(iso) <= to;

export async function boardChecks(scenario: Scenario): Promise<CheckResult[]> {
  const { site, intended } = scenario;
  const { clock } = site;
  const read = readBoard(scenario);

  const states = await check(
    'GET /api/today: every live ghadi by OrderId, its dueAt and state by the site clock',
    async () => {
      const { board, sent } = await read;
      const problems: string[] = [];
      if (board.date !== clock.today) problems.push(`date ${board.date}, today is ${clock.today}`);
      if (board.timeZone !== clock.zone) problems.push(`timeZone ${board.timeZone}`);
      if (board.overdueAfterMinutes !== OVERDUE_AFTER_MINUTES)
        problems.push(`overdueAfterMinutes ${board.overdueAfterMinutes}`);
      const expected = liveGhadis(site);
      const order = (list: Array<{ GID: number }>) => list.map((ghadi) => ghadi.GID).join(',');
      if (order(board.ghadis) !== order(expected))
        problems.push(`order ${order(board.ghadis)}, expected ${order(expected)}`);
      const tally = new Map<string, number>();
      for (const model of expected) {
        const row = board.ghadis.find((ghadi) => ghadi.GID === model.GID);
        if (!row) continue;
        const dueAt = clock.dueAtOf(model.RTime);
        const result = site.results.get(`${model.GID}|${clock.today}`) ?? null;
        // The state at the request's start or its end: a starter ghadi may turn due in between.
        const allowed = [sent.startedAt, sent.endedAt].map((now) =>
          expectedState(dueAt, result, now, OVERDUE_AFTER_MINUTES),
        );
        const mine = intended.get(model.GID);
        if (mine && !allowed.includes(mine))
          problems.push(`${model.NameEn}: the group meant ${mine}, reckons ${allowed[0]}`);
        for (const field of ['NameEn', 'NameHn', 'RTime'] as const)
          if (row[field] !== model[field]) problems.push(`${model.NameEn}: ${field} ${row[field]}`);
        if (row.dueAt !== dueAt)
          problems.push(`${model.NameEn} (${model.RTime}): dueAt ${row.dueAt}, expected ${dueAt}`);
        if (!allowed.includes(row.state as BoardState))
          problems.push(`${model.NameEn} (${model.RTime}): ${row.state}, expected ${allowed.join(' or ')}`);
        tally.set(row.state, (tally.get(row.state) ?? 0) + 1);
      }
      const covered = new Set(intended.values());
      if (covered.size !== 5) problems.push(`the group's ghadis cover ${[...covered].join(', ')} only`);
      const deleted = board.ghadis.some((ghadi) => ghadi.GID === scenario.deletedGhadi.GID);
      if (deleted) problems.push('the deleted ghadi is still listed');
      const unreadable = expected.filter((ghadi) => clock.dueAtOf(ghadi.RTime) === null).length;
      return {
        ok: problems.length === 0,
        detail:
          `${board.ghadis.length} ghadis (${board.ghadis.length - intended.size} starter, ${intended.size} made) on ${board.date} in ${board.timeZone}, ` +
          `overdue after ${board.overdueAfterMinutes} min: ${[...tally].map(([state, n]) => `${n} ${state}`).join(', ')}; ` +
          `${unreadable} unreadable RTime → dueAt null; deleted ghadi listed: ${deleted}; ${problems.length} problems${problems.length ? `: ${problems.slice(0, 6).join('; ')}` : ''}`,
      };
    },
  );

  const results = await check(
    'GET /api/today: Result, DeclaredAt and DeclaredBy of today’s results (agent, admin, CSV, corrections)',
    async () => {
      const { board } = await read;
      const problems: string[] = [];
      let declared = 0;
      for (const row of board.ghadis) {
        const result = site.results.get(`${row.GID}|${clock.today}`);
        if (!result) {
          if (row.Result !== null || row.DeclaredAt !== null || row.DeclaredBy !== null)
            problems.push(`${row.NameEn}: ${row.Result} by ${row.DeclaredBy}, none declared today`);
          continue;
        }
        declared++;
        const by = site.declaredBy(result);
        if (row.Result !== result.value)
          problems.push(`${row.NameEn}: Result ${row.Result}, expected ${result.value}`);
        if (row.DeclaredBy !== by)
          problems.push(`${row.NameEn}: DeclaredBy ${row.DeclaredBy}, expected ${by}`);
        if (!within(row.DeclaredAt, result.sent.startedAt - 1000, result.sent.endedAt + 1000))
          problems.push(`${row.NameEn}: DeclaredAt ${row.DeclaredAt} outside its request`);
      }
      return {
        ok: problems.length === 0 && declared === 5,
        detail: `${declared} ghadis with today's result (expected 5: agent, admin early, CSV, corrected by the admin, by the agent), the rest null (yesterday's and a dry run's values not shown); ${problems.length} problems${problems.length ? `: ${problems.slice(0, 6).join('; ')}` : ''}`,
      };
    },
  );

  const agents = await check(
    'GET /api/today: each ghadi’s active agents by user name, lastSeenAt at their last request or null',
    async () => {
      const { board, waitedMs } = await read;
      const problems: string[] = [];
      let listed = 0;
      let seen = 0;
      for (const row of board.ghadis) {
        const expected = [...site.assignments.values()]
          .filter((assignment) => assignment.gid === row.GID)
          .map((assignment) => site.person(assignment.userId))
          .filter((person) => !person.deleted && person.role === 'agent')
          .sort((x, y) => (x.userName < y.userName ? -1 : x.userName > y.userName ? 1 : x.userId - y.userId));
        const names = (list: Array<{ UserName: string }>) => list.map((agent) => agent.UserName).join(',');
        if (names(row.agents) !== names(expected.map((person) => ({ UserName: person.userName }))))
          problems.push(`${row.NameEn}: agents ${names(row.agents)}`);
        for (const agent of row.agents) {
          listed++;
          const person = site.people.get(agent.User_Id);
          if (!person) continue;
          if (agent.UserName !== person.userName || agent.DisplayName !== person.displayName)
            problems.push(`${row.NameEn}: ${agent.UserName} "${agent.DisplayName}"`);
          const first = person.firstSeen;
          if (first === null) {
            if (agent.lastSeenAt !== null)
              problems.push(`${agent.UserName}: lastSeenAt ${agent.lastSeenAt}, never seen`);
            continue;
          }
          seen++;
          // To the minute at most: from the start of the request's minute to its end.
          const from = Math.floor(first.startedAt / 60_000) * 60_000;
          if (!within(agent.lastSeenAt, from, first.endedAt + 1000))
            problems.push(
              `${agent.UserName}: lastSeenAt ${agent.lastSeenAt}, request at ${new Date(first.startedAt).toISOString()}`,
            );
        }
      }
      return {
        ok: problems.length === 0 && seen > 0 && listed > seen,
        detail: `${listed} agent rows (deleted and unassigned agents absent); ${seen} with lastSeenAt at their request (board read ${waitedMs} ms after asking), ${listed - seen} null (never signed in); ${problems.length} problems${problems.length ? `: ${problems.slice(0, 6).join('; ')}` : ''}`,
      };
    },
  );
  return [states, results, agents];
}
