import { describe, expect, it } from 'vitest';
import { leafDataOf } from './log-leaf.js';
import { parseTilePath, TILE_WIDTH, tileBytes, tileIndexPath } from './log-tiles.js';
import type { LogTreeRepository } from './log-tree-repository.js';
import { appendLeaves, leafHash, type NodeId, nodeHash } from './merkle-tree.js';

describe('tile paths', () => {
  it('spell N in 3-digit groups, every one but the last prefixed with x', () => {
    expect(tileIndexPath(0)).toBe('000');
    expect(tileIndexPath(7)).toBe('007');
    expect(tileIndexPath(1000)).toBe('x001/000');
    expect(tileIndexPath(1234067)).toBe('x001/x234/067');
  });

  it('read only the canonical spelling of a tile, a partial tile or an entry bundle', () => {
    expect(parseTilePath('0/000')).toEqual({ level: 0, index: 0, width: 256 });
    expect(parseTilePath('1/x001/x234/067.p/5')).toEqual({ level: 1, index: 1234067, width: 5 });
    expect(parseTilePath('entries/x001/000.p/255')).toEqual({ level: 'entries', index: 1000, width: 255 });
    for (const bad of [
      '0/0',
      '0/x000/001',
      '0/000.p/0',
      '0/000.p/256',
      '0/000.p/05',
      '7/000',
      '0/000/',
      'a/000',
    ])
      expect(parseTilePath(bad), bad).toBeNull();
  });
});

describe('tiles', () => {
  // A tree of 600 leaves in memory, served through the repository's two reads.
  const entries = Array.from({ length: 600 }, (_, i) => ({
    seq: i + 1,
    gid: 1 + (i % 7),
    result_date: '2026-11-29',
    value: String(i % 100),
    previous: null,
    declared_at: '2026-11-29T10:00:00.000Z',
  }));
  const leaves = entries.map((entry) => leafHash(leafDataOf(entry)));
  const nodes = new Map<string, Buffer>();
  for (const node of appendLeaves([] as Array<NodeId & { hash: Buffer }>, 0, leaves))
    nodes.set(`${node.level}/${node.index}`, node.hash);
  const repository = {
    levelRange: async (level: number, first: number, count: number) =>
      Array.from({ length: count }, (_, i) => nodes.get(`${level}/${first + i}`)).filter(
        (hash): hash is Buffer => hash !== undefined,
      ),
    entriesFrom: async (first: number, count: number) => entries.slice(first - 1, first - 1 + count),
  } as unknown as LogTreeRepository;

  it('hold the level-0 hashes, the level-8 hashes of whole 256-leaf subtrees, and entry bundles', async () => {
    const full = await tileBytes(repository, 600, { level: 0, index: 1, width: TILE_WIDTH });
    expect(full).toEqual(Buffer.concat(leaves.slice(256, 512)));
    const partial = await tileBytes(repository, 600, { level: 0, index: 2, width: 88 });
    expect(partial).toEqual(Buffer.concat(leaves.slice(512, 600)));
    expect(await tileBytes(repository, 600, { level: 0, index: 2, width: 89 })).toBeNull();
    expect(await tileBytes(repository, 599, { level: 0, index: 2, width: 88 })).toBeNull();

    // Level 1 of the tiles: the roots of the 256-leaf subtrees, by the naive recursion.
    const subtree = (from: number, count: number): Buffer =>
      count === 1
        ? (leaves[from] as Buffer)
        : nodeHash(subtree(from, count / 2), subtree(from + count / 2, count / 2));
    expect(await tileBytes(repository, 600, { level: 1, index: 0, width: 2 })).toEqual(
      Buffer.concat([subtree(0, 256), subtree(256, 256)]),
    );
    expect(await tileBytes(repository, 600, { level: 1, index: 0, width: 3 })).toBeNull();

    const bundle = await tileBytes(repository, 600, { level: 'entries', index: 2, width: 3 });
    const data = entries.slice(512, 515).map(leafDataOf);
    expect(bundle).toEqual(
      Buffer.concat(data.flatMap((bytes) => [Buffer.of(bytes.length >> 8, bytes.length & 255), bytes])),
    );
  });
});
