import { leafBytes, toBase64 } from '../../shared/merkle-proofs.js';
import type { DeclarationEntry, DeclarationHead } from '../../shared/schemas/declarations.js';
import { MAX_DECLARATIONS_LIMIT } from '../../shared/schemas/declarations.js';
import type { GhadiRecord } from '../../shared/schemas/ghadis.js';
import type { PublicResultRecord } from '../../shared/schemas/results.js';
import { NoteError } from '../../shared/signed-notes.js';
import { ChainChecker, type PublishedResult } from '../modules/declarations/log-verification.js';
import { againstKept, Conflict, keep, readKept } from './checkpoint-watch.js';
import { EntryBundles } from './entry-bundles.js';
import { LeafStore, sampleSeqs, TreeChecker } from './log-tree-check.js';
import { getJson, getText, ReadError } from './site-reads.js';

/**
 * npm run verify -- URL [--watch FILE [--every N]]: downloads a running site's whole declaration log,
 * recomputes every hash, checks seq and prevHash continuity, and that each result the site publishes
 * is the value (and the correction flag and time) of its latest entry; then recomputes the RFC 6962
 * tree from the same entries and holds it against the signed checkpoint, the published log key and
 * the site's inclusion and consistency proofs. With --watch it also holds the checkpoint against the
 * last one kept in FILE, printing both when they conflict. Exits 0 when all verifies, 1 naming the
 * first bad entry or the conflict, 2 on bad arguments or a site that could not be read.
 */

/** Pages of the log asked for ahead of the one being checked: the site reads while this process hashes. */
const PAGES_AHEAD = 3;

/**
 * Every entry up to the head seen first: pages of the largest size, oldest first (seq has no gaps,
 * so page k starts after k × the page size, and later pages can be asked for before earlier ones
 * are checked). Each entry the checkpoint signs must be the one its entry bundle holds: the first
 * that is not is the problem.
 */
