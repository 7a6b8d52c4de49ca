import { describe, expect, it } from 'vitest';
import { ByteBudget, MemoStore } from './memo-store.js';

describe('memo store', () => {
  it('builds once for concurrent readers, then answers without a promise', async () => {
    const store = new MemoStore<number>(10);
    let builds = 0;
    const build = async () => {
      builds += 1;
      return 42;
    };
    const [a, b] = [store.get('k', build), store.get('k', build)];
    expect(a).toBeInstanceOf(Promise);
    expect(await a).toBe(42);
    expect(await b).toBe(42);
    expect(store.get('k', build)).toBe(42);
    expect(builds).toBe(1);
  });

  it('does not keep a build that was running when the store was cleared, nor a failed one', async () => {
    const store = new MemoStore<string>(10);
    let release: (value: string) => void = () => {};
    const stale = store.get('k', () => new Promise<string>((resolve) => (release = resolve)));
    store.clear();
    release('old');
    expect(await stale).toBe('old');
    expect(await store.get('k', async () => 'new')).toBe('new');

    await expect(store.get('bad', async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await store.get('bad', async () => 'recovered')).toBe('recovered');
  });

  it('forgets the oldest entry past its size', async () => {
    const store = new MemoStore<number>(2);
    await store.get('a', async () => 1);
    await store.get('b', async () => 2);
    await store.get('c', async () => 3);
    expect(store.size).toBe(2);
    expect(await store.get('a', async () => 10)).toBe(10);
  });
});

describe('memo store with a byte budget', () => {
  it('drops the oldest values once the stores sharing a budget hold more bytes than it allows', async () => {
    const budget = new ByteBudget(10);
    const weighing = { budget, weigh: (value: string) => value.length };
    const first = new MemoStore<string>(100, { weighing, keepStale: true });
    const second = new MemoStore<string>(100, { weighing, keepStale: true });
    await first.get('a', async () => 'aaaa');
    await first.get('b', async () => 'bbbb');
    expect(budget.used).toBe(8);
    await second.get('c', async () => 'cccc');
    // The second store is over the shared budget; it makes room from its own values, keeping the new one.
    expect(budget.used).toBe(12);
    await first.get('d', async () => 'dddd');
    expect(first.peek('a')).toBeUndefined();
    expect(first.peek('b')).toBeUndefined();
    expect(first.peek('d')).toBe('dddd');
    expect(budget.used).toBe(8);
    // Cleared values stay, stale, and keep their bytes counted until a fresh value replaces them.
    first.clear();
    expect(first.peek('d')).toBeUndefined();
    expect(first.staleValue('d')).toBe('dddd');
    expect(budget.used).toBe(8);
    expect(await first.get('d', async () => 'dd')).toBe('dd');
    expect(first.staleValue('d')).toBeUndefined();
    expect(budget.used).toBe(6);
    expect(second.peek('c')).toBe('cccc');
  });

  it('gives back the bytes of a value dropped for the entry count, and never counts one not kept', async () => {
    const budget = new ByteBudget(1000);
    const store = new MemoStore<string>(2, { weighing: { budget, weigh: (value: string) => value.length } });
    await store.get('a', async () => 'aa');
    await store.get('b', async () => 'bbb');
    await store.get('c', async () => 'c');
    expect(budget.used).toBe(4);
    await store.get(
      'd',
      async () => 'dddddd',
      () => false,
    );
    expect(budget.used).toBe(1);
  });

  it('keeps nothing stale unless asked, and gives the bytes of a clear back', async () => {
    const budget = new ByteBudget(1000);
    const store = new MemoStore<string>(10, { weighing: { budget, weigh: (value: string) => value.length } });
    await store.get('a', async () => 'aaa');
    store.clear();
    expect(store.staleValue('a')).toBeUndefined();
    expect(budget.used).toBe(0);
  });
});
