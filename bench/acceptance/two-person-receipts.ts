/**
 * Issue 40's receipts and public punctuality, from outside (two-person-checks.ts runs them on its
 * site): a first declaration's receipt and its correction's, in the API and on /r/{receipt}, an
 * unknown receipt's 404; and GET /api/punctuality/{name} against declarations made at known times
 * relative to each ghadi's RTime, reckoned here by the checker's own arithmetic.
 */
import { check } from './check.js';
import { assign, type Entry, type MatkaSite } from './matka-site.js';
import type { CheckResult } from './types.js';

/** The site runs in Asia/Kolkata (the runner's SITE_TIMEZONE): UTC+05:30 all year. */
const SITE_OFFSET_MINUTES = 330;
const OVERDUE_AFTER_MINUTES = 15;

interface Receipt extends Entry {
  Receipt: string;
  Latest: boolean;
  Corrected: boolean;
  Next: { Receipt: string; Result: string } | null;
}

/** "HH:mm" of the site's clock, `offset` minutes from an instant. */
function siteTime(instant: number, offsetMinutes: number): string {
  const local = new Date(instant + (SITE_OFFSET_MINUTES + offsetMinutes) * 60_000);
  return `${String(local.getUTCHours()).padStart(2, '0')}:${String(local.getUTCMinutes()).padStart(2, '0')}`;
}

/** Minutes from a date's RTime ("HH:mm", site time) to an instant; 0 when before it. */
function delayMinutes(date: string, rTime: string, declaredAt: string): number {
  const due = Date.parse(`${date}T${rTime}:00+05:30`);
  return Math.max(0, (Date.parse(declaredAt) - due) / 60_000);
}

async function receiptOf(site: MatkaSite, entry: Entry) {
  const receipt = entry.hash.slice(0, 10);
  const api = await site.call<Receipt>('GET', `/api/declarations/receipt/${receipt}`);
  const page = await site.get(`/r/${receipt}`);
  return { receipt, api, page };
}

async function receiptsCheck(site: MatkaSite, gid: number): Promise<CheckResult> {
  return check(
    'receipts: a first declaration’s and its correction’s, in the API and on /r/{receipt}; 404 for an unknown one',
    async () => {
      const entries = (await site.log()).filter((entry) => entry.GID === gid);
      const [first, correction] = entries;
      if (!first || !correction) return { ok: false, detail: `${entries.length} entries for ghadi ${gid}` };
      const older = await receiptOf(site, first);
      const newer = await receiptOf(site, correction);
      const problems: string[] = [];
      const olderData = older.api.body.data;
      if (older.api.status !== 200 || olderData?.seq !== first.seq || olderData.hash !== first.hash)
        problems.push(`first: ${older.api.status} ${JSON.stringify(olderData)}`);
      if (olderData?.Latest !== false || olderData.Next?.Receipt !== newer.receipt)
        problems.push(
          `first is not marked corrected by ${newer.receipt}: ${JSON.stringify(olderData?.Next)}`,
        );
      const newerData = newer.api.body.data;
      if (newerData?.Latest !== true || newerData.Corrected !== true || newerData.Previous !== first.Result)
        problems.push(`correction: ${JSON.stringify(newerData)}`);
      const olderHtml = older.page.body.toString('utf8');
      if (
        older.page.status !== 200 ||
        !olderHtml.includes(first.hash) ||
        !olderHtml.includes(`/r/${newer.receipt}`)
      )
        problems.push(
          `/r/${older.receipt}: ${older.page.status}, hash ${olderHtml.includes(first.hash)}, link ${olderHtml.includes(`/r/${newer.receipt}`)}`,
        );
      if (newer.page.status !== 200 || !newer.page.body.toString('utf8').includes(correction.hash))
        problems.push(`/r/${newer.receipt}: ${newer.page.status}`);
      // A receipt no entry's hash begins with.
      const hashes = (await site.log()).map((entry) => entry.hash);
      let unknown = 'ffffffffff';
      for (let n = 0; hashes.some((hash) => hash.startsWith(unknown)); n++)
        unknown = n.toString(16).padStart(10, '0');
      const missingApi = await site.call('GET', `/api/declarations/receipt/${unknown}`);
      const missingPage = await site.get(`/r/${unknown}`);
      if (missingApi.status !== 404 || missingPage.status !== 404)
        problems.push(`unknown ${unknown}: API ${missingApi.status}, page ${missingPage.status}`);
      return {
        ok: problems.length === 0,
        detail: problems.join('; ') || `${older.receipt} → ${newer.receipt}; ${unknown} 404`,
      };
    },
  );
}

async function punctualityCheck(site: MatkaSite): Promise<CheckResult> {
  return check(
    'GET /api/punctuality/{name}: declared, on time, median delay and corrections of declarations at known times',
    async () => {
      const now = Date.now();
      const cases = [
        { name: 'Punctual Early', rTime: siteTime(now, 60), corrected: false },
        { name: 'Punctual Late', rTime: siteTime(now, -60), corrected: true },
      ];
      const problems: string[] = [];
      const facts: string[] = [];
      for (const item of cases) {
        const ghadi = await site.createGhadi({
          NameEn: item.name,
          NameHn: `${item.name} हि`,
          RTime: item.rTime,
          OrderId: 9,
        });
        await assign(site, 0, [ghadi.GID]);
        const declared = await site.submit(site.agents[0] ?? '', ghadi.GID, '25', site.today);
        if (item.corrected) await site.submit(site.admin, ghadi.GID, '26', site.today);
        const declaredAt = (declared.body.data as { DeclaredAt?: string } | undefined)?.DeclaredAt ?? '';
        const delay = delayMinutes(site.today, item.rTime, declaredAt);
        const answer = await site.call<{
          declared: number;
          onTime: number | null;
          medianDelayMinutes: number | null;
          corrections: number;
        }>('GET', `/api/punctuality/${encodeURIComponent(item.name)}`);
        const data = answer.body.data;
        const expected = {
          declared: 1,
          onTime: delay <= OVERDUE_AFTER_MINUTES ? 1 : 0,
          corrections: item.corrected ? 1 : 0,
        };
        facts.push(`${item.name} (RTime ${item.rTime}, ${delay.toFixed(1)} min): ${JSON.stringify(data)}`);
        if (
          answer.status !== 200 ||
          data?.declared !== expected.declared ||
          data.onTime !== expected.onTime ||
          data.corrections !== expected.corrections ||
          data.medianDelayMinutes === null ||
          Math.abs(data.medianDelayMinutes - delay) > 0.1
        )
          problems.push(
            `${item.name}: expected ${JSON.stringify({ ...expected, medianDelayMinutes: Number(delay.toFixed(1)) })}`,
          );
      }
      const unknown = await site.call('GET', '/api/punctuality/No%20Such%20Ghadi');
      if (unknown.status !== 404) problems.push(`an unknown ghadi: ${unknown.status}`);
      return { ok: problems.length === 0, detail: [...problems, ...facts].join('; ') };
    },
  );
}

export async function receiptChecks(site: MatkaSite): Promise<CheckResult[]> {
  const ghadi = await site.createGhadi({
    NameEn: 'Receipt Ghadi',
    NameHn: 'रसीद',
    RTime: '11:55 PM',
    OrderId: 8,
  });
  await site.submit(site.admin, ghadi.GID, '61', site.today);
  await site.submit(site.admin, ghadi.GID, '62', site.today);
  return [await receiptsCheck(site, ghadi.GID), await punctualityCheck(site)];
}
