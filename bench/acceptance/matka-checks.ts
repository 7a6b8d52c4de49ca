/**
 * Issue 39's "Done when", from outside, on a server of its own (matka-site.ts), over HTTP: ghadis of
 * each kind; the panna rule on all 1 000 three-digit strings; open and close halves declared by agents
 * and the admin, a corrected panna, the log's entries (Step, Previous, Corrected, the hash chain);
 * holidays and off-days (the board, 409, the admin's override); the CSV import with a bad row. The
 * pages, weekly charts, sitemap and a live panel chart in Chromium are in matka-pages.ts.
 */
import { brokenLink } from '../lib/declaration-chain.js';
import { check } from './check.js';
import { type MatkaScene, matkaPageChecks } from './matka-pages.js';
import {
  addDays,
  ankByHand,
  assign,
  type Ghadi,
  isPannaByHand,
  type MatkaSite,
  startMatkaSite,
  weekdayOf,
} from './matka-site.js';
import type { CheckResult, CheckSettings, StandaloneChecks } from './types.js';

const listed = (problems: string[]) =>
  `${problems.length} problems${problems.length ? `: ${problems.slice(0, 6).join('; ')}` : ''}`;

/** What the site must show of each result: its stored value and whether it was corrected. */
export class Declared {
  private readonly cells = new Map<string, { Result: string; Corrected: boolean }>();

  set(gid: number, date: string, value: string): void {
    const key = `${gid}|${date}`;
    const old = this.cells.get(key)?.Result;
    if (old === value) return;
    // Completing an open half (the same open panna and ank, now with a close) is not a correction.
    const completes =
      old !== undefined &&
      /^\d{3}-\d$/.test(old) &&
      /^\d{3}-\d{2}-\d{3}$/.test(value) &&
      value.startsWith(old);
    this.cells.set(key, { Result: value, Corrected: old !== undefined && !completes });
  }

  get(gid: number, date: string) {
    return this.cells.get(`${gid}|${date}`) ?? null;
  }

  datesOf(gid: number): string[] {
    return [...this.cells.keys()]
      .filter((key) => key.startsWith(`${gid}|`))
      .map((key) => key.slice(key.indexOf('|') + 1))
      .sort();
  }
}

async function kindsCheck(site: MatkaSite, scene: MatkaScene): Promise<CheckResult> {
  return check(
    'ghadis of each kind: Kind, OpenTime, Days answered; an old client makes a daily jodi ghadi',
    async () => {
      const problems: string[] = [];
      const board = (await site.call<Ghadi[]>('GET', '/api/ghadis')).body.data ?? [];
      for (const ghadi of Object.values(scene.ghadis)) {
        const row = board.find((item) => item.GID === ghadi.GID);
        if (
          !row ||
          row.Kind !== ghadi.Kind ||
          row.OpenTime !== ghadi.OpenTime ||
          JSON.stringify(row.Days) !== JSON.stringify(ghadi.Days)
        )
          problems.push(
            `${ghadi.NameEn}: ${JSON.stringify(row && { Kind: row.Kind, OpenTime: row.OpenTime, Days: row.Days })}`,
          );
      }
      const jodi = scene.ghadis.jodi;
      if (jodi.Kind !== 'jodi' || jodi.OpenTime !== null || jodi.Days.length !== 7)
        problems.push('the old client’s ghadi is not a daily jodi ghadi');
      const kept = await site.call<Ghadi>('PUT', `/api/ghadis/${scene.ghadis.weekly.GID}`, site.admin, {
        NameEn: scene.ghadis.weekly.NameEn,
        NameHn: scene.ghadis.weekly.NameHn,
        RTime: scene.ghadis.weekly.RTime,
        OrderId: 3,
      });
      if (
        kept.body.data?.Kind !== 'open-close' ||
        kept.body.data.OpenTime !== scene.ghadis.weekly.OpenTime ||
        kept.body.data.Days.join() !== '1,2,3,4,5,6'
      )
        problems.push(`a PUT without the new fields changed them: ${JSON.stringify(kept.body.data)}`);
      const refusals = [
        [{ Kind: 'open-close' }, /OpenTime/],
        [{ Kind: 'open-close', OpenTime: '9:00 PM' }, /earlier/],
        [{ Days: [] }, /Days/],
      ] as const;
      for (const [fields, message] of refusals) {
        const answer = await site.call('POST', '/api/ghadis', site.admin, {
          NameEn: 'Refused Ghadi',
          NameHn: 'अस्वीकृत',
          RTime: '5:00 PM',
          OrderId: 90,
          ...fields,
        });
        if (answer.status !== 400 || !message.test(answer.body.message ?? ''))
          problems.push(`${JSON.stringify(fields)}: ${answer.status} ${answer.body.message}`);
      }
      return {
        ok: problems.length === 0,
        detail: `${Object.keys(scene.ghadis).length} ghadis (${Object.values(scene.ghadis)
          .map(
            (g) =>
              `${g.NameEn}: ${g.Kind}${g.OpenTime ? ` ${g.OpenTime}–${g.RTime}` : ''}${g.Days.length < 7 ? ` days ${g.Days.join('')}` : ''}`,
          )
          .join(', ')}); a PUT without the new fields keeps them; 3 bad ghadis refused; ${listed(problems)}`,
      };
    },
  );
}

