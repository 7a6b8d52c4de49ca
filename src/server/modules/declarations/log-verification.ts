import { completesOpenHalf } from '../../../shared/matka.js';
import { type DeclarationEntry, GENESIS_HASH } from '../../../shared/schemas/declarations.js';
import { declarationHash, type HashedFields } from './declaration-hash.js';

/** An entry as read: its Step when the reader has it (the public API's entries do). */
type Hashed = Omit<DeclarationEntry, 'Name' | 'Step'> & Partial<Pick<DeclarationEntry, 'Step'>>;

/** A result as a site publishes it (corrected and declaredAt when the reader has them). */
export interface PublishedResult {
  gid: number;
  date: string;
  value: string;
  corrected?: boolean;
  declaredAt?: string;
}

/** A ghadi's date, as the log and the published results both name it. */
const keyOf = (gid: number, date: string) => `${gid}|${date}`;

/**
 * Checks entries one after another, as they come (a whole log need not be held): seq continues,
 * prevHash is the hash before, and the hash is the formula's. Remembers each ghadi and date's latest
 * value, for comparing with what is published. The server checks its own log with it at start, and
 * `npm run verify` a site's log downloaded over HTTP.
 */
export class ChainChecker {
  private nextSeq = 1;
  private previousHash = GENESIS_HASH;
  /** The latest entry of each ghadi and date. */
  private readonly latest = new Map<string, HashedFields & { step: DeclarationEntry['Step'] }>();
  /** The first problem found, after which nothing more is checked. */
  problem: string | null = null;

  get head(): { seq: number; hash: string } {
    return { seq: this.nextSeq - 1, hash: this.previousHash };
  }

  add(entry: Hashed): boolean {
    if (this.problem) return false;
    const { seq } = entry;
    if (seq !== this.nextSeq)
      return this.fail(`entry ${seq}: expected seq ${this.nextSeq} (an entry is missing)`);
    if (entry.prevHash !== this.previousHash)
      return this.fail(`entry ${seq}: prevHash is not the hash of entry ${seq - 1}`);
    const fields: HashedFields = {
      seq,
      gid: entry.GID,
      date: entry.Date,
      value: entry.Result,
      previous: entry.Previous,
      declaredAt: entry.DeclaredAt,
    };
    const hash = declarationHash(entry.prevHash, fields);
    if (hash !== entry.hash) return this.fail(`entry ${seq}: its hash does not match its fields`);
    this.nextSeq = seq + 1;
    this.previousHash = hash;
    this.latest.set(keyOf(entry.GID, entry.Date), { ...fields, step: entry.Step ?? null });
    return true;
  }

  /**
   * Compares published results with the log's latest entries: each must be the value its latest entry
   * declared, and where given, flagged corrected exactly when that entry replaced a value, and dated
   * as it. `complete(gid)` says whether all of a ghadi's results were read, so that an entry of it
   * that is not published is a problem too (a site hides a deleted ghadi's results).
   */
  compare(published: Iterable<PublishedResult>, complete: (gid: number) => boolean): boolean {
    if (this.problem) return false;
    const seen = new Set<string>();
    for (const result of published) {
      const { gid, date, value } = result;
      const key = keyOf(gid, date);
      seen.add(key);
      const entry = this.latest.get(key);
      if (!entry) return this.fail(`GID ${gid} on ${date}: "${value}" is published but was never declared`);
      const where = `entry ${entry.seq} (GID ${gid} on ${date})`;
      if (entry.value !== value)
        return this.fail(`${where}: declared "${entry.value}" but "${value}" is published`);
      // A close step that completes its open half replaced a value without correcting it.
      const completes = entry.step === 'close' && completesOpenHalf(entry.previous, entry.value);
      if (result.corrected !== undefined && result.corrected !== (entry.previous !== null && !completes))
        return this.fail(`${where}: published ${result.corrected ? '' : 'not '}as corrected`);
      if (result.declaredAt !== undefined && result.declaredAt !== entry.declaredAt)
        return this.fail(`${where}: declared at ${entry.declaredAt} but published as ${result.declaredAt}`);
    }
    for (const [key, entry] of this.latest) {
      if (!seen.has(key) && complete(entry.gid))
        return this.fail(
          `entry ${entry.seq}: GID ${entry.gid} on ${entry.date} is declared but not published`,
        );
    }
    return true;
  }

  /** The head a site announces must be where the chain ends: its last seq, and that entry's hash. */
  endsAt(head: { seq: number; hash: string }): boolean {
    if (this.problem) return false;
    const end = this.head;
    if (end.seq !== head.seq)
      return this.fail(`the log ends at entry ${end.seq}, but its head says ${head.seq}`);
    if (end.hash !== head.hash) return this.fail(`entry ${end.seq}: the head's hash is not the entry's`);
    return true;
  }

  private fail(problem: string): false {
    this.problem = problem;
    return false;
  }
}
