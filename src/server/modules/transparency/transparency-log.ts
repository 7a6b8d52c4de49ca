import { type Database, type Executor, inLockedTransaction } from '../../db/database.js';
import { BadRequestError } from '../../errors.js';
import type { Now } from '../../lib/clock.js';
import { APPEND_LOCK } from '../declarations/declarations-repository.js';
import { type LeafFields, leafDataOf } from './log-leaf.js';
import { type TileAddress, tileBytes } from './log-tiles.js';
import {
  type CheckpointRow,
  type LogTreeRepository,
  nodeKey,
  type StoredNode,
} from './log-tree-repository.js';
import {
  appendLeaves,
  consistencyRanges,
  foldParts,
  inclusionRanges,
  leafHash,
  type NodeId,
  perfectParts,
  type Range,
} from './merkle-tree.js';
import { checkpointText, type LogKey, signNote, verifierKey } from './signed-note.js';

/** Entries read at a time while the tree catches up with the log. */
const CATCH_UP_CHUNK = 2000;

/** Proof answers kept in this process (a proof for a past size never changes). */
const KEPT_PROOFS = 10_000;

/** An entry as the log appends it: its hashed fields, and its place in the hash chain. */
export type AppendedEntry = LeafFields & { prev_hash: string; hash: string };

interface KnownEdge {
  size: number;
  /** The hash of entry `size`. */
  lastHash: string;
  /** The perfect subtrees that make up the tree of `size` leaves, largest first. */
  nodes: StoredNode[];
}

export interface LogSigner {
  origin: string;
  key: LogKey;
}

export interface InclusionProof {
  seq: number;
  size: number;
  leafHash: string;
  hashes: string[];
}

export interface ConsistencyProof {
  from: number;
  to: number;
  hashes: string[];
}

/**
 * The declaration log as an RFC 6962 tree (decision 0021): its nodes are written in the transaction
 * that appends the entries, under the log's lock, with a signed checkpoint of the new size; proofs
 * and roots are read from O(log n) stored nodes.
 */
export class TransparencyLog {
  private readonly kept = new Map<string, InclusionProof | ConsistencyProof>();

  constructor(
    private readonly database: Database,
    private readonly repository: LogTreeRepository,
    private readonly signer: LogSigner,
    private readonly now: Now,
  ) {}

  /** The public key as a C2SP verifier key. */
  verifierKey(): string {
    return verifierKey(this.signer.origin, this.signer.key);
  }

  /**
   * Adds the entries the tree does not hold yet (those just appended in `trx`, or all of a log
   * written before the tree) and signs a checkpoint of the new size. Call it under the log's lock.
   * `appended`, the entries the caller just wrote, spares the reads when this process wrote the
   * entry before them (see `edge`).
   */
  async extendIn(trx: Executor, appended: readonly AppendedEntry[] = []): Promise<number> {
    const first = appended[0];
    const known = this.edge;
    if (first && known && first.seq === known.size + 1 && first.prev_hash === known.lastHash)
      return this.extendKnown(trx, known, appended);
    return this.extendRead(trx);
  }

  /** The tree's right edge as this process last left it: only its hashes are needed to append. */
  private edge: KnownEdge | null = null;

  /**
   * `appended` follows the entry this process last added (its prevHash is that entry's hash, which
   * commits to the whole log before it): the tree in the database is the one `known` describes.
   * Nothing is read; a transaction that rolls back leaves `edge` one entry ahead of the database, and
   * the next append, whose seq is then not `size + 1`, reads the edge again.
   */
  private async extendKnown(
    trx: Executor,
    known: KnownEdge,
    appended: readonly AppendedEntry[],
  ): Promise<number> {
    const nodes = known.nodes.map((node) => ({ ...node }));
    const added = appendLeaves(
      nodes,
      known.size,
      appended.map((entry) => leafHash(leafDataOf(entry))),
    );
    const size = known.size + appended.length;
    await this.writeGrowth(trx, added, size, foldParts(nodes.map((node) => node.hash)));
    this.edge = { size, lastHash: appended[appended.length - 1]?.hash ?? known.lastHash, nodes };
    return size;
  }