async function pannaRuleCheck(site: MatkaSite, scene: MatkaScene): Promise<CheckResult> {
  return check(
    'the panna rule on all 1 000 three-digit strings: exactly the 220 pannas accepted, each ank right',
    async () => {
      const ghadi = scene.ghadis.rules;
      const date = addDays(site.today, -6);
      const problems: string[] = [];
      let accepted = 0;
      for (let n = 0; n < 1000; n++) {
        const text = String(n).padStart(3, '0');
        const answer = await site.submit(site.admin, ghadi.GID, text, date);
        const panna = isPannaByHand(text);
        if (answer.status === 200) {
          accepted++;
          if (!panna) problems.push(`${text} accepted`);
          else if (answer.body.data?.Result !== `${text}-${ankByHand(text)}`)
            problems.push(`${text} stored ${answer.body.data?.Result}`);
          else scene.declared.set(ghadi.GID, date, `${text}-${ankByHand(text)}`);
        } else if (panna) problems.push(`${text}: ${answer.status}`);
        else if (answer.status !== 400 || !/panna/.test(answer.body.message ?? ''))
          problems.push(`${text}: ${answer.status} ${answer.body.message}`);
      }
      // A panna with a wrong ank is refused, naming the ank.
      const wrong = await site.submit(site.admin, ghadi.GID, '128-2', date);
      if (wrong.status !== 400 || !/ank/.test(wrong.body.message ?? ''))
        problems.push(`128-2: ${wrong.status} ${wrong.body.message}`);
      return {
        ok: accepted === 220 && problems.length === 0,
        detail: `${accepted} of 1 000 accepted (220 expected), each stored as panna-ank; 128-2 refused naming the ank; ${listed(problems)}`,
      };
    },
  );
}

