import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RFC6962_LEAF_INPUTS, RFC6962_ROOTS } from '../../../shared/rfc6962-test-vectors.js';
import {
  appendLeaves,
  consistencyRanges,
  EMPTY_ROOT,
  foldParts,
  inclusionRanges,
  leafHash,
  type NodeId,
  nodeHash,
  perfectParts,
  type Range,
} from './merkle-tree.js';

// Published vectors (src/shared/rfc6962-test-vectors.ts), and proofs in the tree of 8.
const DATA = RFC6962_LEAF_INPUTS;
/** The roots of sizes 1 to 8 (index 0: one leaf). */
const ROOTS = RFC6962_ROOTS.slice(1);
const INCLUSION: Array<[number, number, string[]]> = [
  [
    0,
    8,
    [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  ],
  [
    5,
    8,
    [
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  ],
];
const CONSISTENCY: Array<[number, number, string[]]> = [
  [
    1,
    8,
    [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  ],
  [
    6,
    8,
    [
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  ],
  [
    2,
    5,
    [
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  ],
];

/** A tree built by appending, as the server does, with its stored nodes in a map. */
function storedTree(leaves: readonly Buffer[]) {
  const nodes = new Map<string, Buffer>();
  const edge: Array<NodeId & { hash: Buffer }> = [];
  // One leaf at a time for the first half, the rest in one batch: both paths the server takes.
  const half = Math.floor(leaves.length / 2);
  for (let i = 0; i < half; i++)
    for (const node of appendLeaves(edge, i, [leaves[i] as Buffer]))
      nodes.set(`${node.level}/${node.index}`, node.hash);
  for (const node of appendLeaves(edge, half, leaves.slice(half)))
    nodes.set(`${node.level}/${node.index}`, node.hash);
  const hashOf = (range: Range) =>
    foldParts(
      perfectParts(range).map(({ level, index }) => {
        const hash = nodes.get(`${level}/${index}`);
        if (!hash) throw new Error(`node ${level}/${index} is not stored`);
        return hash;
      }),
    );
  return {
    edgeRoot: () => foldParts(edge.map((node) => node.hash)),
    root: (size: number) => hashOf({ start: 0, end: size }),
    inclusion: (m: number, size: number) => inclusionRanges(m, size).map(hashOf),
    consistency: (m: number, size: number) => consistencyRanges(m, size).map(hashOf),
  };
}

// The naive recursion of RFC 9162 section 2.1, straight from its text.
function mth(leaves: readonly Buffer[]): Buffer {
  if (leaves.length === 0) return createHash('sha256').digest();
  if (leaves.length === 1) return leaves[0] as Buffer;
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return nodeHash(mth(leaves.slice(0, k)), mth(leaves.slice(k)));
}
function path(m: number, leaves: readonly Buffer[]): Buffer[] {
  if (leaves.length <= 1) return [];
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return m < k
    ? [...path(m, leaves.slice(0, k)), mth(leaves.slice(k))]
    : [...path(m - k, leaves.slice(k)), mth(leaves.slice(0, k))];
}
function subproof(m: number, leaves: readonly Buffer[], complete: boolean): Buffer[] {
  const n = leaves.length;
  if (m === n) return complete ? [] : [mth(leaves)];
  let k = 1;
  while (k * 2 < n) k *= 2;
  return m <= k
    ? [...subproof(m, leaves.slice(0, k), complete), mth(leaves.slice(k))]
    : [...subproof(m - k, leaves.slice(k), false), mth(leaves.slice(0, k))];
}

const hex = (hashes: readonly Buffer[]) => hashes.map((hash) => hash.toString('hex'));

describe('the RFC 6962 tree', () => {
  const vectorLeaves = DATA.map((data) => leafHash(Buffer.from(data, 'hex')));
  const vectorTree = storedTree(vectorLeaves);

  it('has the published roots, and the empty tree has the SHA-256 of nothing', () => {
    expect(EMPTY_ROOT.toString('hex')).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
    expect(vectorTree.root(0)).toEqual(EMPTY_ROOT);
    for (let size = 1; size <= 8; size++) expect(vectorTree.root(size).toString('hex')).toBe(ROOTS[size - 1]);
    expect(vectorTree.edgeRoot().toString('hex')).toBe(ROOTS[7]);
  });

  it('gives the published inclusion and consistency proofs', () => {
    for (const [m, size, proof] of INCLUSION) expect(hex(vectorTree.inclusion(m, size))).toEqual(proof);
    for (const [m, size, proof] of CONSISTENCY) expect(hex(vectorTree.consistency(m, size))).toEqual(proof);
  });

  it('agrees with the naive recursion for every size up to 64', () => {
    const leaves = Array.from({ length: 64 }, (_, i) => leafHash(Buffer.from(`leaf ${i}`)));
    // Built by appending to every size: each edge's root is the recursion's.
    for (let n = 1; n <= 64; n++)
      expect(storedTree(leaves.slice(0, n)).edgeRoot()).toEqual(mth(leaves.slice(0, n)));
    // Every root and proof of every smaller size, read from the stored nodes of the largest tree.
    const tree = storedTree(leaves);
    for (let size = 0; size <= 64; size++) expect(tree.root(size)).toEqual(mth(leaves.slice(0, size)));
    for (let size = 1; size <= 64; size++)
      for (let m = 0; m < size; m++) {
        expect(hex(tree.inclusion(m, size))).toEqual(hex(path(m, leaves.slice(0, size))));
        expect(hex(tree.consistency(m + 1, size))).toEqual(hex(subproof(m + 1, leaves.slice(0, size), true)));
      }
  });

  it('refuses a leaf or size outside the tree', () => {
    expect(() => inclusionRanges(3, 3)).toThrow(RangeError);
    expect(() => inclusionRanges(-1, 3)).toThrow(RangeError);
    expect(() => consistencyRanges(0, 3)).toThrow(RangeError);
    expect(() => consistencyRanges(4, 3)).toThrow(RangeError);
    expect(consistencyRanges(3, 3)).toEqual([]);
  });

  it('reads at most a few nodes per proof hash at a million leaves', () => {
    const size = 1_000_003;
    const ranges = [...inclusionRanges(123_457, size), ...consistencyRanges(777_777, size)];
    const nodes = ranges.flatMap(perfectParts);
    expect(ranges.length).toBeLessThanOrEqual(2 * 21);
    expect(nodes.length).toBeLessThanOrEqual(3 * 21);
  });
});
