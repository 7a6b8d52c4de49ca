import { describe, expect, it } from 'vitest';
import { MemoStore } from './memo-store.js';

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

  it('does not keep a build whose key was dropped while it ran', async () => {
    const store = new MemoStore<string>(10);
    let release: (value: string) => void = () => {};
    const stale = store.get('k', () => new Promise<string>((resolve) => (release = resolve)));
    await store.get('other', async () => 'kept');
    store.delete('k');
    release('old');
    expect(await stale).toBe('old');
    expect(store.peek('k')).toBeUndefined();
    expect(store.peek('other')).toBe('kept');
  });
});
