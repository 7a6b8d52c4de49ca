import fs from 'node:fs';
import path from 'node:path';
import { equalHashes, toBase64 } from '../../shared/merkle-proofs.js';
import {
  type Checkpoint,
  NoteError,
  openCheckpoint,
  parseVerifierKey,
  type VerifierKey,
} from '../../shared/signed-notes.js';
import { ReadError } from './site-reads.js';

/**
 * `npm run verify -- URL --watch FILE`: the checkpoints a monitor saw, kept in FILE (JSON, owner-only)
 * with the key that signed them, and what makes a newer checkpoint conflict with the last one kept.
 */

interface WatchFile {
  /** The site's verifier key, as `/api/log/key` served it when the first checkpoint was kept. */
  key: string;
  /** Every distinct checkpoint seen, oldest first, as signed notes. */
  checkpoints: string[];
}

export interface Kept {
  key: VerifierKey;
  checkpoint: Checkpoint;
  all: string[];
}

/** The last checkpoint kept in FILE, its signature checked again; null before the first run. */
export async function readKept(file: string): Promise<Kept | null> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new ReadError(`cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    const kept = JSON.parse(text) as WatchFile;
    const last = kept.checkpoints.at(-1);
    if (typeof kept.key !== 'string' || typeof last !== 'string') throw new Error('no checkpoint in it');
    const key = await parseVerifierKey(kept.key);
    return { key, checkpoint: await openCheckpoint(last, key), all: kept.checkpoints };
  } catch (error) {
    throw new ReadError(`${file} is not a file of kept checkpoints: ${(error as Error).message}`);
  }
}

/** Adds the checkpoint (when it is new) and writes FILE anew, readable by its owner only. */
export function keep(file: string, key: VerifierKey, checkpoint: Checkpoint, kept: Kept | null): void {
  const all = [...(kept?.all ?? [])];
  if (all.at(-1) !== checkpoint.note) all.push(checkpoint.note);
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  fs.writeFileSync(temporary, `${JSON.stringify({ key: key.text, checkpoints: all }, null, 2)}\n`, {
    mode: 0o600,
  });
  fs.chmodSync(temporary, 0o600);
  fs.renameSync(temporary, file);
}

/** Two checkpoints that cannot both be honest: the evidence a monitor prints. */
export class Conflict extends Error {
  constructor(
    problem: string,
    readonly kept: string,
    readonly served: string,
  ) {
    super(problem);
  }
}

/**
 * The served key and checkpoint against the kept ones: same key, a signature that verifies, a tree
 * no smaller, one root per size. Answers the served checkpoint, opened; throws a Conflict (with both
 * notes), or a NoteError when there is nothing kept to hold it against.
 */
export async function againstKept(
  kept: Kept | null,
  servedKey: string,
  servedNote: string,
): Promise<{ key: VerifierKey; checkpoint: Checkpoint }> {
  const conflict = (problem: string) =>
    kept ? new Conflict(problem, kept.checkpoint.note, servedNote) : new NoteError(problem);
  let key: VerifierKey;
  try {
    key = await parseVerifierKey(servedKey);
  } catch (error) {
    throw conflict(`the log key the site serves is malformed: ${(error as Error).message}`);
  }
  if (kept && key.text !== kept.key.text)
    throw conflict(
      key.name === kept.key.name
        ? `the log key changed at the same origin: ${kept.key.text} was kept, ${key.text} is served`
        : `the log's origin changed: ${kept.key.name} was kept, ${key.name} is served`,
    );
  let checkpoint: Checkpoint;
  try {
    checkpoint = await openCheckpoint(servedNote, key);
  } catch (error) {
    throw conflict(`the checkpoint served does not verify: ${(error as Error).message}`);
  }
  if (!kept) return { key, checkpoint };
  const before = kept.checkpoint;
  if (checkpoint.size < before.size)
    throw conflict(
      `the tree shrank: a checkpoint of size ${before.size} was kept, one of ${checkpoint.size} is served`,
    );
  if (checkpoint.size === before.size && !equalHashes(checkpoint.root, before.root))
    throw conflict(
      `two checkpoints of size ${before.size} with different roots: ${toBase64(before.root)} and ${toBase64(checkpoint.root)}`,
    );
  return { key, checkpoint };
}