async function stepsCheck(site: MatkaSite, scene: MatkaScene): Promise<CheckResult> {
  return check(
    'open and close halves by agents and the admin, a corrected panna: answers and the log’s entries',
    async () => {
      const { market } = scene.ghadis;
      const [agent1 = '', agent2 = ''] = site.agents;
      const yesterday = addDays(site.today, -1);
      const problems: string[] = [];
      const expect = async (
        token: string,
        who: string,
        text: string,
        date: string,
        status: number,
        result?: string,
        message?: RegExp,
      ) => {
        const answer = await site.submit(token, market.GID, text, date);
        const ok =
          answer.status === status &&
          (result === undefined || answer.body.data?.Result === result) &&
          (message === undefined || message.test(answer.body.message ?? ''));
        if (!ok)
          problems.push(
            `${who} ${text} on ${date}: ${answer.status} ${answer.body.data?.Result ?? answer.body.message}`,
          );
        if (answer.status === 200 && answer.body.data)
          scene.declared.set(market.GID, date, answer.body.data.Result);
        return answer;
      };
      await expect(agent1, 'agent 1', '8-459', site.today, 400, undefined, /open panna first/);
      await expect(agent2, 'agent 2 (not assigned)', '123', site.today, 403);
      await expect(agent1, 'agent 1', '321', site.today, 400, undefined, /open panna/);
      const open = await expect(agent1, 'agent 1', '123', site.today, 200, '123-6');
      if (open.body.data?.Corrected !== false) problems.push('the open half is marked corrected');
      await expect(agent1, 'agent 1', '7-459', site.today, 400, undefined, /close ank/);
      await expect(agent1, 'agent 1', '124-78-459', site.today, 400, undefined, /differs/);
      const close = await expect(agent1, 'agent 1', '459', site.today, 200, '123-68-459');
      if (close.body.data?.Corrected !== false) problems.push('the close step is marked corrected');
      await expect(agent1, 'agent 1', '123-6', site.today, 400, undefined, /day is complete/);
      const corrected = await expect(site.admin, 'admin', '123-69-450', site.today, 200, '123-69-450');
      if (corrected.body.data?.Corrected !== true || corrected.body.data.Previous !== '123-68-459')
        problems.push(`the correction: ${JSON.stringify(corrected.body.data)}`);
      // Yesterday: the admin opens, corrects the open panna, an agent completes it with the close half.
      await expect(site.admin, 'admin', '120', yesterday, 200, '120-3');
      const reopened = await expect(site.admin, 'admin', '130-4', yesterday, 200, '130-4');
      if (reopened.body.data?.Corrected !== true)
        problems.push('the corrected open half is not marked corrected');
      const completed = await expect(agent1, 'agent 1', '0-550', yesterday, 200, '130-40-550');
      if (completed.body.data?.Corrected !== false)
        problems.push('completing a corrected open half is marked corrected');

      const log = await site.log();
      const link = brokenLink(log);
      if (link) problems.push(`hash chain: ${link}`);
      const mine = log
        .filter((entry) => entry.GID === market.GID)
        .map((entry) =>
          [entry.Date === site.today ? 'today' : 'yesterday', entry.Result, entry.Previous, entry.Step].join(
            ' ',
          ),
        );
      const expected = [
        'today 123-6  open',
        'today 123-68-459 123-6 close',
        'today 123-69-450 123-68-459 close',
        'yesterday 120-3  open',
        'yesterday 130-4 120-3 open',
        'yesterday 130-40-550 130-4 close',
      ];
      if (JSON.stringify(mine) !== JSON.stringify(expected)) problems.push(`entries: ${mine.join(' | ')}`);
      const steps = log.filter(
        (entry) =>
          entry.GID !== market.GID &&
          entry.Step !== null &&
          ![
            scene.ghadis.weekly.GID,
            scene.ghadis.live.GID,
            scene.ghadis.holiday.GID,
            scene.ghadis.offday.GID,
          ].includes(entry.GID),
      );
      if (steps.length > 0) problems.push(`${steps.length} entries of other kinds have a Step`);
      return {
        ok: problems.length === 0,
        detail: `7 refusals and 6 accepted steps as expected; the log's ${log.length} entries chain (recomputed here), this market's read ${expected.length} entries with Step and Previous as declared; ${listed(problems)}`,
      };
    },
  );
}

