/**
 * The declaration log's Merkle tree (RFC 6962 section 2.1, RFC 9162 section 2.1), checked from
 * outside: leaf and node hashes, a tree's root, and inclusion and consistency proofs. Dependency-free
 * and async over Web Crypto, so `npm run verify` (Node) and the receipt page (a browser) run the same
 * code. Sizes and indexes are numbers below 2^53, so the bit steps are arithmetic, not 32-bit `>>`.
 */

/** Web Crypto's SubtleCrypto, as both Node's and the browser's globals type it. */
export type Subtle = typeof globalThis.crypto.subtle;
/**
 * What the tree needs of it: SHA-256. Web Crypto's own by default; a caller hashing a whole log
 * injects a faster one (Node's `createHash`: Web Crypto's hop to a thread per digest is ~100 µs).
 */
export interface Digester {
  digest(algorithm: 'SHA-256', data: Uint8Array<ArrayBuffer>): Promise<ArrayBuffer>;
}
export type Hash = Uint8Array<ArrayBuffer>;

const defaultSubtle = (): Digester => globalThis.crypto.subtle;

/** The fields of an entry its leaf hashes, in this order (the chain's fields without its hashes). */
export interface LeafFields {
  seq: number;
  GID: number;
  Date: string;
  Result: string;
  Previous: string | null;
  DeclaredAt: string;
}

export async function sha256(
  data: Uint8Array<ArrayBuffer>,
  subtle: Digester = defaultSubtle(),
): Promise<Hash> {
  return new Uint8Array(await subtle.digest('SHA-256', data));
}

function prefixed(prefix: number, ...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(1 + parts.reduce((sum, part) => sum + part.length, 0));
  bytes[0] = prefix;
  let at = 1;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return bytes;
}

/** The bytes a leaf hashes (after its 0x00): what a tile's entry bundle holds for the entry. */
export function leafBytes(entry: LeafFields): Uint8Array<ArrayBuffer> {
  const fields = [entry.seq, entry.GID, entry.Date, entry.Result, entry.Previous, entry.DeclaredAt];
  return new TextEncoder().encode(JSON.stringify(fields));
}

export const leafHash = (entry: LeafFields, subtle: Digester = defaultSubtle()): Promise<Hash> =>
  sha256(prefixed(0x00, leafBytes(entry)), subtle);

export const rawLeafHash = (bytes: Uint8Array, subtle: Digester = defaultSubtle()): Promise<Hash> =>
  sha256(prefixed(0x00, bytes), subtle);

export const nodeHash = (left: Hash, right: Hash, subtle: Digester = defaultSubtle()): Promise<Hash> =>
  sha256(prefixed(0x01, left, right), subtle);

/** The largest power of two smaller than n (n ≥ 2): where RFC 6962 splits a tree of n leaves. */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** The root of a tree over these leaf hashes; SHA-256 of nothing for no leaves. */
export async function rootOf(leaves: readonly Hash[], subtle: Digester = defaultSubtle()): Promise<Hash> {
  if (leaves.length === 0) return sha256(new Uint8Array(0), subtle);
  // Bottom-up, carrying an odd last node up unpaired: the same tree as the recursive definition.
  let level: Hash[] = [...leaves];
  while (level.length > 1) {
    const next: Hash[] = [];
    for (let i = 0; i + 1 < level.length; i += 2)
      next.push(await nodeHash(level[i] as Hash, level[i + 1] as Hash, subtle));
    if (level.length % 2 === 1) next.push(level[level.length - 1] as Hash);
    level = next;
  }
  return level[0] as Hash;
}

export function equalHashes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] as number) ^ (b[i] as number);
  return diff === 0;
}

const odd = (n: number) => n % 2 === 1;
const half = (n: number) => Math.floor(n / 2);
function isPowerOfTwo(n: number): boolean {
  while (n > 1 && !odd(n)) n = half(n);
  return n === 1;
}

/**
 * RFC 9162 section 2.1.3.2: whether `proof` shows the leaf at `index` (an entry's seq − 1) in the
 * tree of `size` leaves whose root is `root`.
 */
export async function verifyInclusion(
  index: number,
  size: number,
  leaf: Hash,
  proof: readonly Hash[],
  root: Hash,
  subtle: Digester = defaultSubtle(),
): Promise<boolean> {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(size) || index < 0 || index >= size) return false;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of proof) {
    if (sn === 0 || p.length !== 32) return false;
    if (odd(fn) || fn === sn) {
      r = await nodeHash(p, r, subtle);
      while (!odd(fn) && fn !== 0) {
        fn = half(fn);
        sn = half(sn);
      }
    } else {
      r = await nodeHash(r, p, subtle);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 && equalHashes(r, root);
}

/**
 * RFC 9162 section 2.1.4.2: whether `proof` shows that the tree of `second` leaves (root
 * `secondRoot`) extends the tree of `first` leaves (root `firstRoot`) without changing it. Equal
 * sizes need an empty proof and equal roots; an empty first tree is consistent with any tree.
 */
export async function verifyConsistency(
  first: number,
  second: number,
  proof: readonly Hash[],
  firstRoot: Hash,
  secondRoot: Hash,
  subtle: Digester = defaultSubtle(),
): Promise<boolean> {
  if (!Number.isSafeInteger(first) || !Number.isSafeInteger(second) || first < 0 || first > second)
    return false;
  if (proof.some((hash) => hash.length !== 32)) return false;
  if (first === second) return proof.length === 0 && equalHashes(firstRoot, secondRoot);
  if (first === 0)
    return proof.length === 0 && equalHashes(firstRoot, await sha256(new Uint8Array(0), subtle));
  if (proof.length === 0) return false;
  const path = isPowerOfTwo(first) ? [firstRoot, ...proof] : [...proof];
  let fn = first - 1;
  let sn = second - 1;
  while (odd(fn)) {
    fn = half(fn);
    sn = half(sn);
  }
  let fr = path[0] as Hash;
  let sr = path[0] as Hash;
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (odd(fn) || fn === sn) {
      fr = await nodeHash(c, fr, subtle);
      sr = await nodeHash(c, sr, subtle);
      while (!odd(fn) && fn !== 0) {
        fn = half(fn);
        sn = half(sn);
      }
    } else {
      sr = await nodeHash(sr, c, subtle);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 && equalHashes(fr, firstRoot) && equalHashes(sr, secondRoot);
}

export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text))
    throw new Error('not standard base64');
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

export const toHex = (bytes: Uint8Array): string =>
  Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
