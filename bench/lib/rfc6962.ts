/**
 * The acceptance checker's own RFC 6962 / RFC 9162 Merkle tree, C2SP signed notes and tlog-tiles,
 * written from the specifications on node:crypto alone, apart from the server's code (nothing from
 * src/): what the transparency group (bench/acceptance/transparency-checks.ts) holds the site to.
 */
import { createHash, createPublicKey, verify } from 'node:crypto';

export const sha256 = (...parts: Uint8Array[]): Buffer => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
};

/** RFC 6962 section 2.1: a leaf is hashed after 0x00, an inner node after 0x01. */
export const leafHash = (leaf: Uint8Array): Buffer => sha256(Buffer.of(0), leaf);
export const nodeHash = (left: Uint8Array, right: Uint8Array): Buffer => sha256(Buffer.of(1), left, right);

/** The leaf bytes of a log entry, as the site documents them (docs/api.md, the transparency log). */
export interface LeafEntry {
  seq: number;
  GID: number;
  Date: string;
  Result: string;
  Previous: string | null;
  DeclaredAt: string;
}

export const leafBytes = (e: LeafEntry): Buffer =>
  Buffer.from(JSON.stringify([e.seq, e.GID, e.Date, e.Result, e.Previous, e.DeclaredAt]), 'utf8');

/** The largest power of two smaller than n (n > 1). */
function splitOf(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** MTH(D[n]) of RFC 6962 section 2.1, by its recursion, from the leaves' hashes. */
export function treeRoot(leafHashes: readonly Buffer[]): Buffer {
  if (leafHashes.length === 0) return sha256();
  if (leafHashes.length === 1) return leafHashes[0] as Buffer;
  const k = splitOf(leafHashes.length);
  return nodeHash(treeRoot(leafHashes.slice(0, k)), treeRoot(leafHashes.slice(k)));
}

/** Right-shifts fn and sn together until fn's low bit is set or fn is 0. */
function shiftWhileEven(fn: number, sn: number): [number, number] {
  while (fn % 2 === 0 && fn !== 0) [fn, sn] = [fn / 2, Math.floor(sn / 2)];
  return [fn, sn];
}

/** RFC 9162 section 2.1.3.2: whether `proof` leads from leaf `index` of a tree of `size` to `root`. */
export function verifyInclusion(
  index: number,
  size: number,
  leaf: Buffer,
  proof: readonly Buffer[],
  root: Buffer,
): boolean {
  if (index < 0 || index >= size) return false;
  let [fn, sn] = [index, size - 1];
  let r = leaf;
  for (const p of proof) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      if (fn % 2 === 0) [fn, sn] = shiftWhileEven(fn, sn);
    } else r = nodeHash(r, p);
    [fn, sn] = [Math.floor(fn / 2), Math.floor(sn / 2)];
  }
  return sn === 0 && r.equals(root);
}

/** RFC 9162 section 2.1.4.2: whether `proof` shows the tree of `second` leaves extends that of `first`. */
export function verifyConsistency(
  first: number,
  second: number,
  proof: readonly Buffer[],
  firstRoot: Buffer,
  secondRoot: Buffer,
): boolean {
  if (first < 1 || first > second) return false;
  if (first === second) return proof.length === 0 && firstRoot.equals(secondRoot);
  if (proof.length === 0) return false;
  const path = (first & (first - 1)) === 0 ? [firstRoot, ...proof] : [...proof];
  let [fn, sn] = [first - 1, second - 1];
  while (fn % 2 === 1) [fn, sn] = [Math.floor(fn / 2), Math.floor(sn / 2)];
  let fr = path[0] as Buffer;
  let sr = fr;
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      if (fn % 2 === 0) [fn, sn] = shiftWhileEven(fn, sn);
    } else sr = nodeHash(sr, c);
    [fn, sn] = [Math.floor(fn / 2), Math.floor(sn / 2)];
  }
  return sn === 0 && fr.equals(firstRoot) && sr.equals(secondRoot);
}

/** A C2SP verifier key: `<name>+<key id hex>+<base64 of 0x01 || Ed25519 public key>`. */
export interface VerifierKey {
  name: string;
  keyId: string;
  publicKey: Buffer;
}

/** The key id C2SP signed-note gives an Ed25519 key: SHA-256(name || "\n" || 0x01 || key)[0..4]. */
export const keyIdOf = (name: string, publicKey: Buffer): string =>
  sha256(Buffer.from(`${name}\n`, 'utf8'), Buffer.of(1), publicKey)
    .subarray(0, 4)
    .toString('hex');