async function closuresCheck(site: MatkaSite, scene: MatkaScene): Promise<CheckResult> {
  return check(
    'holidays and off-days: listed, the board says so, agents get 409, the admin may declare',
    async () => {
      const { holiday, offday } = scene.ghadis;
      const [, agent2 = ''] = site.agents;
      const problems: string[] = [];
      const added = await site.call<{ _id: string; GID: number | null }>(
        'POST',
        '/api/holidays',
        site.admin,
        { Date: site.today, GID: holiday.GID, Note: 'Diwali' },
      );
      if (added.status !== 201) problems.push(`POST holiday: ${added.status}`);
      const duplicate = await site.call('POST', '/api/holidays', site.admin, {
        Date: site.today,
        GID: holiday.GID,
      });
      if (duplicate.status !== 409) problems.push(`duplicate: ${duplicate.status}`);
      const unknown = await site.call('POST', '/api/holidays', site.admin, {
        Date: site.today,
        GID: 999_999,
      });
      if (unknown.status !== 404) problems.push(`unknown GID: ${unknown.status}`);
      const everyDate = addDays(site.today, -9);
      const every = await site.call<{ _id: string }>('POST', '/api/holidays', site.admin, {
        Date: everyDate,
        Note: 'Every market',
      });
      if (every.status !== 201) problems.push(`every ghadi: ${every.status}`);
      scene.holidays.push({ date: site.today, gid: holiday.GID }, { date: everyDate, gid: null });
      const agentPost = await site.call('POST', '/api/holidays', agent2, { Date: site.today });
      if (agentPost.status !== 403) problems.push(`an agent adding a holiday: ${agentPost.status}`);
      const list =
        (await site.call<Array<{ Date: string; GID: number | null; Note: string }>>('GET', '/api/holidays'))
          .body.data ?? [];
      if (
        !list.some((row) => row.Date === site.today && row.GID === holiday.GID) ||
        !list.some((row) => row.Date === everyDate && row.GID === null)
      )
        problems.push(`GET /api/holidays: ${JSON.stringify(list)}`);

      const board = (await site.call<Ghadi[]>('GET', '/api/ghadis')).body.data ?? [];
      const closed = (gid: number) => board.find((row) => row.GID === gid)?.Closed;
      if (closed(holiday.GID) !== 'holiday') problems.push(`board: holiday market ${closed(holiday.GID)}`);
      if (closed(offday.GID) !== 'off-day') problems.push(`board: off-day market ${closed(offday.GID)}`);
      if (closed(scene.ghadis.market.GID) !== null) problems.push('board: a running market is closed');

      const onHoliday = await site.submit(agent2, holiday.GID, '123', site.today);
      if (onHoliday.status !== 409 || !/holiday/.test(onHoliday.body.message ?? ''))
        problems.push(`agent on the holiday: ${onHoliday.status} ${onHoliday.body.message}`);
      const onOffDay = await site.submit(agent2, offday.GID, '123', site.today);
      if (onOffDay.status !== 409 || !/does not run/.test(onOffDay.body.message ?? ''))
        problems.push(`agent on the off-day: ${onOffDay.status} ${onOffDay.body.message}`);
      const outside = await site.submit(agent2, holiday.GID, '123', addDays(site.today, -4));
      if (outside.status !== 403)
        problems.push(
          `agent outside the window on a holiday ghadi: ${outside.status} (the window comes first)`,
        );
      const override = await site.submit(site.admin, holiday.GID, '237', site.today);
      if (override.status !== 200 || override.body.data?.Result !== '237-2')
        problems.push(`admin on the holiday: ${override.status} ${override.body.data?.Result}`);
      else scene.declared.set(holiday.GID, site.today, '237-2');
      const offOverride = await site.submit(site.admin, offday.GID, '345', site.today);
      if (offOverride.status !== 200) problems.push(`admin on the off-day: ${offOverride.status}`);
      else scene.declared.set(offday.GID, site.today, '345-2');

      const extra = await site.call<{ _id: string }>('POST', '/api/holidays', site.admin, {
        Date: addDays(site.today, 30),
        GID: holiday.GID,
      });
      const removed = await site.call('DELETE', `/api/holidays/${extra.body.data?._id}`, site.admin);
      const again = await site.call('DELETE', `/api/holidays/${extra.body.data?._id}`, site.admin);
      if (removed.status !== 200 || again.status !== 404)
        problems.push(`DELETE: ${removed.status}, again ${again.status}`);
      return {
        ok: problems.length === 0,
        detail: `holiday 201, duplicate 409, unknown GID 404, agent 403; GET lists ${list.length}; board Closed: holiday/off-day/running as set; agent 409 on both ("${onHoliday.body.message}"), 403 outside the window first; admin declared both; DELETE 200 then 404; ${listed(problems)}`,
      };
    },
  );
}

async function importCheck(site: MatkaSite, scene: MatkaScene): Promise<CheckResult> {
  return check(
    'the CSV import takes each kind’s forms; a file with a bad row names it and writes nothing',
    async () => {
      const { weekly, starline } = scene.ghadis;
      const problems: string[] = [];
      const before = (await site.log()).length;
      const rows = scene.weeklyRows;
      const bad = [
        'Date,GID,Result',
        ...rows.slice(0, 3).map(([date, value]) => `${date},${weekly.GID},${value}`),
        `${rows[3]?.[0]},${weekly.GID},123-67-459`,
      ].join('\n');
      const refused = await site.importCsv(bad);
      const errors = (refused.body.errors ?? []) as Array<{ line: number; message: string }>;
      if (
        refused.status !== 400 ||
        errors.length !== 1 ||
        errors[0]?.line !== 5 ||
        !/jodi/.test(errors[0]?.message ?? '')
      )
        problems.push(`bad file: ${refused.status} ${JSON.stringify(errors)}`);
      if ((await site.log()).length !== before) problems.push('the bad file wrote entries');
      const good = [
        'Date,GID,Result',
        ...rows.map(([date, value]) => `${date},${weekly.GID},${value}`),
        `${addDays(site.today, -3)},${starline.GID},128`,
        `${addDays(site.today, -2)},${starline.GID},550-0`,
      ].join('\n');
      const imported = await site.importCsv(good);
      if (imported.status !== 200) problems.push(`good file: ${imported.status} ${imported.body.message}`);
      else {
        for (const [date, value] of rows)
          scene.declared.set(weekly.GID, date, value.length === 3 ? `${value}-${ankByHand(value)}` : value);
        scene.declared.set(starline.GID, addDays(site.today, -3), '128-1');
        scene.declared.set(starline.GID, addDays(site.today, -2), '550-0');
      }
      const stored = (await site.log()).filter((entry) => entry.GID === weekly.GID);
      const wrong = stored.filter(
        (entry) => scene.declared.get(weekly.GID, entry.Date)?.Result !== entry.Result,
      );
      if (wrong.length > 0)
        problems.push(`${wrong.length} imported values differ, e.g. ${wrong[0]?.Date} ${wrong[0]?.Result}`);
      return {
        ok: problems.length === 0,
        detail: `a file with a bad jodi on line 5: ${refused.status}, "${errors[0]?.message}", nothing written; then ${rows.length + 2} lines imported (bare open pannas, open halves, whole days, starline pannas): ${imported.status} ${imported.body.message}; ${listed(problems)}`,
      };
    },
  );
}

