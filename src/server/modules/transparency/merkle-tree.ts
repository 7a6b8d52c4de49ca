import { createHash } from 'node:crypto';

/*
 * RFC 6962 (section 2.1) / RFC 9162 (section 2.1) Merkle tree math over stored perfect subtrees.
 * A node is named by its level and index: node (level, index) is the hash of the 2^level leaves
 * from index * 2^level on. Every subtree a proof names splits into at most log2(n) such nodes, so a
 * proof or a root is read from O(log n) stored hashes (decision 0021).
 */

export interface NodeId {
  level: number;
  index: number;
}

/** SHA-256 of the empty string: the root of the empty tree. */
export const EMPTY_ROOT = createHash('sha256').digest();

export function leafHash(data: Uint8Array): Buffer {
  return createHash('sha256').update(Buffer.of(0)).update(data).digest();
}

export function nodeHash(left: Uint8Array, right: Uint8Array): Buffer {
  return createHash('sha256').update(Buffer.of(1)).update(left).update(right).digest();
}

/** The largest power of two smaller than n (n ≥ 2): where RFC 6962 splits a tree of n leaves. */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** A leaf range [start, end): what a proof hash stands for. */
export interface Range {
  start: number;
  end: number;
}

/**
 * The perfect subtrees that make up [start, end), left to right (the binary digits of its size,
 * largest first). Valid for every range RFC 6962's recursion reaches, whose start is a multiple of
 * a power of two at least its size, and for [0, n).
 */
export function perfectParts({ start, end }: Range): NodeId[] {
  const parts: NodeId[] = [];
  let at = start;
  for (let level = 52; level >= 0; level--) {
    const width = 2 ** level;
    if (end - at >= width) {
      parts.push({ level, index: at / width });
      at += width;
    }
  }
  return parts;
}

/** The hash of a range from the hashes of its perfect parts: RFC 6962 folds them from the right. */
export function foldParts(hashes: readonly Uint8Array[]): Buffer {
  const last = hashes.at(-1);
  if (last === undefined) return EMPTY_ROOT;
  let hash: Buffer = Buffer.from(last);
  for (let i = hashes.length - 2; i >= 0; i--) hash = nodeHash(hashes[i] as Uint8Array, hash);
  return hash;
}

/** RFC 9162 PATH(m, D[start:end]): the ranges whose hashes prove leaf m, in the proof's order. */
export function inclusionRanges(m: number, size: number): Range[] {
  if (!(Number.isSafeInteger(m) && m >= 0 && m < size)) throw new RangeError('No such leaf in the tree');
  const ranges: Range[] = [];
  let start = 0;
  let end = size;
  // Iterative from the root down; the proof lists siblings from the leaf up, so it is reversed.
  while (end - start > 1) {
    const k = splitPoint(end - start);
    if (m < start + k) {
      ranges.push({ start: start + k, end });
      end = start + k;
    } else {
      ranges.push({ start, end: start + k });
      start += k;
    }
  }
  return ranges.reverse();
}

/** RFC 9162 PROOF(m, D[n]) = SUBPROOF(m, D[n], true): the ranges of a consistency proof, in order. */
export function consistencyRanges(m: number, size: number): Range[] {
  if (!(Number.isSafeInteger(m) && m >= 1 && m <= size)) throw new RangeError('No such tree size');
  const ranges: Range[] = [];
  let start = 0;
  let end = size;
  let complete = true;
  while (m !== end - start) {
    const k = splitPoint(end - start);
    if (m <= k) {
      ranges.push({ start: start + k, end });
      end = start + k;
    } else {
      ranges.push({ start, end: start + k });
      start += k;
      m -= k;
      complete = false;
    }
  }
  if (!complete) ranges.push({ start, end });
  return ranges.reverse();
}

/**
 * The nodes added when leaves are appended to a tree whose right edge (the perfect parts of
 * [0, size)) is `edge`: each leaf, and each parent it completes. `edge` is updated in place, so the
 * new root is foldParts of its hashes.
 */
export function appendLeaves(
  edge: Array<NodeId & { hash: Buffer }>,
  size: number,
  leaves: readonly Buffer[],
): Array<NodeId & { hash: Buffer }> {
  const added: Array<NodeId & { hash: Buffer }> = [];
  let count = size;
  for (const leaf of leaves) {
    let node = { level: 0, index: count, hash: leaf };
    added.push(node);
    // Each trailing one bit of the old size is a left sibling waiting on the edge.
    while (node.index % 2 === 1) {
      const left = edge.pop();
      if (!left || left.level !== node.level) throw new Error('The tree edge does not match its size');
      node = { level: node.level + 1, index: left.index / 2, hash: nodeHash(left.hash, node.hash) };
      added.push(node);
    }
    edge.push(node);
    count += 1;
  }
  return added;
}
