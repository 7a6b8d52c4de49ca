import { beforeAll, describe, expect, it } from 'vitest';
import {
  fromBase64,
  type Hash,
  leafHash,
  rawLeafHash,
  rootOf,
  splitPoint,
  toBase64,
  toHex,
  verifyConsistency,
  verifyInclusion,
} from './merkle-proofs.js';
import { RFC6962_LEAF_INPUTS, RFC6962_ROOTS } from './rfc6962-test-vectors.js';

const hex = (text: string): Hash =>
  Uint8Array.from(text.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));
/** SHA-256 straight from Web Crypto, apart from the code under test. */
const digest = async (...parts: Uint8Array[]): Promise<Hash> => {
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
};

const LEAF_INPUTS = RFC6962_LEAF_INPUTS;
const ROOTS = RFC6962_ROOTS;

const INCLUSION = [
  { index: 0, size: 1, proof: [] },
  { index: 0, size: 2, proof: ['96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7'] },
  { index: 1, size: 2, proof: ['6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d'] },
  { index: 2, size: 3, proof: ['fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125'] },
  {
    index: 1,
    size: 5,
    proof: [
      '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  },
  {
    index: 0,
    size: 8,
    proof: [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  },
  {
    index: 5,
    size: 8,
    proof: [
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  },
];
const CONSISTENCY = [
  { first: 1, second: 1, proof: [] },
  {
    first: 1,
    second: 8,
    proof: [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  },
  {
    first: 2,
    second: 5,
    proof: [
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  },
  {
    first: 6,
    second: 8,
    proof: [
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  },
];

/** A copy with one bit of one hash flipped. */
function flipped(proof: Hash[], which: number): Hash[] {
  return proof.map((hash, i) => {
    if (i !== which) return hash;
    const copy = hash.slice();
    copy[7] = (copy[7] as number) ^ 0x10;
    return copy;
  });
}

describe('RFC 6962 published vectors', () => {
  let leaves: Hash[] = [];
  beforeAll(async () => {
    leaves = await Promise.all(LEAF_INPUTS.map((input) => rawLeafHash(hex(input))));
  });

  it('hashes leaves and computes the root of every prefix, the empty tree included', async () => {
    expect(toHex(leaves[0] as Hash)).toBe('6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d');
    for (let size = 0; size <= 8; size++) {
      expect(toHex(await rootOf(leaves.slice(0, size)))).toBe(ROOTS[size]);
    }
  });

  it.each(INCLUSION)('inclusion of leaf $index in a tree of $size', async ({ index, size, proof }) => {
    const hashes = proof.map(hex);
    const root = hex(ROOTS[size] as string);
    const leaf = leaves[index] as Hash;
    expect(await verifyInclusion(index, size, leaf, hashes, root)).toBe(true);
    expect(await verifyInclusion(index, size, leaves[index + 1] ?? (leaves[0] as Hash), hashes, root)).toBe(
      false,
    );
    expect(await verifyInclusion(index, size, leaf, [...hashes, leaf], root)).toBe(false);
    expect(await verifyInclusion(size, size, leaf, hashes, root)).toBe(false);
    for (let i = 0; i < hashes.length; i++)
      expect(await verifyInclusion(index, size, leaf, flipped(hashes, i), root)).toBe(false);
  });

  it.each(CONSISTENCY)('consistency of $first with $second', async ({ first, second, proof }) => {
    const hashes = proof.map(hex);
    const [a, b] = [hex(ROOTS[first] as string), hex(ROOTS[second] as string)];
    expect(await verifyConsistency(first, second, hashes, a, b)).toBe(true);
    expect(await verifyConsistency(first, second, hashes, hex(ROOTS[0] as string), b)).toBe(false);
    expect(await verifyConsistency(first, second, hashes, a, hex(ROOTS[0] as string))).toBe(false);
    for (let i = 0; i < hashes.length; i++)
      expect(await verifyConsistency(first, second, flipped(hashes, i), a, b)).toBe(false);
    if (first !== second) expect(await verifyConsistency(first, second, [], a, b)).toBe(false);
  });

  it('base64 and the split point', () => {
    expect(toBase64(hex(ROOTS[0] as string))).toBe('47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=');
    expect(toHex(fromBase64('47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='))).toBe(ROOTS[0]);
    expect(() => fromBase64('47DEQpj8HBSa-_TImW')).toThrow();
    expect([2, 3, 4, 5, 8, 9, 28937].map(splitPoint)).toEqual([1, 2, 2, 4, 4, 8, 16384]);
  });
});

describe('the declaration log’s leaves', () => {
  it('hash 0x00 and the UTF-8 JSON of [seq, GID, Date, Result, Previous, DeclaredAt], as the issue states', async () => {
    const entry = {
      seq: 7,
      GID: 3,
      Date: '2026-11-22',
      Result: '१२३-6',
      Previous: null,
      DeclaredAt: '2026-11-22T08:26:03.123Z',
    };
    const json = '[7,3,"2026-11-22","१२३-6",null,"2026-11-22T08:26:03.123Z"]';
    const expected = toHex(await digest(new Uint8Array([0]), new TextEncoder().encode(json)));
    expect(toHex(await leafHash(entry))).toBe(expected);
    expect(toHex(await leafHash({ ...entry, Previous: '45' }))).not.toBe(expected);
  });
});

/** RFC 6962 section 2.1 written out recursively, with memoised subtree roots. */
async function naiveTree(leaves: Hash[]) {
  const memo = new Map<string, Hash>();
  const fill = async (from: number, to: number): Promise<Hash> => {
    const key = `${from}:${to}`;
    let hash = memo.get(key);
    if (!hash) {
      const k = splitPoint(to - from);
      hash =
        to - from === 1
          ? (leaves[from] as Hash)
          : await digest(new Uint8Array([1]), await fill(from, from + k), await fill(from + k, to));
      memo.set(key, hash);
    }
    return hash;
  };
  for (let size = 1; size <= leaves.length; size++) await fill(0, size);
  // Every subtree a proof below names lies in the decomposition of some [0, size) filled above.
  const mth = (from: number, to: number) => memo.get(`${from}:${to}`) as Hash;
  const path = (m: number, from: number, to: number): Hash[] => {
    if (to - from === 1) return [];
    const k = splitPoint(to - from);
    return m < k
      ? [...path(m, from, from + k), mth(from + k, to)]
      : [...path(m - k, from + k, to), mth(from, from + k)];
  };
  const subproof = (m: number, from: number, to: number, whole: boolean): Hash[] => {
    const n = to - from;
    if (m === n) return whole ? [] : [mth(from, to)];
    const k = splitPoint(n);
    return m <= k
      ? [...subproof(m, from, from + k, whole), mth(from + k, to)]
      : [...subproof(m - k, from + k, to, false), mth(from, from + k)];
  };
  return {
    root: (size: number) => mth(0, size),
    inclusion: (index: number, size: number) => path(index, 0, size),
    consistency: (m: number, n: number) => subproof(m, 0, n, true),
  };
}

describe('against a naive RFC 6962 tree, every size up to 64', () => {
  const N = 64;
  const leaves: Hash[] = [];
  let tree: Awaited<ReturnType<typeof naiveTree>>;
  beforeAll(async () => {
    for (let seq = 1; seq <= N; seq++) {
      const entry = { seq, GID: seq % 5, Date: '2026-11-01', Result: `${seq}`, Previous: null };
      leaves.push(await leafHash({ ...entry, DeclaredAt: '2026-11-01T00:00:00.000Z' }));
    }
    tree = await naiveTree(leaves);
  });

  it('the same roots from the list as from the naive tree', async () => {
    for (let size = 1; size <= N; size++) {
      expect(toHex(await rootOf(leaves.slice(0, size)))).toBe(toHex(tree.root(size)));
    }
  });

  it('every inclusion proof verifies, and against the next size it does not', async () => {
    for (let size = 1; size <= N; size++)
      for (let index = 0; index < size; index++) {
        const proof = tree.inclusion(index, size);
        expect(await verifyInclusion(index, size, leaves[index] as Hash, proof, tree.root(size))).toBe(true);
        if (size < N)
          expect(await verifyInclusion(index, size, leaves[index] as Hash, proof, tree.root(size + 1))).toBe(
            false,
          );
        if (size > 1)
          expect(
            await verifyInclusion((index + 1) % size, size, leaves[index] as Hash, proof, tree.root(size)),
          ).toBe(false);
      }
  });

  it('every consistency proof verifies, and not against another first root', async () => {
    for (let second = 1; second <= N; second++)
      for (let first = 1; first <= second; first++) {
        const proof = tree.consistency(first, second);
        expect(await verifyConsistency(first, second, proof, tree.root(first), tree.root(second))).toBe(true);
        if (first < second) {
          const other = tree.root(first === 1 ? 2 : first - 1);
          expect(await verifyConsistency(first, second, proof, other, tree.root(second))).toBe(false);
          if (proof.length > 0)
            expect(
              await verifyConsistency(first, second, proof.slice(1), tree.root(first), tree.root(second)),
            ).toBe(false);
        }
      }
    const empty = await rootOf([]);
    expect(await verifyConsistency(0, 5, [], empty, tree.root(5))).toBe(true);
    expect(await verifyConsistency(0, 5, [], tree.root(1), tree.root(5))).toBe(false);
    expect(await verifyConsistency(6, 5, [], tree.root(6), tree.root(5))).toBe(false);
  });
});