/** Mon–Sat market rows for the weeks before this one: whole days, with the latest one an open half. */
function weeklyRows(today: string): Array<[string, string]> {
  const pannas = ['128', '137', '146', '236', '245', '290', '380', '470', '489', '560', '579', '678'];
  const rows: Array<[string, string]> = [];
  let index = 0;
  for (let date = addDays(today, -24); date < addDays(today, -2); date = addDays(date, 1)) {
    if (weekdayOf(date) === 0) continue;
    const open = pannas[index % pannas.length] as string;
    const close = pannas[(index * 5 + 3) % pannas.length] as string;
    index++;
    rows.push([date, index % 4 === 0 ? open : `${open}-${ankByHand(open)}${ankByHand(close)}-${close}`]);
  }
  return rows;
}

async function createScene(site: MatkaSite): Promise<MatkaScene> {
  const offToday = weekdayOf(site.today);
  const make = (NameEn: string, NameHn: string, fields: Record<string, unknown>, OrderId: number) =>
    site.createGhadi({ NameEn, NameHn, RTime: '5:45 PM', OrderId, ...fields });
  const market = { Kind: 'open-close', OpenTime: '3:45 PM' };
  const ghadis = {
    market: await make('Kalyan Test', 'कल्याण टेस्ट', market, 1),
    weekly: await make('Main Bazar Test', 'मेन बाजार टेस्ट', { ...market, Days: [1, 2, 3, 4, 5, 6] }, 2),
    live: await make('Live Market', 'लाइव मार्केट', market, 3),
    holiday: await make('Festival Market', 'उत्सव मार्केट', market, 4),
    offday: await make(
      'Offday Market',
      'ऑफडे मार्केट',
      { ...market, Days: [0, 1, 2, 3, 4, 5, 6].filter((d) => d !== offToday) },
      5,
    ),
    starline: await make('Starline Test', 'स्टारलाइन टेस्ट', { Kind: 'panna' }, 6),
    rules: await make('Rules Starline', 'नियम स्टारलाइन', { Kind: 'panna' }, 7),
    jodi: await site.createGhadi({ NameEn: 'Plain Jodi', NameHn: 'सादा जोड़ी', RTime: '6:30 PM', OrderId: 8 }),
  };
  await assign(site, 0, [ghadis.market.GID, ghadis.live.GID]);
  await assign(site, 1, [ghadis.holiday.GID, ghadis.offday.GID, ghadis.weekly.GID]);
  return { ghadis, declared: new Declared(), holidays: [], weeklyRows: weeklyRows(site.today) };
}

export const matkaChecks: StandaloneChecks = async (settings: CheckSettings) => {
  const started = Date.now();
  const site = await startMatkaSite(settings);
  try {
    const scene = await createScene(site);
    const results: CheckResult[] = [
      {
        name: 'a site of its own, ghadis of each kind, two agents',
        ok: true,
        detail: `up and seeded in ${Date.now() - started} ms; today is ${site.today}`,
      },
      await kindsCheck(site, scene),
      await pannaRuleCheck(site, scene),
      await stepsCheck(site, scene),
      await closuresCheck(site, scene),
      await importCheck(site, scene),
      ...(await matkaPageChecks(site, scene)),
    ];
    return results;
  } finally {
    await site.stop();
  }
};
