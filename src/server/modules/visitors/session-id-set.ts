import { randomInt } from 'node:crypto';

/** Entries a new or emptied set has room for before it grows: a batch's worth (VISITOR_LIMITS). */
const INITIAL_ENTRIES = 4096;
/** Bytes of ids a new or emptied set has room for: ids the web app makes are about 24 characters. */
const INITIAL_ARENA_BYTES = INITIAL_ENTRIES * 32;
/** An id's length is kept in a byte. */
export const MAX_ID_LENGTH = 255;

/**
 * Writes the id into `bytes` at `at`, one byte a character, and answers its hash: FNV-1a from the
 * seed, its lowest bit set (never 0, the free slot's mark). One pass for both: a second loop over the
 * id is a measurable share of a new visitor's request (bench/README.md).
 */
export function writeAndHash(id: string, bytes: Buffer, at: number, seed: number): number {
  let hash = seed ^ 0x811c9dc5;
  for (let index = 0; index < id.length; index++) {
    const code = id.charCodeAt(index);
    if (code > 0xff) throw new RangeError('a session id is kept one byte a character');
    bytes[at + index] = code;
    hash = Math.imul(hash ^ code, 0x01000193);
  }
  return hash | 1;
}

/**
 * The session ids waiting for the counter's next write (printable ASCII, SESSION_ID_PATTERN), kept
 * as bytes in one buffer, with their hashes in a typed array (open addressing, linear probing).
 *
 * Why not a `Set<string>`: under a flood of new visitors, V8's `Set.prototype.add` showed in the
 * profile of each request. Its lookups read stored strings, scattered over the heap, and each waiting
 * id, held for a batch, outlived two scavenges and was promoted, which later cost major collections.
 * Here a lookup reads a typed array, the header's string dies young, and bytes are compared only on an
 * equal hash: a new visitor's request costs less than with the `Set` (bench/README.md).
 *
 * The hash is seeded at random per set, so that ids cannot be chosen to collide.
 */
export class SessionIdSet {
  /** Per slot: the id's hash (never 0), or 0 when the slot is free. */
  private hashes = new Int32Array(INITIAL_ENTRIES * 2);
  /** Per slot: where the id's bytes start in the arena, and how many there are. */
  private starts = new Int32Array(INITIAL_ENTRIES * 2);
  private lengths = new Uint8Array(INITIAL_ENTRIES * 2);
  /** The slots in the order their ids were added. */
  private order = new Int32Array(INITIAL_ENTRIES);
  private arena = Buffer.allocUnsafe(INITIAL_ARENA_BYTES);
  private used = 0;
  private count = 0;

  /** @param seed the hash's seed: random unless a test needs to know it. */
  constructor(private readonly seed = randomInt(2 ** 31)) {}

  get size(): number {
    return this.count;
  }

  /**
   * Adds an id (the caller has checked it against SESSION_ID_PATTERN; what the set cannot store, over
   * 255 characters or past U+00FF, it refuses); answers false when it was already there.
   */
  add(id: string): boolean {
    const length = id.length;
    if (length > MAX_ID_LENGTH) throw new RangeError('a session id is kept in at most 255 bytes');
    if (this.used + length > this.arena.length) this.growArena(length);
    if ((this.count + 1) * 2 > this.hashes.length) this.resize(this.hashes.length * 2);
    const start = this.used;
    // Written to the arena, kept only if the id is new.
    const hash = writeAndHash(id, this.arena, start, this.seed);
    const { hashes } = this;
    const mask = hashes.length - 1;
    let slot = hash & mask;
    for (let found = hashes[slot]; found !== 0; found = hashes[slot]) {
      if (found === hash && this.sameBytes(slot, start, length)) return false;
      slot = (slot + 1) & mask;
    }
    hashes[slot] = hash;
    this.starts[slot] = start;
    this.lengths[slot] = length;
    this.order[this.count++] = slot;
    this.used = start + length;
    return true;
  }

  /**
   * Takes back the id most recently added. Freeing its slot breaks no probe chain: no id was added
   * after it, so none probed past it.
   */
  removeLast(): void {
    if (this.count === 0) return;
    const slot = this.order[--this.count] ?? 0;
    this.hashes[slot] = 0;
    this.used = this.starts[slot] ?? 0;
  }

  /** Every id, in the order added; the set is left empty (and back to its first size). */
  takeAll(): string[] {
    const ids: string[] = new Array(this.count);
    for (let index = 0; index < this.count; index++) {
      const slot = this.order[index] ?? 0;
      const start = this.starts[slot] ?? 0;
      ids[index] = this.arena.toString('latin1', start, start + (this.lengths[slot] ?? 0));
    }
    this.count = 0;
    this.used = 0;
    if (this.hashes.length > INITIAL_ENTRIES * 2) this.resize(INITIAL_ENTRIES * 2);
    else this.hashes.fill(0);
    if (this.arena.length > INITIAL_ARENA_BYTES) this.arena = Buffer.allocUnsafe(INITIAL_ARENA_BYTES);
    return ids;
  }

  private sameBytes(slot: number, start: number, length: number): boolean {
    if (this.lengths[slot] !== length) return false;
    const { arena } = this;
    const other = this.starts[slot] ?? 0;
    for (let index = 0; index < length; index++) {
      if (arena[other + index] !== arena[start + index]) return false;
    }
    return true;
  }

  private growArena(needed: number): void {
    const arena = Buffer.allocUnsafe(Math.max(this.arena.length * 2, this.used + needed));
    this.arena.copy(arena, 0, 0, this.used);
    this.arena = arena;
  }

  /** New slot arrays of the given size (a power of two), with the ids there are placed again. */
  private resize(slots: number): void {
    const { hashes, starts, lengths, order } = this;
    this.hashes = new Int32Array(slots);
    this.starts = new Int32Array(slots);
    this.lengths = new Uint8Array(slots);
    this.order = new Int32Array(slots / 2);
    const mask = slots - 1;
    for (let index = 0; index < this.count; index++) {
      const from = order[index] ?? 0;
      const hash = hashes[from] ?? 0;
      let slot = hash & mask;
      while (this.hashes[slot] !== 0) slot = (slot + 1) & mask;
      this.hashes[slot] = hash;
      this.starts[slot] = starts[from] ?? 0;
      this.lengths[slot] = lengths[from] ?? 0;
      this.order[index] = slot;
    }
  }
}
