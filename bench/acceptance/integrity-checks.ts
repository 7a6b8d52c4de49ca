/**
 * Issue 10's "Done when", from outside, on a server of its own (node dist/server/server.js) started on
 * a database seeded without a log (as one from before the log: the first start writes it):
 * - declares and corrects results through the API;
 * - downloads /api/declarations page by page and recomputes every hash with the code below (not the
 *   server's), checking seq and prevHash continuity and the head;
 * - checks Previous, the Corrected flags and DeclaredAt on the public answers;
 * - finds the correction mark on the results page; reads /declarations and /feed.xml;
 * - runs `npm run verify -- URL` and docs/api.md's plain-Node example.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { addDays } from '../../src/shared/dates.js';
import { signIn } from '../lib/client.js';
import { brokenLink } from '../lib/declaration-chain.js';
import { SEED_ADMIN, seedDatabase } from '../lib/seed.js';
import { freePort, type ServerProcess, startServer } from '../lib/server-process.js';
import { jsonOf, timedRequest } from '../lib/timed-request.js';
import { check } from './check.js';
import type { CheckResult, CheckSettings, StandaloneChecks } from './types.js';

const run = promisify(execFile);

interface Entry {
  seq: number;
  GID: number;
  Name: string;
  Date: string;
  Result: string;
  Previous: string | null;
  DeclaredAt: string;
  prevHash: string;
  hash: string;
}

interface PublicResult {
  GID: number;
  Date: string;
  Result: string;
  Corrected: boolean;
  Previous: string | null;
  DeclaredAt: string;
}

const get = (site: ServerProcess, address: string) => timedRequest(`${site.url}${address}`);

async function downloadLog(
  site: ServerProcess,
): Promise<{ entries: Entry[]; pages: number; head: Entry | undefined }> {
  const entries: Entry[] = [];
  let pages = 0;
  for (let after = 0; ; pages++) {
    const page = jsonOf<{ data: Entry[] }>(
      await get(site, `/api/declarations?after=${after}&limit=250`),
      'log',
    );
    if (page.data.length === 0) return { entries, pages, head: entries.at(-1) };
    entries.push(...page.data);
    after = page.data.at(-1)?.seq ?? after;
  }
}

/** docs/api.md's example, run as a reader would paste it. */
function documentedExample(): string {
  const reference = fs.readFileSync('docs/api.md', 'utf8');
  const section = reference.slice(reference.indexOf('## The declaration log'));
  const match = /```js\n([\s\S]*?)```/.exec(section);
  if (!match?.[1]) throw new Error("docs/api.md's declaration log section has no js example");
  return match[1];
}

