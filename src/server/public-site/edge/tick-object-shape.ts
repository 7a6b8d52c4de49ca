import { createHook } from 'node:async_hooks';

let kept: object | undefined;

/**
 * Keeps one of Node's `process.nextTick` objects alive for the life of the process, so that V8 keeps
 * their hidden classes (maps). Returns it (the test compares maps with it).
 *
 * Why: Node builds an object literal with symbol keys for every `process.nextTick`, and its HTTP and
 * stream code calls nextTick several times per request. V8's cache for such a literal knows one map,
 * and once it sees a second one it gives up for good: every later tick object is then built by a
 * call into V8's runtime. A second map appears when a full garbage collection runs while no tick
 * object is alive, which a process that idles after start-up (the app's answers built, no requests
 * yet) reliably does: V8 collects maps no live object uses, and the next tick object gets new ones.
 * Profiled under load, a cached answer then spent a large share of its CPU in that runtime call (the
 * figures are in bench/README.md). With one tick object kept, the maps survive every collection and the cache stays on its fast path.
 */
export function keepTickObjectShape(): object | undefined {
  if (kept) return kept;
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === 'TickObject') kept ??= resource;
    },
  });
  hook.enable();
  process.nextTick(() => {});
  hook.disable();
  return kept;
}
