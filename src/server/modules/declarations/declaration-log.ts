import { stepOf } from '../../../shared/matka.js';
import { uniqueReceiptOf } from '../../../shared/receipt-codes.js';
import {
  type DeclarationEntry,
  type DeclarationHead,
  type DeclarationsQuery,
  GENESIS_HASH,
  type ResultHistoryEntry,
} from '../../../shared/schemas/declarations.js';
import { type Database, type Executor, inLockedTransaction } from '../../db/database.js';
import type { DailyStats } from '../stats/daily-stats.js';
import { declarationHash } from './declaration-hash.js';
import { RECEIPT_ROWS, type ReceiptLookup, receiptEntryOf } from './declaration-receipts.js';
import type {
  DeclarationListRow,
  DeclarationRow,
  DeclarationsRepository,
} from './declarations-repository.js';
import { ChainChecker } from './log-verification.js';

/** A value to enter in the log; seq and hashes are given on append. */
export interface Declared {
  gid: number;
  date: string;
  value: string;
  previous: string | null;
  /** A close step completing the open half `previous` (counted as a declaration, not a correction). */
  completes?: boolean;
  declaredAt: string;
  declaredBy: number | null;
  /** Written by a CSV import: its time is the import's, not the result's (punctuality leaves it out). */
  imported?: boolean;
}

/**
 * The log's Merkle tree (transparency-log.ts): grown in the transaction of every append, under the
 * log's lock, with a signed checkpoint of its new size.
 */
export interface LogTree {
  /** `appended`: the entries just written in `trx`, when the caller has them. */
  extendIn(trx: Executor, appended?: readonly DeclarationRow[]): Promise<number>;
  catchUp(): Promise<number>;
  /** Forgets the tree and its checkpoints: they are of entries that no longer exist. */
  startOver(trx: Executor): Promise<void>;
}

/** Rows inserted per statement (a CSV import appends thousands). */
const INSERT_CHUNK = 500;

/** Entries read at a time while verifying. */
const VERIFY_CHUNK = 2000;

function toHashed(row: DeclarationRow): Omit<DeclarationEntry, 'Name' | 'Step'> {
  return {
    seq: row.seq,
    GID: row.gid,
    Date: row.result_date,
    Result: row.value,
    Previous: row.previous,
    DeclaredAt: row.declared_at,
    prevHash: row.prev_hash,
    hash: row.hash,
  };
}

/**
 * The public entry: the hashed fields, the ghadi's current name and the step the value's form shows
 * (neither is hashed; the serializer orders the keys).
 */
function toEntry(row: DeclarationListRow): DeclarationEntry {
  return { ...toHashed(row), Name: row.name_en, Step: stepOf(row.kind, row.value) };
}

/** Chains `declared` after `head`: each entry's seq follows and its prevHash is the hash before. */
export function chain(head: DeclarationHead, declared: readonly Declared[]): DeclarationRow[] {
  let { seq, hash } = head;
  return declared.map((entry) => {
    seq += 1;
    const prevHash = hash;
    hash = declarationHash(prevHash, { seq, ...entry });
    return {
      seq,
      gid: entry.gid,
      result_date: entry.date,
      value: entry.value,
      previous: entry.previous,
      declared_at: entry.declaredAt,
      prev_hash: prevHash,
      hash,
      declared_by: entry.declaredBy,
      imported: entry.imported ? 1 : 0,
    };
  });
}

/**
 * The append-only declaration log: every value declared or corrected, in the transaction that writes
 * it, hash-chained so that anyone holding the log can check no entry was changed or left out.
 */
export class DeclarationLog {
  constructor(
    private readonly database: Database,
    private readonly repository: DeclarationsRepository,
    /** The day's totals each appended value adds to (every declaration and correction passes here). */
    private readonly stats?: DailyStats,
    private readonly tree?: LogTree,
  ) {}

