import { createHash, hash } from 'node:crypto';
import {
  type Digester,
  equalHashes,
  fromBase64,
  type Hash,
  sha256,
  toBase64,
  verifyConsistency,
  verifyInclusion,
} from '../../shared/merkle-proofs.js';
import type { Checkpoint } from '../../shared/signed-notes.js';
import { getProof } from './site-reads.js';

/**
 * The tree half of `npm run verify`: the RFC 6962 tree recomputed from the entries the site serves,
 * held against a signed checkpoint and the site's own inclusion and consistency proofs.
 */

interface InclusionAnswer {
  seq: number;
  size: number;
  leafHash: string;
  hashes: string[];
}

interface ConsistencyAnswer {
  from: number;
  to: number;
  hashes: string[];
}

const HASH = 32;

/** SHA-256 by node:crypto in this process: a million leaves in seconds, not minutes (see Digester). */
export const nodeDigest: Digester = {
  digest: async (_algorithm, data) => {
    const digest = createHash('sha256').update(data).digest();
    return digest.buffer.slice(digest.byteOffset, digest.byteOffset + digest.length) as ArrayBuffer;
  },
};

/**
 * RFC 6962's hashes, synchronously and in one call each (node:crypto's one-shot hash, with the hash
 * as a 'binary' (latin1) string, one character a byte): a million leaves without a million awaits or objects.
 */
const NODE_INPUT = Buffer.alloc(1 + 2 * HASH, 1);
let leafInput = Buffer.alloc(1024);

function hashLeaf(bytes: Uint8Array): string {
  if (bytes.length + 1 > leafInput.length) leafInput = Buffer.alloc(2 * (bytes.length + 1));
  leafInput[0] = 0;
  leafInput.set(bytes, 1);
  return hash('sha256', leafInput.subarray(0, bytes.length + 1), 'binary');
}

function hashNode(left: string, right: string): string {
  NODE_INPUT.write(left, 1, 'latin1');
  NODE_INPUT.write(right, 1 + HASH, 'latin1');
  return hash('sha256', NODE_INPUT, 'binary');
}

const asHash = (latin1: string): Hash => {
  const buffer = Buffer.from(latin1, 'latin1');
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.length) as Hash;
};

/** Every entry's leaf hash (flat, 32 bytes each), so that any prefix's root can be had again. */
export class LeafStore {
  private bytes = Buffer.alloc(HASH * 1024);
  private count = 0;
  /** The tree's right edge: complete subtrees, largest first, with their sizes. */
  private readonly edge: { size: number; hash: string }[] = [];
  private readonly roots = new Map<number, Hash>();
  /** Complete subtrees by level (latin1 hashes), built only when a root at an unplanned size is asked for. */
  private levels: string[][] | null = null;

  /** `sizes`: the tree sizes whose roots are kept while reading (the others cost one more pass). */
  constructor(private readonly sizes: ReadonlySet<number>) {}

  get size(): number {
    return this.count;
  }

  /** An entry's leaf: its bytes (merkle-proofs.ts's leafBytes, or an entry bundle's). */
  addBytes(bytes: Uint8Array): void {
    const leaf = hashLeaf(bytes);
    const at = this.count * HASH;
    if (at + HASH > this.bytes.length) {
      const grown = Buffer.alloc(this.bytes.length * 2);
      this.bytes.copy(grown);
      this.bytes = grown;
    }
    this.bytes.write(leaf, at, 'latin1');
    let node = { size: 1, hash: leaf };
    for (let top = this.edge.at(-1); top && top.size === node.size; top = this.edge.at(-1)) {
      this.edge.pop();
      node = { size: node.size * 2, hash: hashNode(top.hash, node.hash) };
    }
    this.edge.push(node);
    this.count += 1;
    this.levels = null;
    if (this.sizes.has(this.count)) this.roots.set(this.count, asHash(this.edgeRoot()));
  }

  leaf(index: number): Hash {
    return asHash(this.bytes.toString('latin1', index * HASH, (index + 1) * HASH));
  }

  /** The root of the first `size` leaves read (size ≤ the leaves read). */
  async rootAt(size: number): Promise<Hash> {
    if (size === 0) return sha256(new Uint8Array(0), nodeDigest);
    const kept = this.roots.get(size);
    if (kept) return kept;
    this.levels ??= this.buildLevels();
    // The largest complete subtrees from the left, one per set bit of size, folded from the right.
    const parts: string[] = [];
    let start = 0;
    for (let level = this.levels.length - 1; level >= 0; level--) {
      const width = 2 ** level;
      if (size - start < width) continue;
      parts.push((this.levels[level] as string[])[start / width] as string);
      start += width;
    }
    let root = parts.pop() as string;
    for (let part = parts.pop(); part !== undefined; part = parts.pop()) root = hashNode(part, root);
    return asHash(root);
  }

  private edgeRoot(): string {
    let root = (this.edge.at(-1) as { hash: string }).hash;
    for (let i = this.edge.length - 2; i >= 0; i--)
      root = hashNode((this.edge[i] as { hash: string }).hash, root);
    return root;
  }

  private buildLevels(): string[][] {
    const leaves: string[] = [];
    for (let i = 0; i < this.count; i++) leaves.push(this.bytes.toString('latin1', i * HASH, (i + 1) * HASH));
    const levels = [leaves];
    for (let below = leaves; below.length >= 2; ) {
      const level: string[] = [];
      for (let i = 0; 2 * i + 1 < below.length; i++)
        level.push(hashNode(below[2 * i] as string, below[2 * i + 1] as string));
      levels.push(level);
      below = level;
    }
    return levels;
  }
}

