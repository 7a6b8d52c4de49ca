import { createHook } from 'node:async_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { keepTickObjectShape } from './tick-object-shape.js';

// V8's own test helpers: whether two objects share a hidden class, and a full collection.
v8.setFlagsFromString('--allow-natives-syntax');
v8.setFlagsFromString('--expose-gc');
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (
  a: unknown,
  b: unknown,
) => boolean;
const collectGarbage = vm.runInNewContext('gc') as () => void;

/** The object Node builds for one process.nextTick, as async hooks see it. */
function newTickObject(): object {
  let tick: object | undefined;
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === 'TickObject') tick = resource;
    },
  }).enable();
  process.nextTick(() => {});
  hook.disable();
  if (!tick) throw new Error('no tick object seen');
  return tick;
}

describe('keepTickObjectShape', () => {
  it('keeps its tick object alive through full collections, and later tick objects share its map', async () => {
    // Only a weak reference here: whatever keeps the object alive is the module.
    const kept = new WeakRef(keepTickObjectShape() ?? {});
    // A weak reference's target lives at least until the current job ends.
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    collectGarbage();
    const held = kept.deref();
    expect(held).toBeDefined();
    expect(haveSameMap(held, newTickObject())).toBe(true);
  });

  it('keeps one object however often it is called', () => {
    expect(keepTickObjectShape()).toBe(keepTickObjectShape());
  });
});
