/**
 * The transparency group's tree checks (transparency-checks.ts): every checkpoint seen is signed by
 * the published key and commits to the root the checker computes from /api/declarations; the tiles
 * and entry bundles hold the checker's own leaf hashes and leaf bytes, full ones cached for a year.
 */
import {
  parseEntryBundle,
  parseHashTile,
  parseVerifierKey,
  sha256,
  TILE_WIDTH,
  tilePath,
  treeRoot,
} from '../lib/rfc6962.js';
import { check } from './check.js';
import type { Scenario } from './transparency-checks.js';
import type { CheckResult } from './types.js';

/** A C2SP checkpoint exactly: origin, size, base64 root, a blank line, one signature line. */
const CHECKPOINT_SHAPE = /^[^\n]+\n(0|[1-9]\d*)\n[A-Za-z0-9+/]{43}=\n\n\u2014 [^\n ]+ [A-Za-z0-9+/]{91}=\n$/;

function rootsCheck(s: Scenario): Promise<CheckResult> {
  return check(
    'every checkpoint seen is signed by the published key and commits to the root recomputed from /api/declarations',
    async () => {
      const problems: string[] = [];
      let keyId = '?';
      try {
        const key = parseVerifierKey(s.keyText);
        keyId = key.keyId;
      } catch (error) {
        problems.push(`the key ${JSON.stringify(s.keyText)}: ${(error as Error).message}`);
      }
      const sizes = [...s.notes.keys()].sort((a, b) => a - b);
      for (const size of sizes) {
        const note = s.notes.get(size) as string;
        const checkpoint = s.signed.get(size);
        if (!CHECKPOINT_SHAPE.test(note)) problems.push(`size ${size}: not three lines and one signature`);
        const keyOfNote = Buffer.from(note.trimEnd().split(' ').at(-1) ?? '', 'base64')
          .subarray(0, 4)
          .toString('hex');
        if (keyOfNote !== keyId) problems.push(`size ${size}: signed by key id ${keyOfNote}, not ${keyId}`);
        if (!checkpoint) {
          problems.push(`size ${size}: the signature does not verify with the published key`);
          continue;
        }
        if (size > s.leaves.length) {
          problems.push(`size ${size}: more than the ${s.leaves.length} entries served`);
          continue;
        }
        const root = treeRoot(s.leaves.slice(0, size));
        if (!root.equals(checkpoint.root))
          problems.push(
            `size ${size}: signed ${checkpoint.root.toString('base64')}, entries give ${root.toString('base64')}`,
          );
      }
      const latest = sizes.at(-1) ?? -1;
      if (latest !== s.entries.length)
        problems.push(`the latest checkpoint has size ${latest}, the log serves ${s.entries.length} entries`);
      if (!s.signed.get(0)?.root.equals(sha256()))
        problems.push('no checkpoint of size 0 signing SHA-256 of nothing was seen before the first entry');
      const corrections = s.entries.filter((entry) => entry.Previous !== null).length;
      for (const conflict of s.twoOfASize) problems.push(`two checkpoints of one size:\n${conflict}`);
      if (s.late.length > 0)
        problems.push(`no checkpoint within a second of declarations ${s.late.join(', ')}`);
      return {
        ok: problems.length === 0 && sizes.length >= 20 && corrections >= 5,
        detail: `${s.entries.length} entries (${corrections} corrections) read from /api/declarations; ${sizes.length} checkpoints seen, sizes ${sizes.slice(0, 4).join(', ')} … ${sizes.slice(-3).join(', ')}, ${s.signed.size} signed by ${s.keyText.split('+').slice(0, 2).join('+')}; ${problems.length === 0 ? 'every root equals the recomputed tree' : problems.slice(0, 5).join('; ')}`,
      };
    },
  );
}

function tilesCheck(s: Scenario): Promise<CheckResult> {
  return check(
    'the level-0 and level-1 tiles and the entry bundles hold the same leaf hashes and leaf bytes; full ones are cached for a year, immutable',
    async () => {
      const size = s.entries.length;
      const problems: string[] = [];
      const fetched: string[] = [];
      const caching = new Map<string, string>();
      const read = async (address: string) => {
        const answer = await s.site.get(`/api/log/${address}`);
        fetched.push(address);
        caching.set(address, String(answer.headers['cache-control']));
        if (
          answer.status !== 200 ||
          !String(answer.headers['content-type']).startsWith('application/octet-stream')
        )
          throw new Error(`${address} answered ${answer.status} ${answer.headers['content-type']}`);
        return answer.body;
      };
      const full = Math.floor(size / TILE_WIDTH);
      for (let index = 0; index * TILE_WIDTH < size; index++) {
        const width = Math.min(TILE_WIDTH, size - index * TILE_WIDTH);
        const first = index * TILE_WIDTH;
        const hashes = parseHashTile(await read(tilePath(0, index, width)));
        const mine = s.leaves.slice(first, first + width);
        if (hashes.length !== width || hashes.some((hash, i) => !hash.equals(mine[i] as Buffer)))
          problems.push(
            `tile 0/${index} (${hashes.length} hashes) is not the leaf hashes ${first + 1}…${first + width}`,
          );
        const bundle = parseEntryBundle(await read(tilePath('entries', index, width)));
        const data = s.leafData.slice(first, first + width);
        const differs = bundle.findIndex((bytes, i) => !bytes.equals(data[i] as Buffer));
        if (bundle.length !== width || differs >= 0)
          problems.push(
            `bundle ${index} (${bundle.length} entries): entry ${first + differs + 1} is ${bundle[differs]?.toString('utf8')}, the checker's is ${data[differs]?.toString('utf8')}`,
          );
      }
      if (full > 0) {
        const subtrees = parseHashTile(await read(tilePath(1, 0, full)));
        const mine = Array.from({ length: full }, (_, i) =>
          treeRoot(s.leaves.slice(i * TILE_WIDTH, (i + 1) * TILE_WIDTH)),
        );
        if (subtrees.length !== full || subtrees.some((hash, i) => !hash.equals(mine[i] as Buffer)))
          problems.push(`tile 1/0.p/${full} is not the roots of the 256-leaf subtrees`);
      }
      const fullOnes = fetched.filter((address) => !address.includes('.p/'));
      for (const address of fullOnes) {
        const header = caching.get(address) ?? '';
        if (!/max-age=31536000\b/.test(header) || !/\bimmutable\b/.test(header))
          problems.push(`${address}: Cache-Control "${header}"`);
      }
      const beyond = await s.site.get(`/api/log/${tilePath(0, full + 1)}`);
      const respelled = await s.site.get('/api/log/tile/0/0');
      if (beyond.status !== 404 || respelled.status !== 404)
        problems.push(
          `a tile beyond the tree answered ${beyond.status}, tile/0/0 ${respelled.status} (not 404)`,
        );
      const partial = fetched.find((address) => address.includes('.p/'));
      return {
        ok: problems.length === 0 && full >= 1,
        detail: `size ${size}: read ${fetched.join(', ')}; full ones: "${caching.get(fullOnes[0] ?? '')}", partial (${partial}): "${caching.get(partial ?? '')}"; ${problems.length === 0 ? 'every hash and leaf the checker’s own' : problems.slice(0, 4).join('; ')}`,
      };
    },
  );
}

export async function treeChecks(s: Scenario): Promise<CheckResult[]> {
  return [await rootsCheck(s), await tilesCheck(s)];
}