  /**
   * Appends in the caller's transaction, after the result rows it wrote (see the repository's lock).
   * Returns the entries as written, without the ghadi's name (the caller has the ghadi).
   */
  async append(
    trx: Executor,
    declared: readonly Declared[],
  ): Promise<Omit<DeclarationEntry, 'Name' | 'Step'>[]> {
    const rows = await this.appendEntries(trx, declared);
    await this.stats?.declared(trx, declared);
    return rows.map(toHashed);
  }

  private async appendEntries(trx: Executor, declared: readonly Declared[]): Promise<DeclarationRow[]> {
    if (declared.length === 0) return [];
    await this.repository.lock(trx);
    const rows = chain(await this.headIn(trx), declared);
    for (let start = 0; start < rows.length; start += INSERT_CHUNK)
      await this.repository.insert(trx, rows.slice(start, start + INSERT_CHUNK));
    await this.tree?.extendIn(trx, rows);
    return rows;
  }

  async head(): Promise<DeclarationHead> {
    return this.headIn(this.database.db);
  }

  async list(query: DeclarationsQuery): Promise<DeclarationEntry[]> {
    return (await this.repository.list(query)).map(toEntry);
  }

  /**
   * Page `pageNumber` (of `perPage` entries) of the log up to `head`, newest first. Counted back from
   * the head (seq has no gaps), so entries appended after it was read shift no page, and each read is
   * by the seq index.
   */
  async newestFirstPage(
    head: DeclarationHead,
    pageNumber: number,
    perPage: number,
  ): Promise<DeclarationEntry[]> {
    const newest = head.seq - (pageNumber - 1) * perPage;
    const after = Math.max(0, newest - perPage);
    if (newest <= after) return [];
    return (await this.list({ after, limit: newest - after })).reverse();
  }

  /**
   * What a receipt (10 to 64 lowercase hex characters) names: the one entry whose hash begins with it,
   * with what its page says of it (declaration-receipts.ts), or the entries that share it (a receipt
   * made ambiguous by a later entry); null when none has it.
   */
  async byReceipt(receipt: string): Promise<ReceiptLookup | null> {
    const rows = await this.repository.withHashPrefix(receipt, RECEIPT_ROWS);
    const named = rows[0];
    if (!named) return null;
    if (rows.length > 1) {
      const receipts = await this.receiptsOf(rows.map((row) => row.hash));
      return {
        kind: 'shared',
        entries: rows.map((row) => ({
          seq: row.seq,
          GID: row.gid,
          Name: row.name_en,
          Date: row.result_date,
          Result: row.value,
          hash: row.hash,
          Receipt: receipts.get(row.hash) ?? row.hash,
        })),
      };
    }
    const newer = await this.repository.ofResultAfter(named.gid, named.result_date, named.seq);
    const entry = await receiptEntryOf(toEntry(named), named.kind, newer, (hashes) =>
      this.receiptsOf(hashes),
    );
    return { kind: 'entry', entry };
  }

  /** Each hash's receipt: its shortest prefix (at least 10 characters) that no other hash shares. */
  async receiptsOf(hashes: readonly string[]): Promise<Map<string, string>> {
    const receipts = new Map<string, string>();
    for (const hash of new Set(hashes))
      receipts.set(hash, uniqueReceiptOf(hash, await this.repository.neighbourHashes(hash)));
    return receipts;
  }

  /** A ghadi's latest `limit` entries, newest first: declarations and corrections (its feeds). */
  async newestOfGhadi(gid: number, limit: number): Promise<DeclarationEntry[]> {
    return (await this.repository.newestOfGhadi(gid, limit)).map(toEntry);
  }

  /** A result's latest entry (what a live event carries), or null when it has none. */
  async latestOf(gid: number, date: string): Promise<DeclarationEntry | null> {
    const latest = await this.repository.latestOfResult(gid, date);
    return latest ? toEntry(latest) : null;
  }