  private async extendRead(trx: Executor): Promise<number> {
    let size = await this.repository.size(trx);
    const edgeIds = perfectParts({ start: 0, end: size });
    const stored = await this.repository.nodes(edgeIds, trx);
    const edge: StoredNode[] = edgeIds.map((id) => ({ ...id, hash: this.mustHave(stored, id) }));
    let lastHash: string | null = null;
    const latest = await this.repository.latestCheckpoint(trx);
    for (;;) {
      const rows = await this.repository.entriesAfter(trx, size, CATCH_UP_CHUNK);
      const first = rows[0];
      if (!first) break;
      if (first.seq !== size + 1) throw new Error(`The log has no entry ${size + 1}: its tree cannot grow`);
      const added = appendLeaves(
        edge,
        size,
        rows.map((row) => leafHash(leafDataOf(row))),
      );
      await this.repository.insertNodes(trx, added);
      size += rows.length;
      lastHash = rows[rows.length - 1]?.hash ?? null;
      if (rows.length < CATCH_UP_CHUNK) break;
    }
    const root = foldParts(edge.map((node) => node.hash));
    if (!latest || latest.size < size) await this.writeGrowth(trx, [], size, root);
    // Known from here on only when this pass read the last entry (whose hash the next append names).
    this.edge = lastHash ? { size, lastHash, nodes: edge } : null;
    return size;
  }

  /** When the backfill rewrites an emptied log (under its lock): nothing of the old tree stands. */
  async startOver(trx: Executor): Promise<void> {
    this.edge = null;
    await this.repository.deleteAll(trx);
  }

  /** At start: the tree and checkpoint catch up with the log, under its lock (any process may). */
  catchUp(): Promise<number> {
    return inLockedTransaction(this.database, APPEND_LOCK, (trx) => this.extendIn(trx));
  }

  /** The latest signed checkpoint (there is one from the first start on). */
  latest(): Promise<CheckpointRow | undefined> {
    return this.repository.latestCheckpoint();
  }

  async inclusion(seq: number, size: number): Promise<InclusionProof> {
    const key = `i ${seq} ${size}`;
    const kept = this.kept.get(key) as InclusionProof | undefined;
    if (kept) return kept;
    if (seq > size) throw new BadRequestError('seq must be at most size');
    await this.checkSize(size);
    const leaf = { level: 0, index: seq - 1 };
    const [leafHash, ...hashes] = await this.hashesOf([
      { start: leaf.index, end: seq },
      ...inclusionRanges(seq - 1, size),
    ]);
    return this.keep(key, { seq, size, leafHash: leafHash ?? '', hashes });
  }

  async consistency(from: number, to: number): Promise<ConsistencyProof> {
    const key = `c ${from} ${to}`;
    const kept = this.kept.get(key) as ConsistencyProof | undefined;
    if (kept) return kept;
    if (from > to) throw new BadRequestError('from must be at most to');
    await this.checkSize(to);
    return this.keep(key, { from, to, hashes: await this.hashesOf(consistencyRanges(from, to)) });
  }

  /** A tile or entry bundle of the signed tree, or null when the signed tree is not that large yet. */
  async tile(address: TileAddress): Promise<Buffer | null> {
    return tileBytes(this.repository, (await this.repository.latestCheckpoint())?.size ?? 0, address);
  }

  /** The new nodes and the signed checkpoint of the new size, written together. */
  private async writeGrowth(
    trx: Executor,
    nodes: readonly StoredNode[],
    size: number,
    root: Buffer,
  ): Promise<void> {
    const { origin, key } = this.signer;
    const note = signNote(checkpointText(origin, size, root), origin, key);
    await this.repository.insertGrowth(trx, nodes, {
      size,
      root: root.toString('base64'),
      note,
      signed_at: new Date(this.now()).toISOString(),
    });
  }

  /** Sizes beyond the latest checkpoint have no signed root anyone could check a proof against. */
  private async checkSize(size: number): Promise<void> {
    const latest = await this.repository.latestCheckpoint();
    if (size > (latest?.size ?? 0))
      throw new BadRequestError(`The log's latest checkpoint has size ${latest?.size ?? 0}`);
  }

  /** The base64 hashes of the ranges, read in one pass over the stored nodes. */
  private async hashesOf(ranges: readonly Range[]): Promise<string[]> {
    const parts = ranges.map(perfectParts);
    const stored = await this.repository.nodes(parts.flat());
    return parts.map((ids) => foldParts(ids.map((id) => this.mustHave(stored, id))).toString('base64'));
  }

  private mustHave(stored: Map<string, Buffer>, id: NodeId): Buffer {
    const hash = stored.get(nodeKey(id));
    if (!hash) throw new Error(`The log's tree has no node ${nodeKey(id)}`);
    return hash;
  }

  private keep<T extends InclusionProof | ConsistencyProof>(key: string, proof: T): T {
    if (this.kept.size >= KEPT_PROOFS) this.kept.clear();
    this.kept.set(key, proof);
    return proof;
  }
}