export const integrityChecks: StandaloneChecks = async (settings: CheckSettings) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ghadi-integrity-'));
  const file = path.join(dir, 'site.db');
  const seed = await seedDatabase(
    { kind: 'sqlite', file },
    { ghadis: 10, days: 90, admin: SEED_ADMIN, siteTimezone: settings.siteTimezone },
  );
  const started = Date.now();
  const site = await startServer({
    port: await freePort(),
    env: {
      DATABASE_URL: `sqlite:${file}`,
      ADMIN_USERNAME: SEED_ADMIN.username,
      ADMIN_PASSWORD: SEED_ADMIN.password,
      SITE_TIMEZONE: settings.siteTimezone,
      LOG_LEVEL: 'info',
    },
  });
  const startMs = Date.now() - started;
  try {
    const token = await signIn(site.url, SEED_ADMIN, '10.12.0.1');
    const [first, second] = seed.ghadis.slice(-2);
    if (!first || !second) throw new Error('the seed has no ghadis');
    // Tomorrow (admins may date a result that far): no seeded result, so the first value is a first declaration.
    const date = addDays(seed.lastDate, 1);
    const declare = async (gid: number, result: string) => {
      const answer = await timedRequest(`${site.url}/api/agent/my-ghadi/update-result`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        json: { ghadiId: gid, result, dateTime: date },
      });
      if (answer.status !== 200) throw new Error(`declaring answered ${answer.status}`);
    };
    const before = seed.results;
    const previousValue = '45';
    await declare(first.gid, previousValue);
    await declare(first.gid, '54');
    await declare(second.gid, '12');
    const { entries, pages } = await downloadLog(site);
    const results: CheckResult[] = [];

    results.push(
      await check(
        'the log: written at the first start, every hash recomputed, seq and prevHash continuous',
        async () => {
          const problem = brokenLink(entries);
          const head = jsonOf<{ seq: number; hash: string }>(
            await get(site, '/api/declarations/head'),
            'head',
          );
          const ok = problem === null && head.seq === entries.length && head.hash === entries.at(-1)?.hash;
          return {
            ok: ok && entries.length >= before,
            detail: `${entries.length} entries in ${pages} pages (${before} seeded results and their corrections written at start; the server started in ${startMs} ms); ${problem ?? 'every hash matches'}; head seq ${head.seq}`,
          };
        },
      ),
    );

    results.push(
      await check('Previous, Corrected and DeclaredAt agree with the log', async () => {
        const mine = entries.filter((entry) => entry.GID === first.gid && entry.Date === date).slice(-2);
        const [declared, corrected] = mine;
        const rows = jsonOf<{ data: PublicResult[] }>(
          await get(site, `/api/results/${encodeURIComponent(first.name)}`),
          'results',
        ).data;
        const row = rows.find((result) => result.Date === date);
        const other = jsonOf<{ data: PublicResult[] }>(
          await get(site, `/api/results/${encodeURIComponent(second.name)}`),
          'results',
        ).data.find((result) => result.Date === date);
        const ok =
          declared?.Previous === null &&
          corrected?.Previous === previousValue &&
          corrected.Result === '54' &&
          declared?.Result === previousValue &&
          row?.Corrected === true &&
          row.Previous === previousValue &&
          row.DeclaredAt === corrected.DeclaredAt &&
          other?.Corrected === false;
        return {
          ok,
          detail: `entries ${mine.map((entry) => `${entry.Previous ?? '∅'}→${entry.Result}`).join(', ')}; published ${row?.Result} Corrected=${row?.Corrected} Previous=${row?.Previous} DeclaredAt=${row?.DeclaredAt}; the other ghadi Corrected=${other?.Corrected}`,
        };
      }),
    );

    results.push(
      await check('the results page marks the correction; /declarations and /feed.xml list it', async () => {
        const mark = `corrected, was ${previousValue}`;
        const page = (
          await get(site, `/satta-results/${encodeURIComponent(first.name.toLowerCase())}`)
        ).body.toString();
        const log = await get(site, '/declarations');
        const feed = await get(site, '/feed.xml');
        const head = entries.at(-1);
        const logText = log.body.toString();
        const feedText = feed.body.toString();
        const ok =
          page.includes(mark) &&
          log.status === 200 &&
          logText.includes(head?.hash ?? '-') &&
          logText.includes(mark) &&
          feed.status === 200 &&
          /application\/atom\+xml/.test(String(feed.headers['content-type'])) &&
          (feedText.match(/<entry>/g)?.length ?? 0) === 50;
        return {
          ok,
          detail: `results page has "${mark}": ${page.includes(mark)}; /declarations ${log.status} with the head hash: ${logText.includes(head?.hash ?? '-')}; /feed.xml ${feed.status} ${feed.headers['content-type']} with ${feedText.match(/<entry>/g)?.length ?? 0} entries`,
        };
      }),
    );

    results.push(
      await check('npm run verify -- URL and the documented example verify the site', async () => {
        const verified = await run('npm', ['run', '--silent', 'verify', '--', site.url]);
        const example = path.join(dir, 'check.mjs');
        fs.writeFileSync(example, documentedExample());
        const plain = await run(process.execPath, [example, site.url]);
        const head = entries.at(-1)?.hash ?? '-';
        return {
          ok: verified.stdout.includes(head) && plain.stdout.includes(head),
          detail: `verify: "${verified.stdout.trim()}"; documented example: "${plain.stdout.trim()}"`,
        };
      }),
    );
    return results;
  } finally {
    await site.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
};