/** Which entries' inclusion proofs a run asks for: the first, the last and some between. */
export function sampleSeqs(size: number, count = 16): number[] {
  if (size === 0) return [];
  const seqs = new Set<number>();
  for (let i = 0; i < count; i++) seqs.add(1 + Math.floor((i * (size - 1)) / Math.max(1, count - 1)));
  return [...seqs];
}

function hashes(list: unknown): Hash[] | null {
  if (!Array.isArray(list) || list.some((item) => typeof item !== 'string')) return null;
  try {
    return list.map((item: string) => fromBase64(item));
  } catch {
    return null;
  }
}

export class TreeChecker {
  constructor(
    private readonly site: string,
    private readonly store: LeafStore,
  ) {}

  /**
   * Whether the site proves that the tree of `from` leaves (as recomputed here, or the root a kept
   * checkpoint signed) is in `checkpoint`.
   */
  async consistent(from: number, checkpoint: Checkpoint, fromRoot?: Hash): Promise<string | null> {
    if (from === checkpoint.size)
      return equalHashes(fromRoot ?? (await this.store.rootAt(from)), checkpoint.root)
        ? null
        : `the entries give another root than the checkpoint of size ${from} signed`;
    if (from === 0) return null;
    const url = `${this.site}/api/log/proof/consistency?from=${from}&to=${checkpoint.size}`;
    const answer = await getProof<ConsistencyAnswer>(url);
    if (typeof answer === 'string') return answer;
    const proof = hashes(answer.hashes);
    if (!proof || answer.from !== from || answer.to !== checkpoint.size)
      return `the consistency proof from ${from} to ${checkpoint.size} is malformed`;
    const root = fromRoot ?? (await this.store.rootAt(from));
    return (await verifyConsistency(from, checkpoint.size, proof, root, checkpoint.root, nodeDigest))
      ? null
      : `the consistency proof from ${from} to ${checkpoint.size} does not verify`;
  }

  /** An entry's inclusion proof, checked against this entry's leaf and the checkpoint's root. */
  async included(seq: number, checkpoint: Checkpoint): Promise<string | null> {
    const { size } = checkpoint;
    const answer = await getProof<InclusionAnswer>(
      `${this.site}/api/log/proof/inclusion?seq=${seq}&size=${size}`,
    );
    if (typeof answer === 'string') return `seq ${seq}: ${answer}`;
    const proof = hashes(answer.hashes);
    if (!proof || answer.seq !== seq || answer.size !== size || typeof answer.leafHash !== 'string')
      return `seq ${seq}: its inclusion proof at size ${size} is malformed`;
    const leaf = this.store.leaf(seq - 1);
    if (answer.leafHash !== toBase64(leaf))
      return `seq ${seq}: the site's leaf hash ${answer.leafHash} is not the hash of the entry it serves (${toBase64(leaf)})`;
    return (await verifyInclusion(seq - 1, size, leaf, proof, checkpoint.root, nodeDigest))
      ? null
      : `seq ${seq}: its inclusion proof at size ${size} does not verify`;
  }

  /**
   * The whole check against one checkpoint: the recomputed root, then the sampled inclusion proofs and
   * a consistency proof from `from`. On a wrong root, names the first entry the checkpoint did not sign.
   */
  async check(checkpoint: Checkpoint, from: number): Promise<string | null> {
    const { size } = checkpoint;
    if (this.store.size < size)
      return `the checkpoint of size ${size} signs more entries than the ${this.store.size} the log serves`;
    const root = await this.store.rootAt(size);
    if (!equalHashes(root, checkpoint.root))
      return size === 0
        ? 'the checkpoint of size 0 does not sign the empty tree (SHA-256 of nothing)'
        : this.firstUnsigned(checkpoint, root);
    for (const seq of sampleSeqs(size)) {
      const problem = await this.included(seq, checkpoint);
      if (problem) return problem;
    }
    if (from > 0 && from < size) {
      const problem = await this.consistent(from, checkpoint);
      if (problem) return problem;
    }
    return null;
  }

  /**
   * The first `seq` whose prefix the site cannot prove consistent with the checkpoint: its prefixes
   * before it are the tree the checkpoint signed, so that entry is the one changed.
   */
  async firstUnsigned(checkpoint: Checkpoint, root: Hash): Promise<string> {
    let [low, high] = [1, checkpoint.size];
    while (low < high) {
      const middle = Math.floor((low + high) / 2);
      if ((await this.consistent(middle, checkpoint)) === null) low = middle + 1;
      else high = middle;
    }
    const differs =
      `the entries served do not give the root the checkpoint of size ${checkpoint.size} signed ` +
      `(${toBase64(checkpoint.root)}; the entries give ${toBase64(root)})`;
    if (low > 1)
      return `seq ${low}: ${differs}; the site proves the first ${low - 1} entries in it, not the first ${low}`;
    // No prefix proves: either the first entry changed, or the site's proofs come from another tree.
    return (await this.included(1, checkpoint)) === null
      ? `${differs}; the site's proofs do not say which entry changed`
      : `seq 1: ${differs}`;
  }
}
