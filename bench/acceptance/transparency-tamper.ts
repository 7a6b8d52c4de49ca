/**
 * The transparency group's tampering (transparency-checks.ts), with the checker's own SQL and chain
 * formula, never the app's code: `npm run verify -- URL --watch FILE` keeps a checkpoint; then
 * (1) one old value and its correction's Previous are changed behind the running site's back, every
 * chain hash after them recomputed, and both `verify URL` and `verify URL --watch FILE` must exit 1
 * (naming the entry; printing both checkpoints); (2) with the site stopped, every replaced value is
 * rewritten, the tree, checkpoints and log key deleted, so that the restarted site signs the rewritten
 * log with a new key: `--watch FILE` must exit 1 printing the kept and the served checkpoints.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brokenLink } from '../lib/declaration-chain.js';
import { check } from './check.js';
import type { Scenario } from './transparency-checks.js';
import type { Entry, Statement, TransparencySite } from './transparency-site.js';
import type { CheckResult } from './types.js';

/** The setting the site keeps its log key in (src/server/modules/transparency/log-key-store.ts). */
const LOG_KEY_SETTING = 'log_signing_key';

/** `npm run verify -- ARGS`: its exit code and all it printed. */
function verifyLog(...args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      'npm',
      ['run', '--silent', 'verify', '--', ...args],
      { timeout: 180_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, out: `${stdout}${stderr}` }),
    );
  });
}

/** The published chain formula (docs/api.md), written here. */
const chainHash = (prevHash: string, e: Entry) =>
  createHash('sha256')
    .update(
      `${prevHash}\n${JSON.stringify([e.seq, e.GID, e.Date, e.Result, e.Previous, e.DeclaredAt])}`,
      'utf8',
    )
    .digest('hex');

type Change = { Result?: string; Previous?: string | null };

/** The entries with the changes made and every hash from the first change on recomputed. */
function rewritten(entries: readonly Entry[], changes: Map<number, Change>): Entry[] {
  const first = Math.min(...changes.keys());
  let prevHash = entries[first - 2]?.hash ?? '0'.repeat(64);
  return entries.map((entry) => {
    if (entry.seq < first) return entry;
    const changed = { ...entry, ...changes.get(entry.seq), prevHash };
    changed.hash = chainHash(prevHash, changed);
    prevHash = changed.hash;
    return changed;
  });
}

/** The checker's own statements writing the rewritten rows. */
const updates = (entries: readonly Entry[], from: number): Statement[] =>
  entries
    .filter((entry) => entry.seq >= from)
    .map((e) => [
      'update declarations set value = ?, previous = ?, prev_hash = ?, hash = ? where seq = ?',
      [e.Result, e.Previous, e.prevHash, e.hash, e.seq],
    ]);

/** Another two-digit value. */
const otherValue = (value: string) => String((Number(value) + 50) % 100).padStart(2, '0');

async function servedResult(site: TransparencySite, seq: number): Promise<string> {
  const answer = await site.json<{ data: Entry[] }>(`/api/declarations?after=${seq - 1}&limit=1`);
  return answer.body.data?.[0]?.Result ?? `(${answer.status})`;
}

const bothNotes = (out: string, kept: string, served: string) => out.includes(kept) && out.includes(served);