/** Parses a verifier key and checks that its id is the one its name and key give. */
export function parseVerifierKey(text: string): VerifierKey {
  const match = /^([^+\s]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/]+={0,2})$/.exec(text.trim());
  if (!match) throw new Error(`not a verifier key: ${JSON.stringify(text)}`);
  const [, name = '', keyId = '', encoded = ''] = match;
  const bytes = Buffer.from(encoded, 'base64');
  if (bytes.length !== 33 || bytes[0] !== 1) throw new Error('the key is not 0x01 and 32 bytes (Ed25519)');
  const publicKey = bytes.subarray(1);
  const expected = keyIdOf(name, publicKey);
  if (expected !== keyId) throw new Error(`its key id is ${keyId}, its name and key give ${expected}`);
  return { name, keyId, publicKey };
}

/** A checkpoint (C2SP tlog-checkpoint), its note's signature checked. */
export interface Checkpoint {
  origin: string;
  size: number;
  root: Buffer;
  note: string;
}

const SIGNATURE_LINE = /^\u2014 (\S+) ([A-Za-z0-9+/]+={0,2})$/;

/**
 * Opens a signed note with the key: the text is everything up to and including the newline before the
 * blank line; a signature line `— <name> <base64 of key id || signature>` by this key must verify.
 * The text must be a checkpoint of exactly three lines (origin, size, base64 root).
 */
export function openCheckpoint(note: string, key: VerifierKey): Checkpoint {
  const split = note.indexOf('\n\n');
  if (split < 0 || !note.endsWith('\n'))
    throw new Error('not a signed note (no blank line, or no final newline)');
  const text = note.slice(0, split + 1);
  const signatures = note.slice(split + 2, -1).split('\n');
  const ours = signatures.map((line) => SIGNATURE_LINE.exec(line)).filter((m) => m?.[1] === key.name);
  if (signatures.some((line) => !SIGNATURE_LINE.test(line)))
    throw new Error(`a malformed signature line in ${JSON.stringify(signatures)}`);
  const signed = ours.some((match) => {
    const bytes = Buffer.from(match?.[2] ?? '', 'base64');
    if (bytes.length !== 68 || bytes.subarray(0, 4).toString('hex') !== key.keyId) return false;
    const publicKey = createPublicKey({
      key: { kty: 'OKP', crv: 'Ed25519', x: key.publicKey.toString('base64url') },
      format: 'jwk',
    });
    return verify(null, Buffer.from(text, 'utf8'), publicKey, bytes.subarray(4));
  });
  if (!signed) throw new Error(`no signature by ${key.name}+${key.keyId} verifies`);
  const lines = text.slice(0, -1).split('\n');
  const [origin = '', sizeText = '', rootText = ''] = lines;
  const root = Buffer.from(rootText, 'base64');
  if (
    lines.length !== 3 ||
    !/^(0|[1-9][0-9]*)$/.test(sizeText) ||
    root.length !== 32 ||
    root.toString('base64') !== rootText
  )
    throw new Error(`not a checkpoint of three lines: ${JSON.stringify(text)}`);
  if (origin !== key.name)
    throw new Error(`the checkpoint's origin ${origin} is not the key's name ${key.name}`);
  return { origin, size: Number(sizeText), root, note };
}

/** tlog-tiles: tile height 8, 256 hashes or entries a full tile. */
export const TILE_WIDTH = 256;

/** A tile index as its path: 3-digit groups, all but the last prefixed with x (1234067 → x001/x234/067). */
export function tileIndexPath(index: number): string {
  const groups: string[] = [];
  for (let rest = index; ; rest = Math.floor(rest / 1000)) {
    groups.unshift(String(rest % 1000).padStart(3, '0'));
    if (rest < 1000) break;
  }
  return groups.map((group, i) => (i < groups.length - 1 ? `x${group}` : group)).join('/');
}

/** A tile's or bundle's path under the prefix: `tile/{L}/{N}[.p/{W}]`, L a number or `entries`. */
export const tilePath = (level: number | 'entries', index: number, width = TILE_WIDTH): string =>
  `tile/${level}/${tileIndexPath(index)}${width === TILE_WIDTH ? '' : `.p/${width}`}`;

/** A hash tile's 32-byte hashes. */
export function parseHashTile(bytes: Buffer): Buffer[] {
  if (bytes.length % 32 !== 0) throw new Error(`a tile of ${bytes.length} bytes is not whole hashes`);
  return Array.from({ length: bytes.length / 32 }, (_, i) => bytes.subarray(i * 32, (i + 1) * 32));
}

/** An entry bundle's entries: each a big-endian uint16 length and that many bytes. */
export function parseEntryBundle(bytes: Buffer): Buffer[] {
  const entries: Buffer[] = [];
  for (let at = 0; at < bytes.length; ) {
    if (at + 2 > bytes.length) throw new Error(`a length cut short at byte ${at}`);
    const length = bytes.readUInt16BE(at);
    if (at + 2 + length > bytes.length)
      throw new Error(`an entry of ${length} bytes cut short at byte ${at}`);
    entries.push(bytes.subarray(at + 2, at + 2 + length));
    at += 2 + length;
  }
  return entries;
}
