import { describe, expect, it } from 'vitest';
import { MAX_ID_LENGTH, SessionIdSet, writeAndHash } from './session-id-set.js';

/** A small deterministic generator (mulberry32), so that a failure can be replayed. */
function randomFrom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** Ids shaped as the web app makes them: the time in milliseconds, a dash, a random number. */
function webAppId(index: number): string {
  return `${1_795_000_000_000 + Math.floor(index / 64)}-${(index * 7919) % 1_000_000_007}`;
}

describe('SessionIdSet', () => {
  it('tells a new id from one it holds, and gives them back in the order added', () => {
    const set = new SessionIdSet();
    expect(set.add('b-1')).toBe(true);
    expect(set.add('a-2')).toBe(true);
    expect(set.add('b-1')).toBe(false);
    expect(set.add('b-10')).toBe(true);
    expect(set.size).toBe(3);
    expect(set.takeAll()).toEqual(['b-1', 'a-2', 'b-10']);
    expect(set.size).toBe(0);
    expect(set.add('b-1')).toBe(true);
  });

  it('takes back the last id added, leaving every other one findable', () => {
    const set = new SessionIdSet();
    for (let index = 0; index < 3000; index++) set.add(webAppId(index));
    expect(set.add('taken-back')).toBe(true);
    set.removeLast();
    expect(set.size).toBe(3000);
    for (let index = 0; index < 3000; index++) expect(set.add(webAppId(index))).toBe(false);
    expect(set.add('taken-back')).toBe(true);
    const ids = set.takeAll();
    expect(ids).toHaveLength(3001);
    expect(ids.at(-1)).toBe('taken-back');
  });

  it('grows past its first size (a backlog while a write fails) and shrinks back once emptied', () => {
    const set = new SessionIdSet();
    const count = 50_000;
    const expected = Array.from({ length: count }, (_, index) => webAppId(index));
    expect(expected.filter((id) => !set.add(id))).toEqual([]);
    expect(expected.filter((id) => set.add(id))).toEqual([]);
    expect(set.takeAll()).toEqual(expected);
    expect(set.add(expected[0] ?? '')).toBe(true);
    expect(set.takeAll()).toEqual([expected[0]]);
  });

  it('holds ids of every allowed length and character', () => {
    const set = new SessionIdSet();
    const printable = Array.from({ length: 0x7e - 0x21 + 1 }, (_, index) =>
      String.fromCharCode(0x21 + index),
    );
    const ids = [
      '!',
      '~',
      printable.join(''),
      'x'.repeat(MAX_ID_LENGTH),
      `${'x'.repeat(MAX_ID_LENGTH - 1)}y`,
      ...Array.from({ length: 2000 }, (_, index) => `${index}`.padEnd(MAX_ID_LENGTH, '~')),
    ];
    for (const id of ids) expect(set.add(id)).toBe(true);
    for (const id of ids) expect(set.add(id)).toBe(false);
    expect(set.takeAll()).toEqual(ids);
  });

  it('tells apart different ids whose hashes are equal', () => {
    const scratch = Buffer.alloc(MAX_ID_LENGTH);
    const seen = new Map<number, string>();
    let pair: [string, string] | undefined;
    for (let index = 0; !pair; index++) {
      const id = `c-${index}`;
      const hash = writeAndHash(id, scratch, 0, 7);
      const other = seen.get(hash);
      if (other === undefined) seen.set(hash, id);
      else pair = [other, id];
    }
    const set = new SessionIdSet(7);
    const [first, second] = pair;
    expect(set.add(first)).toBe(true);
    expect(set.add(second)).toBe(true);
    expect(set.add(first)).toBe(false);
    expect(set.add(second)).toBe(false);
    set.removeLast();
    expect(set.add(first)).toBe(false);
    expect(set.add(second)).toBe(true);
    expect(set.takeAll()).toEqual([first, second]);
  });

  it('refuses ids it cannot keep a byte a character, and stays as it was', () => {
    const set = new SessionIdSet();
    set.add('kept');
    for (const id of ['x'.repeat(MAX_ID_LENGTH + 1), 'गली', `ok${String.fromCharCode(0x100)}`]) {
      expect(() => set.add(id), JSON.stringify(id)).toThrow(RangeError);
    }
    expect(set.size).toBe(1);
    expect(set.add('a')).toBe(true);
    expect(set.takeAll()).toEqual(['kept', 'a']);
  });

  it('answers as a Set<string> does under random adds, take-backs and emptyings', () => {
    const random = randomFrom(20261126);
    const set = new SessionIdSet(20261126);
    let model: string[] = [];
    let modelSet = new Set<string>();
    const mismatches: string[] = [];
    for (let step = 0; step < 200_000 && mismatches.length === 0; step++) {
      const roll = random();
      if (roll < 0.0005) {
        expect(set.takeAll()).toEqual(model);
        model = [];
        modelSet = new Set();
        continue;
      }
      // A small id space, so that ids come back often; lengths vary so that equal hashes are tried
      // against ids of other lengths too.
      const id = `${Math.floor(random() * 20_000).toString(36)}${'-'.repeat(Math.floor(random() * 3))}`;
      const added = set.add(id);
      if (added === modelSet.has(id)) mismatches.push(`step ${step}: add(${id}) answered ${added}`);
      if (added) {
        model.push(id);
        modelSet.add(id);
        if (random() < 0.2) {
          set.removeLast();
          model.pop();
          modelSet.delete(id);
        }
      }
      if (set.size !== model.length) mismatches.push(`step ${step}: size ${set.size}, not ${model.length}`);
    }
    expect(mismatches).toEqual([]);
    expect(set.takeAll()).toEqual(model);
  });
});