async function checkLog(
  site: string,
  checker: ChainChecker,
  store: LeafStore,
  bundles: EntryBundles,
  signed: number,
): Promise<{ head: DeclarationHead; problem: string | null }> {
  const head = await getJson<DeclarationHead>(`${site}/api/declarations/head`);
  const pages = Math.ceil(head.seq / MAX_DECLARATIONS_LIMIT);
  const asked: Promise<{ data: DeclarationEntry[] }>[] = [];
  const ask = (page: number) => {
    if (page >= pages || asked[page]) return;
    asked[page] = getJson(
      `${site}/api/declarations?after=${page * MAX_DECLARATIONS_LIMIT}&limit=${MAX_DECLARATIONS_LIMIT}`,
    );
    // A page asked for ahead and left unread when a problem stopped the walk.
    asked[page].catch(() => {});
  };
  let problem: string | null = null;
  for (let page = 0; page < pages && !checker.problem && !problem; page++) {
    for (let ahead = page; ahead <= page + PAGES_AHEAD; ahead++) ask(ahead);
    const entries = ((await asked[page]) as { data: DeclarationEntry[] }).data.filter(
      (entry) => entry.seq <= head.seq,
    );
    delete asked[page];
    for (const entry of entries) {
      if (!checker.add(entry)) break;
      const leaf = leafBytes(entry);
      if (entry.seq <= signed) {
        const bundled = await bundles.leafOf(entry.seq);
        if (!bundled?.equals(leaf)) {
          problem =
            `seq ${entry.seq}: /api/declarations serves ${new TextDecoder().decode(leaf)}, but the entry ` +
            `bundle the tree is built from holds ${bundled ? bundled.toString('utf8') : 'nothing'}`;
          break;
        }
      }
      store.addBytes(leaf);
    }
  }
  if (!problem) checker.endsAt(head);
  return { head, problem };
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

/** One pass over the site; throws a Conflict (with both checkpoints) or a NoteError on a bad checkpoint. */
async function verifyOnce(site: string, watch: string | null): Promise<string | null> {
  const kept = watch ? await readKept(watch) : null;
  // The key and checkpoint before the entries: every entry the checkpoint signs is served by then.
  const servedKey = await getText(`${site}/api/log/key`);
  const { key, checkpoint } = await againstKept(kept, servedKey, await getText(`${site}/api/log/checkpoint`));
  // Only with a kept checkpoint: the evidence is the two notes.
  const conflict = (problem: string) => new Conflict(problem, kept?.checkpoint.note ?? '', checkpoint.note);
  const store = new LeafStore(new Set([kept?.checkpoint.size ?? 0, checkpoint.size]));
  const tree = new TreeChecker(site, store);
  if (kept) {
    // What the two signed notes alone prove: the newer tree extends the kept one.
    const rewritten = await tree.consistent(kept.checkpoint.size, checkpoint, kept.checkpoint.root);
    if (rewritten) throw conflict(`the log was rewritten since the kept checkpoint: ${rewritten}`);
  }

  const checker = new ChainChecker();
  const bundles = new EntryBundles(site, checkpoint.size);
  const { head, problem: served } = await checkLog(site, checker, store, bundles, checkpoint.size);
  if (served && kept) throw conflict(served);
  if (served) return served;
  const { results, gids } = await published(site);
  checker.compare(results, (gid) => gids.has(gid));
  if (checker.problem) return checker.problem;

  if (kept) {
    const before = kept.checkpoint;
    const root = store.size >= before.size ? await store.rootAt(before.size) : null;
    if (!root) throw conflict(`the log serves ${store.size} entries, fewer than the ${before.size} kept`);
    if (toBase64(root) !== toBase64(before.root)) throw conflict(await tree.firstUnsigned(before, root));
  }
  const from = kept ? kept.checkpoint.size : Math.floor(checkpoint.size / 2);
  const problem = await tree.check(checkpoint, from);
  if (problem && kept) throw conflict(problem);
  if (problem) return problem;

  const proofs = sampleSeqs(checkpoint.size).length;
  const consistency = from > 0 && from < checkpoint.size ? `, consistency from ${from}` : '';
  process.stdout.write(
    `verified: ${head.seq} entries, head seq ${head.seq} hash ${head.hash}; ` +
      `${results.length} published results match their latest entries\n` +
      `verified: checkpoint of size ${checkpoint.size}, root ${toBase64(checkpoint.root)}, signed by ` +
      `${key.name} (key ${key.keyId}); ${proofs} inclusion proofs${consistency}\n`,
  );
  if (watch) {
    keep(watch, key, checkpoint, kept);
    process.stdout.write(`kept in ${watch}: checkpoint of size ${checkpoint.size}\n`);
  }
  return null;
}

/** 0 verified, 1 not, 2 the site or FILE could not be read. */
async function run(site: string, watch: string | null): Promise<number> {
  try {
    const problem = await verifyOnce(site, watch);
    if (!problem) return 0;
    process.stdout.write(`NOT VERIFIED: ${problem}\n`);
    return 1;
  } catch (error) {
    if (error instanceof Conflict) {
      process.stdout.write(
        `NOT VERIFIED: ${error.message}\n\nThe checkpoint kept in ${watch}:\n\n${error.kept}\n` +
          `The checkpoint ${site} serves:\n\n${error.served}`,
      );
      return 1;
    }
    if (error instanceof NoteError) {
      process.stdout.write(`NOT VERIFIED: ${error.message}\n`);
      return 1;
    }
    process.stderr.write(
      `could not read ${site}: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return 2;
  }
}

const USAGE =
  'usage: npm run verify -- URL [--watch FILE [--every SECONDS]]   (e.g. https://results.example)\n';

function parseArguments(args: string[]): { site: string; watch: string | null; every: number | null } | null {
  const [url, ...rest] = args;
  if (!url || !/^https?:\/\/[^\s]+$/.test(url)) return null;
  let watch: string | null = null;
  let every: number | null = null;
  for (let i = 0; i < rest.length; i += 2) {
    const [flag, value] = [rest[i], rest[i + 1]];
    if (value === undefined) return null;
    if (flag === '--watch') watch = value;
    else if (flag === '--every' && /^[1-9][0-9]*$/.test(value)) every = Number(value);
    else return null;
  }
  if (every !== null && watch === null) return null;
  return { site: url.replace(/\/+$/, ''), watch, every };
}

async function main(): Promise<number> {
  const options = parseArguments(process.argv.slice(2));
  if (!options) {
    process.stderr.write(USAGE);
    return 2;
  }
  const { site, watch, every } = options;
  if (every === null) return run(site, watch);
  // A monitor: a site that cannot be read now is asked again; a conflict ends it.
  for (;;) {
    if ((await run(site, watch)) === 1) return 1;
    await new Promise((resolve) => setTimeout(resolve, every * 1000));
  }
}

process.exitCode = await main();