export async function tamperChecks(s: Scenario): Promise<CheckResult[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ghadi-transparency-watch-'));
  const watch = path.join(dir, 'checkpoints.json');
  const { site } = s;
  const results: CheckResult[] = [];
  try {
    const first = await verifyLog(site.url, '--watch', watch);
    const kept = await site.text('/api/log/checkpoint');
    const keptInFile = fs.existsSync(watch) && fs.readFileSync(watch, 'utf8').includes(JSON.stringify(kept));
    const { entry, correction } = s.target;
    const value = otherValue(entry.Result);
    const after = rewritten(
      s.entries,
      new Map([
        [entry.seq, { Result: value }],
        [correction.seq, { Previous: value }],
      ]),
    );
    await site.sql(updates(after, entry.seq));
    const served = await servedResult(site, entry.seq);
    // The window `npm run verify` reads the log by, as the site serves it now.
    const walked = await site.json<{ data: Entry[] }>('/api/declarations?after=0&limit=1000');
    const walkedResult = walked.body.data?.[entry.seq - 1]?.Result;
    const plain = await verifyLog(site.url);
    const watched = await verifyLog(site.url, '--watch', watch);
    const servedNote = await site.text('/api/log/checkpoint');
    // The same in a new process (nothing of the old one's answers kept), for the report.
    await site.whileStopped(async () => {});
    const plainAgain = await verifyLog(site.url);
    const watchedAgain = await verifyLog(site.url, '--watch', watch);
    const servedAgain = await site.text('/api/log/checkpoint');
    const named = (out: string) => new RegExp(`\\bseq ${entry.seq}\\b`).test(out);
    const excerpt = (out: string, length: number) => `"${out.trim().slice(0, length)}"`;

    results.push(
      await check(
        `one old value changed on the running site (seq ${entry.seq}, and its correction seq ${correction.seq}'s Previous; the chain recomputed): npm run verify -- URL exits 1 naming seq ${entry.seq}`,
        async () => {
          const chain = brokenLink(after);
          return {
            ok: first.code === 0 && chain === null && plain.code === 1 && named(plain.out),
            detail: `before: exit ${first.code}; ${entry.Result} → ${value} at seq ${entry.seq} (the chain alone: ${chain ?? 'whole'}); the site then served ${served} there in /api/declarations?after=${entry.seq - 1}&limit=1 and ${walkedResult} in ?after=0&limit=1000; on the running site: exit ${plain.code}, ${excerpt(plain.out, 400)}; after a restart: exit ${plainAgain.code}, names seq ${entry.seq}: ${named(plainAgain.out)}`,
          };
        },
      ),
    );
    results.push(
      await check(
        'npm run verify -- URL --watch FILE kept the checkpoint, then exits 1 printing the kept and the served checkpoints in full',
        async () => ({
          ok:
            first.code === 0 && keptInFile && watched.code === 1 && bothNotes(watched.out, kept, servedNote),
          detail: `before: exit ${first.code}, FILE holds the served checkpoint: ${keptInFile}; on the running site: exit ${watched.code}, kept note printed ${watched.out.includes(kept)}, served note printed ${watched.out.includes(servedNote)}: ${excerpt(watched.out, 600)}; after a restart: exit ${watchedAgain.code}, both notes printed ${bothNotes(watchedAgain.out, kept, servedAgain)}`,
        }),
      ),
    );
    results.push(await newKeyCheck(s, after, watch, kept));
    return results;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Tamper 2: the whole log rewritten and signed again by a new key, with the site stopped. */
function newKeyCheck(s: Scenario, entries: Entry[], watch: string, kept: string): Promise<CheckResult> {
  return check(
    'the whole log rewritten and re-signed by a new log key (restart): --watch FILE holding the earlier checkpoint exits 1 printing both',
    async () => {
      const { site } = s;
      const changes = new Map<number, Change>();
      const change = (seq: number, part: Change) => changes.set(seq, { ...changes.get(seq), ...part });
      for (const entry of entries) {
        const next = entries.find((e) => e.seq > entry.seq && e.GID === entry.GID && e.Date === entry.Date);
        if (!next) continue;
        change(entry.seq, { Result: otherValue(entry.Result) });
        change(next.seq, { Previous: otherValue(entry.Result) });
      }
      const after = rewritten(entries, changes);
      await site.whileStopped(() =>
        site.sql([
          ...updates(after, 1),
          ['delete from log_nodes'],
          ['delete from log_checkpoints'],
          ['delete from settings where key = ?', [LOG_KEY_SETTING]],
        ]),
      );
      const newKey = (await site.text('/api/log/key')).trim();
      const served = await site.text('/api/log/checkpoint');
      const watched = await verifyLog(site.url, '--watch', watch);
      const plain = await verifyLog(site.url);
      const ok =
        newKey !== s.keyText &&
        watched.code === 1 &&
        bothNotes(watched.out, kept, served) &&
        brokenLink(after) === null;
      return {
        ok,
        detail: `${changes.size} entries rewritten (chain ${brokenLink(after) ?? 'whole'}); key ${s.keyText.split('+')[1]} → ${newKey.split('+')[1]}; --watch: exit ${watched.code}, kept note printed ${watched.out.includes(kept)}, served note printed ${watched.out.includes(served)}: "${watched.out.trim().slice(0, 400)}"; without --watch (nothing kept to compare): exit ${plain.code}`,
      };
    },
  );
}
