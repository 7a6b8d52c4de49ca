/**
 * Issue 41's "Done when", from outside, with the checker's own RFC 6962 code (bench/lib/rfc6962.ts),
 * on sites of its own (SQLite, then PostgreSQL): declares results and corrections, keeping the
 * checkpoint served after each, past one full tile (256 entries); recomputes the tree from
 * /api/declarations and checks every checkpoint's signature with the published key, inclusion proofs
 * for every entry at several sizes, consistency proofs between every pair of sizes seen, the tiles
 * and entry bundles (transparency-tree.ts, transparency-proofs.ts); opens a receipt page in Chromium
 * (transparency-receipt.ts, SQLite only); then changes one old value behind the running site's back,
 * and rewrites the whole log under a new key, and holds `npm run verify` to both
 * (transparency-tamper.ts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { type Checkpoint, leafBytes, leafHash, openCheckpoint, parseVerifierKey } from '../lib/rfc6962.js';
import { proofChecks } from './transparency-proofs.js';
import { receiptChecks } from './transparency-receipt.js';
import { type Entry, startTransparencySite, type TransparencySite } from './transparency-site.js';
import { tamperChecks } from './transparency-tamper.js';
import { treeChecks } from './transparency-tree.js';
import type { CheckResult, CheckSettings, StandaloneChecks } from './types.js';

/** What the declarations left to check: the log, the checkpoints seen and the key. */
export interface Scenario {
  site: TransparencySite;
  /** GET /api/log/key, as served. */
  keyText: string;
  entries: Entry[];
  /** Each entry's leaf bytes and leaf hash, by the checker's own formula, in seq order. */
  leafData: Buffer[];
  leaves: Buffer[];
  /** Every distinct note seen, by size (a second note of a size seen is in `twoOfASize`). */
  notes: Map<number, string>;
  twoOfASize: string[];
  /** The notes whose signature verified with the key, by size. */
  signed: Map<number, Checkpoint>;
  /** The size after the scenario's corrections (before the bulk declarations). */
  corrected: number;
  /** An old value (not the first entry) whose correction is its ghadi and date's latest. */
  target: { entry: Entry; correction: Entry };
  /** Sizes whose checkpoint did not appear within a second of its declaration. */
  late: number[];
}

/** [ghadi, value, days before today]: values and corrections across four ghadis. */
const CORRECTED: Array<[number, string, number]> = [
  [0, '11', 1],
  [1, '21', 1],
  [2, '31', 1],
  [3, '41', 1],
  [0, '12', 2],
  [1, '22', 2],
  [0, '42', 3],
  [2, '32', 2],
  [1, '23', 1],
  [3, '42', 2],
  [0, '13', 4],
  [2, '33', 3],
  [0, '24', 3],
  [3, '43', 3],
  [1, '25', 2],
  [2, '34', 1],
  [0, '14', 5],
  [1, '26', 3],
  [2, '35', 4],
  [3, '44', 4],
  [3, '45', 2],
  [1, '27', 1],
  [0, '15', 6],
  [2, '36', 5],
];
/** Days of the bulk declarations (four ghadis each): past one full tile of 256 entries. */
const BULK_DAYS = 65;
/** In the bulk, a checkpoint is kept after every this many declarations. */
const BULK_EVERY = 26;

const daysBefore = (today: string, days: number) =>
  new Date(Date.parse(`${today}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);

/** Declares everything, reading the checkpoint after each declaration of the first part. */
async function declareAll(site: TransparencySite): Promise<Scenario> {
  const notes = new Map<number, string>();
  const twoOfASize: string[] = [];
  const late: number[] = [];
  let declared = 0;
  const seeCheckpoint = async () => {
    const deadline = Date.now() + 1000;
    for (;;) {
      const note = await site.text('/api/log/checkpoint');
      const size = Number(note.split('\n')[1]);
      if (size >= declared || Date.now() > deadline) {
        if (size < declared) late.push(declared);
        const before = notes.get(size);
        if (before !== undefined && before !== note) twoOfASize.push(`${before}\n${note}`);
        else notes.set(size, note);
        return;
      }
      await sleep(20);
    }
  };
  await seeCheckpoint();
  const gids: number[] = [];
  for (const name of ['Tree One', 'Tree Two', 'Tree Three', 'Tree Four'])
    gids.push(await site.createGhadi(name));
  for (const [ghadi, value, days] of CORRECTED) {
    await site.declare(gids[ghadi] as number, value, daysBefore(site.today, days));
    declared += 1;
    await seeCheckpoint();
  }
  const corrected = declared;
  for (let day = 0; day < BULK_DAYS; day++) {
    for (const [ghadi, gid] of gids.entries()) {
      const value = String((day * 7 + ghadi * 13) % 100).padStart(2, '0');
      await site.declare(gid, value, daysBefore(site.today, 10 + day));
      declared += 1;
      if (declared % BULK_EVERY === 0) await seeCheckpoint();
    }
  }
  await seeCheckpoint();

  const entries = await site.log();
  const leafData = entries.map(leafBytes);
  const keyText = (await site.text('/api/log/key')).trim();
  const signed = new Map<number, Checkpoint>();
  try {
    const key = parseVerifierKey(keyText);
    for (const [size, note] of notes) {
      try {
        signed.set(size, openCheckpoint(note, key));
      } catch {
        // treeChecks names it.
      }
    }
  } catch {
    // treeChecks names it.
  }
  const pair = entries.filter((entry) => entry.GID === gids[0] && entry.Date === daysBefore(site.today, 3));
  const [entry, correction] = pair;
  if (pair.length !== 2 || !entry || !correction)
    throw new Error(`the log has ${pair.length} entries for the corrected value, not 2`);
  return {
    site,
    keyText,
    entries,
    leafData,
    leaves: leafData.map(leafHash),
    notes,
    twoOfASize,
    signed,
    corrected,
    target: { entry, correction },
    late,
  };
}

async function onDatabase(
  kind: 'sqlite' | 'postgres',
  settings: CheckSettings,
  withBrowser: boolean,
): Promise<CheckResult[]> {
  const label = kind === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  let site: TransparencySite | undefined;
  try {
    site = await startTransparencySite(kind, settings);
    const scenario = await declareAll(site);
    const results = [
      ...(await treeChecks(scenario)),
      ...(await proofChecks(scenario)),
      ...(withBrowser ? await receiptChecks(scenario) : []),
      ...(await tamperChecks(scenario)),
    ];
    return results.map((result) => ({ ...result, name: `${label}: ${result.name}` }));
  } catch (error) {
    return [
      {
        name: `${label}: the site and its declarations`,
        ok: false,
        detail: `${(error as Error).message}; the server's last output: ${site?.output().slice(-1500) ?? 'none'}`,
      },
    ];
  } finally {
    await site?.stop();
  }
}

export const transparencyChecks: StandaloneChecks = async (settings: CheckSettings) => [
  ...(await onDatabase('sqlite', settings, true)),
  ...(await onDatabase('postgres', settings, false)),
];
