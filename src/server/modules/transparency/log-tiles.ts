import { leafDataOf } from './log-leaf.js';
import type { LogTreeRepository } from './log-tree-repository.js';

/*
 * The tree as C2SP tlog-tiles (height 8): tile L/N holds the hashes of the nodes of Merkle level 8L
 * from N * 256 on, 32 bytes each; a partial tile `.p/W` the first W of them. Entry bundle N holds
 * the leaves' data (entries N * 256 + 1 on, by seq), each as a big-endian 16-bit length and its bytes.
 */

export const TILE_WIDTH = 256;
const TILE_HEIGHT = 8;
/** Levels a tree of 2^53 leaves can have tiles at. */
const MAX_TILE_LEVEL = 6;

export interface TileAddress {
  /** A tile level, or 'entries' for an entry bundle. */
  level: number | 'entries';
  index: number;
  /** Hashes or entries: TILE_WIDTH for a full tile. */
  width: number;
}

/** The spec's path of N: 3-digit groups, every one but the last prefixed with x (1234067 → x001/x234/067). */
export function tileIndexPath(index: number): string {
  const groups: string[] = [];
  let rest = index;
  do {
    groups.unshift(String(rest % 1000).padStart(3, '0'));
    rest = Math.floor(rest / 1000);
  } while (rest > 0);
  return groups.map((group, i) => (i < groups.length - 1 ? `x${group}` : group)).join('/');
}

/** The tile a path after `tile/` names, or null when it is not one (only the canonical spelling is). */
export function parseTilePath(path: string): TileAddress | null {
  const match = /^(entries|\d)\/((?:x\d{3}\/){0,4}\d{3})(?:\.p\/(\d{1,3}))?$/.exec(path);
  if (!match) return null;
  const [, levelText = '', indexText = '', widthText] = match;
  const level = levelText === 'entries' ? 'entries' : Number(levelText);
  if (level !== 'entries' && level > MAX_TILE_LEVEL) return null;
  const index = Number(indexText.replaceAll('x', '').replaceAll('/', ''));
  const width = widthText === undefined ? TILE_WIDTH : Number(widthText);
  if (widthText !== undefined && (width < 1 || width >= TILE_WIDTH || widthText !== String(width)))
    return null;
  if (tileIndexPath(index) !== indexText) return null;
  return { level, index, width };
}

/** A tile's or bundle's bytes, or null when the signed tree is not that large yet. */
export async function tileBytes(
  repository: LogTreeRepository,
  signedSize: number,
  { level, index, width }: TileAddress,
): Promise<Buffer | null> {
  const first = index * TILE_WIDTH;
  if (level === 'entries') {
    if (signedSize < first + width) return null;
    const rows = await repository.entriesFrom(first + 1, width);
    if (rows.length < width) return null;
    return Buffer.concat(
      rows.flatMap((row) => {
        const data = leafDataOf(row);
        const length = Buffer.alloc(2);
        length.writeUInt16BE(data.length);
        return [length, data];
      }),
    );
  }
  const merkleLevel = level * TILE_HEIGHT;
  if (signedSize < (first + width) * 2 ** merkleLevel) return null;
  const hashes = await repository.levelRange(merkleLevel, first, width);
  return hashes.length === width ? Buffer.concat(hashes) : null;
}
