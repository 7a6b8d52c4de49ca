import {
  type DeclarationEntry,
  type DeclarationHead,
  MAX_DECLARATIONS_LIMIT,
} from '../../shared/schemas/declarations.js';
import type { GhadiRecord } from '../../shared/schemas/ghadis.js';
import type { PublicResultRecord } from '../../shared/schemas/results.js';
import { ChainChecker, type PublishedResult } from '../modules/declarations/log-verification.js';

/**
 * npm run verify -- URL: downloads a running site's whole declaration log, recomputes every hash,
 * checks seq and prevHash continuity, and that each result the site publishes is the value (and the
 * correction flag and time) of its latest entry. Prints the head and exits 0, or names the first bad
 * entry and exits 1 (2: bad arguments or the site could not be read).
 */
async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new ReadError(`GET ${url} answered ${response.status}`);
  return (await response.json()) as T;
}

class ReadError extends Error {}

/** Every entry up to the head seen first: pages of the largest size, oldest first. */
async function checkLog(site: string, checker: ChainChecker): Promise<DeclarationHead> {
  const head = await getJson<DeclarationHead>(`${site}/api/declarations/head`);
  let after = 0;
  while (after < head.seq && !checker.problem) {
    const page = await getJson<{ data: DeclarationEntry[] }>(
      `${site}/api/declarations?after=${after}&limit=${MAX_DECLARATIONS_LIMIT}`,
    );
    const entries = page.data.filter((entry) => entry.seq <= head.seq);
    if (entries.length === 0) break;
    for (const entry of entries) if (!checker.add(entry)) break;
    after = entries[entries.length - 1]?.seq ?? head.seq;
  }
  checker.endsAt(head);
  return head;
}

/** What the site publishes: every live ghadi's results of all time (cached public reads, no limit). */
async function published(site: string): Promise<{ results: PublishedResult[]; gids: Set<number> }> {
  const ghadis = (await getJson<{ data: GhadiRecord[] }>(`${site}/api/ghadis`)).data;
  const results: PublishedResult[] = [];
  for (const ghadi of ghadis) {
    const response = await fetch(`${site}/api/results/${encodeURIComponent(ghadi.NameEn)}`);
    // 404: a ghadi with no results yet.
    if (response.status === 404) continue;
    if (!response.ok) throw new ReadError(`GET /api/results/${ghadi.NameEn} answered ${response.status}`);
    const rows = ((await response.json()) as { data: PublicResultRecord[] }).data;
    for (const row of rows) {
      results.push({
        gid: row.GID,
        date: row.Date,
        value: row.Result,
        corrected: row.Corrected,
        declaredAt: row.DeclaredAt,
      });
    }
  }
  return { results, gids: new Set(ghadis.map((ghadi) => ghadi.GID)) };
}

async function main(): Promise<number> {
  const [url, ...rest] = process.argv.slice(2);
  if (!url || rest.length > 0 || !/^https?:\/\/[^\s]+$/.test(url)) {
    process.stderr.write('usage: npm run verify -- URL   (e.g. https://results.example)\n');
    return 2;
  }
  const site = url.replace(/\/+$/, '');
  const checker = new ChainChecker();
  try {
    const head = await checkLog(site, checker);
    const { results, gids } = await published(site);
    checker.compare(results, (gid) => gids.has(gid));
    if (checker.problem) {
      process.stdout.write(`NOT VERIFIED: ${checker.problem}\n`);
      return 1;
    }
    process.stdout.write(
      `verified: ${head.seq} entries, head seq ${head.seq} hash ${head.hash}; ` +
        `${results.length} published results match their latest entries\n`,
    );
    return 0;
  } catch (error) {
    process.stderr.write(
      `could not read ${site}: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return 2;
  }
}

process.exitCode = await main();
