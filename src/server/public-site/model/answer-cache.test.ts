import { afterEach, describe, expect, it } from 'vitest';
import { AnswerCache, type LookupOutcome, STALE_SERVE_MS } from './answer-cache.js';
import { prepareAnswer } from './cached-answer.js';
import type { Built, Served } from './kept-entry.js';

/** A build the test ends when it wants: what a slow rebuild looks like from outside. */
function deferred<T>() {
  let resolve: (value: T) => void = () => {};
  let reject: (error: unknown) => void = () => {};
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

async function answer(body: string, keys: string[], size = 0): Promise<Built> {
  // Incompressible bytes of a chosen size, so that the budget counts what the test says.
  const padding =
    size > 0
      ? Array.from({ length: size }, (_, i) => String.fromCharCode(33 + ((i * 7919) % 90))).join('')
      : '';
  return {
    answer: await prepareAnswer(200, 'text/plain', `${body}${padding}`, { caching: { keys, open: true } }),
    keep: true,
  };
}

const text = (built: { answer: { bodies: { identity?: Buffer } } }) =>
  built.answer.bodies.identity?.toString();

describe('the answer cache', () => {
  let now = 0;
  const lookups: Array<[string, LookupOutcome]> = [];
  const background: Array<() => Promise<unknown>> = [];
  let cache: AnswerCache;
  const make = (maxBytes = 1 << 30, runBackground = true) => {
    cache = new AnswerCache(
      {
        background: (build) => {
          if (runBackground) return build();
          const held = deferred<Built>();
          background.push(() => build().then(held.resolve, held.reject));
          return held.promise;
        },
      },
      { maxBytes, now: () => now, onLookup: (route, outcome) => lookups.push([route, outcome]) },
    );
    return cache;
  };
  afterEach(() => {
    cache?.close();
    lookups.length = 0;
    background.length = 0;
    now = 0;
  });

  it('builds once for readers who come together, then answers without a promise', async () => {
    make();
    let builds = 0;
    const build = async () => {
      builds += 1;
      return answer('a', ['ghadi-1']);
    };
    const [first, second] = [cache.serve('/r', 'k', build), cache.serve('/r', 'k', build)];
    expect(first).toBeInstanceOf(Promise);
    expect(text(await first)).toBe('a');
    expect(text(await second)).toBe('a');
    const third = cache.serve('/r', 'k', build);
    expect(third).not.toBeInstanceOf(Promise);
    expect(builds).toBe(1);
    expect(lookups.map(([, outcome]) => outcome)).toEqual(['miss', 'miss', 'hit']);
  });

  it('drops only the answers that show a key a change names', async () => {
    make();
    await cache.serve('/r', 'g1-2025', () => answer('a', ['year-1-2025']));
    await cache.serve('/r', 'g1-2024', () => answer('b', ['year-1-2024']));
    await cache.serve('/r', 'g2-2025', () => answer('c', ['year-2-2025']));
    cache.drop(['year-1-2025']);
    // Built for a reader, so read since built: rebuilt at once, the old answer served meanwhile.
    expect(cache.ready('/r', 'g1-2025')?.stale).toBe(true);
    expect(cache.ready('/r', 'g1-2024')?.stale).toBe(false);
    expect(cache.ready('/r', 'g2-2025')?.stale).toBe(false);
    // Every answer goes with the whole site (those read since built are rebuilt at once).
    cache.drop(['site']);
    expect(cache.ready('/r', 'g1-2024')?.stale).not.toBe(false);
    expect(cache.ready('/r', 'g2-2025')?.stale).not.toBe(false);
  });

  it('rebuilds at once what readers read, and serves the old answer meanwhile, for at most a second', async () => {
    make(1 << 30, false);
    let version = 1;
    const build = async () => answer(`v${version}`, ['home']);
    await cache.serve('/r', 'home', build);
    expect(text(cache.ready('/r', 'home') as Served)).toBe('v1');
    version = 2;
    cache.drop(['home']);
    // Read since it was built: its rebuild is queued at once, and readers get the old answer.
    expect(background).toHaveLength(1);
    const stale = cache.ready('/r', 'home');
    expect(stale?.stale).toBe(true);
    expect(text(stale as Served)).toBe('v1');
    // Not longer than the stale window, though: a reader then waits for the rebuild.
    now += STALE_SERVE_MS + 1;
    expect(cache.ready('/r', 'home')).toBeUndefined();
    const waiting = cache.serve('/r', 'home', build);
    expect(waiting).toBeInstanceOf(Promise);
    const rebuilt = cache.rebuilt();
    await (background.shift() as () => Promise<unknown>)();
    expect(text(await waiting)).toBe('v2');
    await rebuilt;
    expect(cache.ready('/r', 'home')?.stale).toBe(false);
  });

  it('rebuilds an answer a change drops once after its last read, then leaves it for its next reader', async () => {
    make(1 << 30, false);
    let builds = 0;
    const build = async () => {
      builds += 1;
      return answer(`v${builds}`, ['log']);
    };
    await cache.serve('/r', 'page-20', build);
    // Its builder read it (a shared cache in front reads an answer only then): rebuilt at once.
    cache.drop(['log']);
    expect(background).toHaveLength(1);
    await background[0]?.();
    await cache.rebuilt();
    expect(builds).toBe(2);
    // Nobody read the rebuilt one: the next change leaves it for its next reader, who waits for it.
    cache.drop(['log']);
    expect(background).toHaveLength(1);
    expect(cache.ready('/r', 'page-20')).toBeUndefined();
    expect(text(await cache.serve('/r', 'page-20', build))).toBe('v3');
  });

  it('does not keep as fresh a build a change overtook, and builds it again', async () => {
    make();
    const slow = deferred<Built>();
    let calls = 0;
    const build = () => {
      calls += 1;
      return calls === 1 ? slow.promise : answer('after', ['month-2026-11']);
    };
    const first = cache.serve('/r', 'm', build);
    cache.drop(['month-2026-11']);
    slow.resolve(await answer('before', ['month-2026-11']));
    // Its reader gets what it built, as a stale answer (no shared cache keeps it); it is built again.
    const served = await first;
    expect(text(served)).toBe('before');
    expect(served.stale).toBe(true);
    await cache.rebuilt();
    expect(calls).toBe(2);
    expect(text(cache.ready('/r', 'm') as Served)).toBe('after');
  });

  it('keeps within its budget by letting go of what is read least', async () => {
    make(3000);
    const build = (name: string) => () => answer(name, [name], 1000);
    await cache.serve('/r', 'popular', build('popular'));
    for (let read = 0; read < 5; read++) cache.ready('/r', 'popular');
    await cache.serve('/r', 'once', build('once'));
    await cache.serve('/r', 'new', build('new'));
    expect(cache.bytes).toBeLessThanOrEqual(3000);
    expect(cache.ready('/r', 'popular')?.stale).toBe(false);
    expect(cache.ready('/r', 'new')?.stale).toBe(false);
    expect(cache.ready('/r', 'once')).toBeUndefined();
  });

  it('keeps an answer it should not (a 404 of a made-up name) nowhere', async () => {
    make();
    const notFound = async (): Promise<Built> => ({ ...(await answer('404', ['site'])), keep: false });
    expect(text(await cache.serve('/r', 'nobody', notFound))).toBe('404');
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
  });

  it('gives a rebuild that failed back to its next reader, who builds it', async () => {
    make();
    let fail = false;
    const build = async () => {
      if (fail) throw new Error('the database said no');
      return answer('ok', ['home']);
    };
    await cache.serve('/r', 'home', build);
    cache.ready('/r', 'home');
    fail = true;
    cache.drop(['home']);
    await cache.rebuilt();
    fail = false;
    now += STALE_SERVE_MS + 1;
    expect(text(await cache.serve('/r', 'home', build))).toBe('ok');
  });
});