  /** One result's declarations with who made each (admins only). */
  async historyOf(gid: number, date: string): Promise<ResultHistoryEntry[]> {
    return (await this.repository.ofResult(gid, date)).map((row) => ({
      ...toEntry(row),
      DeclaredById: row.declared_by,
      DeclaredByName: row.declarer_display_name ?? row.declarer_username ?? '',
    }));
  }

  /**
   * On the first start after the log was added: the results already stored, and the corrections
   * result_history kept, become entries in time order. Once, under the log's lock, whichever process
   * gets there first.
   */
  async backfill(): Promise<number> {
    return inLockedTransaction(this.database, 'ghadi_declarations_backfill', async (trx) => {
      if (!(await this.repository.isEmpty(trx))) return 0;
      const declared = pastEntries(await this.repository.pastDeclarations(trx));
      if (declared.length === 0) return 0;
      // A log emptied behind the server's back starts over: a monitor holding an old checkpoint
      // sees the new tree fail to extend it, and the tables agree with what is served.
      await this.repository.lock(trx);
      await this.tree?.startOver(trx);
      // Not counted again: the daily totals' migration counted these results and corrections.
      await this.appendEntries(trx, declared);
      return declared.length;
    });
  }

  /**
   * At start, after the backfill: the tree gets the entries it does not hold (all of them the first
   * time, or after an import, which does not carry the nodes) and a checkpoint of its size.
   */
  async catchUpTree(): Promise<number | null> {
    return this.tree ? this.tree.catchUp() : null;
  }

  /**
   * Walks the whole log (hashes and continuity) and compares each result's stored value with its
   * latest entry: null when all holds, else the first problem. The server runs it at start.
   */
  async verify(): Promise<{ entries: number; problem: string | null }> {
    const checker = new ChainChecker();
    for await (const rows of this.repository.chunks(VERIFY_CHUNK)) {
      for (const row of rows) if (!checker.add(toHashed(row))) break;
      if (checker.problem) break;
    }
    const stored = (await this.repository.currentValues()).map((row) => ({
      gid: row.gid,
      date: row.result_date,
      value: row.value,
    }));
    checker.compare(stored, () => true);
    return { entries: checker.head.seq, problem: checker.problem };
  }

  private async headIn(db: Executor): Promise<DeclarationHead> {
    return (await this.repository.head(db)) ?? { seq: 0, hash: GENESIS_HASH };
  }
}

type Past = Awaited<ReturnType<DeclarationsRepository['pastDeclarations']>>;

/**
 * Each result's first value (the oldest change's old value, or the current one when it never
 * changed), declared when the result was created, then each change, all in time order.
 */
function pastEntries({ results, changes }: Past): Declared[] {
  const byResult = new Map<number, Past['changes']>();
  for (const change of changes) {
    const list = byResult.get(change.result_id) ?? [];
    list.push(change);
    byResult.set(change.result_id, list);
  }
  const entries: Array<Declared & { order: number }> = [];
  for (const result of results) {
    const own = byResult.get(result.result_id) ?? [];
    const first = own[0];
    const base = { gid: result.gid, date: result.result_date };
    entries.push({
      ...base,
      value: first ? first.old_value : result.value,
      previous: null,
      declaredAt: result.created_at,
      // created_by names the latest declarer: the first is known only when nobody corrected it.
      declaredBy: first ? null : result.created_by,
      order: result.result_id * 2,
    });
    for (const change of own) {
      entries.push({
        ...base,
        value: change.new_value,
        previous: change.old_value,
        declaredAt: change.changed_at,
        declaredBy: change.changed_by,
        order: result.result_id * 2 + 1,
      });
    }
  }
  // Stable: a result's own entries keep their order when their instants tie.
  entries.sort((a, b) =>
    a.declaredAt < b.declaredAt ? -1 : a.declaredAt > b.declaredAt ? 1 : a.order - b.order,
  );
  return entries.map(({ order: _order, ...entry }) => entry);
}
