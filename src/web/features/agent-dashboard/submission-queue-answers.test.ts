import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MISMATCH_MESSAGE, PENDING_MESSAGE } from '../../../shared/schemas/pending.js';
import {
  type Call,
  entry,
  fakeNetwork,
  json,
  listed,
  offline,
  savedAnswer,
  settle,
  TODAY,
} from './queue-test-kit.js';
import type { ReadPublished } from './submission-network.js';
import { STALE_AFTER_MS, SubmissionQueue, type SubmissionQueueOptions } from './submission-queue.js';
import { FakeClock } from './test-support.js';

/* Two-person confirmation, Expected, Retry-After and stale entries (issue 40); the rest of the
   queue's transitions are submission-queue.test.ts's. */

const held = () => json(202, { success: true, pending: true, message: PENDING_MESSAGE });
const mismatch = () => json(409, { success: false, mismatch: true, message: MISMATCH_MESSAGE });
const CHANGED = 'The result was changed since you entered it';
const changed = () => json(409, { success: false, message: CHANGED });

let dbName: string;
let dbCounter = 0;
let queues: SubmissionQueue[];
let clock: FakeClock;
let network: ReturnType<typeof fakeNetwork>;
let keyCounter: number;
let published: Map<string, string | null>;
let readPublished: ReturnType<typeof vi.fn<ReadPublished>>;

beforeEach(() => {
  dbCounter += 1;
  dbName = `queue-answers-test-${dbCounter}`;
  queues = [];
  clock = new FakeClock();
  network = fakeNetwork();
  keyCounter = 0;
  published = new Map();
  readPublished = vi.fn<ReadPublished>(async (ghadiId, date) => published.get(`${ghadiId} ${date}`) ?? null);
});

afterEach(() => {
  for (const queue of queues) queue.stop();
});

async function openQueue(options: Partial<SubmissionQueueOptions> = {}) {
  let wake = () => {};
  const queue = new SubmissionQueue({
    userId: 7,
    post: network.post,
    currentUserId: () => 7,
    clock,
    dbName,
    newKey: () => `key-${++keyCounter}`,
    readPublished,
    wakeUps: (callback) => {
      wake = callback;
      return () => {
        wake = () => {};
      };
    },
    ...options,
  });
  queues.push(queue);
  await queue.start();
  return { queue, wake: () => wake() };
}

/** How many entries the phone keeps, listed or not (the second `submit` has stored its entry). */
async function storedCount(): Promise<number> {
  const db = await openDB(dbName);
  try {
    return (await db.getAll('submissions')).length;
  } finally {
    db.close();
  }
}

/** Sends nothing until `online()`: each attempt meanwhile gets no answer. */
function networkDownThen(answer: Parameters<typeof network.answer>[0]) {
  let up = false;
  network.answer((call) => (up ? answer(call) : offline()));
  return () => {
    up = true;
  };
}

describe('SubmissionQueue, a ghadi that needs two confirmations', () => {
  it('takes a 202 as delivered and held: reported pending, kept by no list, never sent again', async () => {
    network.answer(held);
    const onAnswered = vi.fn();
    const { queue, wake } = await openQueue({ onAnswered });
    const outcome = await queue.submit(entry(3, '45'));

    expect(outcome).toMatchObject({ kind: 'pending', submission: { state: 'pending', result: '45' } });
    expect(outcome.submission.message).toBe(PENDING_MESSAGE);
    expect(queue.getSnapshot().submissions).toEqual([]);
    expect(onAnswered).toHaveBeenCalledWith(expect.objectContaining({ state: 'pending' }));
    wake();
    clock.advance(10 * 60_000);
    await settle(queue);
    expect(network.calls).toHaveLength(1);
  });

  it('keeps a queued entry that a later attempt gets held, as pending, with the time of the answer', async () => {
    const online = networkDownThen(held);
    const { queue, wake } = await openQueue();
    expect((await queue.submit(entry(3, '45'))).kind).toBe('queued');

    online();
    clock.advance(60_000);
    wake();
    await settle(queue);
    expect(listed(queue.getSnapshot())).toEqual([`3 ${TODAY} 45 pending`]);
    expect(queue.getSnapshot().submissions[0]?.answeredAt).toBe(new Date(clock.now()).toISOString());
    const sent = network.calls.length;
    wake();
    clock.advance(10 * 60_000);
    await settle(queue);
    expect(network.calls).toHaveLength(sent);
  });

  it('takes a 409 mismatch as delivered too: reported, and not sent again', async () => {
    const online = networkDownThen(mismatch);
    const { queue, wake } = await openQueue();
    await queue.submit(entry(3, '45'));
    online();
    wake();
    await settle(queue);
    expect(listed(queue.getSnapshot())).toEqual([`3 ${TODAY} 45 mismatch`]);
    expect(queue.getSnapshot().submissions[0]?.message).toBe(MISMATCH_MESSAGE);
    const sent = network.calls.length;
    clock.advance(10 * 60_000);
    wake();
    await settle(queue);
    expect(network.calls).toHaveLength(sent);

    // A new value for the same ghadi and day replaces the held one: the server replaces the agent's own.
    network.answer(held);
    expect((await queue.submit(entry(3, '46'))).kind).toBe('pending');
    expect(queue.getSnapshot().submissions).toEqual([]);
  });
});

describe('SubmissionQueue, Expected', () => {
  it('sends the published value the agent saw, null for none, and nothing for entries kept from before', async () => {
    const { queue } = await openQueue();
    await queue.submit({ ...entry(1, '45'), expected: '44' });
    await queue.submit({ ...entry(2, '07'), expected: null });
    await queue.submit(entry(3, '12'));
    expect(network.calls.map((call) => call.body)).toEqual([
      { ghadiId: 1, result: '45', dateTime: TODAY, Expected: '44' },
      { ghadiId: 2, result: '07', dateTime: TODAY, Expected: null },
      { ghadiId: 3, result: '12', dateTime: TODAY },
    ]);
  });

  it('makes a second entry of a ghadi and day expect what the first one, still being sent, publishes', async () => {
    let release: (response: Response) => void = () => {};
    network.answer(() => new Promise<Response>((resolve) => (release = resolve)));
    const { queue } = await openQueue();
    const first = queue.submit({ ...entry(5, '123-6'), expected: null });
    await vi.waitFor(() => expect(network.calls).toHaveLength(1));
    // The close, entered while the open half is still on its way: it goes after it, in one pass.
    const second = queue.submit({ ...entry(5, '123-68-459'), expected: null });
    await vi.waitFor(async () => expect(await storedCount()).toBe(2));
    release(savedAnswer((network.calls[0] as Call).body));
    await vi.waitFor(() => expect(network.calls).toHaveLength(2));
    release(savedAnswer((network.calls[1] as Call).body));
    expect((await first).kind).toBe('saved');
    expect((await second).kind).toBe('saved');
    expect(network.calls.map((call) => call.body.Expected)).toEqual([null, '123-6']);
  });

  it('goes back to what the first entry expected when that one published nothing (held)', async () => {
    let release: (response: Response) => void = () => {};
    network.answer(() => new Promise<Response>((resolve) => (release = resolve)));
    const { queue } = await openQueue();
    const first = queue.submit({ ...entry(5, '45'), expected: '40' });
    await vi.waitFor(() => expect(network.calls).toHaveLength(1));
    const second = queue.submit({ ...entry(5, '46'), expected: '40' });
    await vi.waitFor(async () => expect(await storedCount()).toBe(2));
    release(held());
    await vi.waitFor(() => expect(network.calls).toHaveLength(2));
    release(held());
    expect((await first).kind).toBe('pending');
    expect((await second).kind).toBe('pending');
    expect(network.calls.map((call) => call.body.Expected)).toEqual(['40', '40']);
  });

  it('answers a 409 without mismatch as changed, with the value published now, and never resends it', async () => {
    network.answer(changed);
    published.set(`1 ${TODAY}`, '50');
    const { queue, wake } = await openQueue();
    const outcome = await queue.submit({ ...entry(1, '45'), expected: '44' });
    expect(outcome).toMatchObject({
      kind: 'changed',
      submission: { state: 'changed', current: '50', message: CHANGED },
    });
    expect(readPublished).toHaveBeenCalledWith(1, TODAY);
    wake();
    clock.advance(10 * 60_000);
    await settle(queue);
    expect(network.calls).toHaveLength(1);
  });

  it('keeps a queued entry answered changed in the list, and says so when the value cannot be read', async () => {
    const online = networkDownThen(changed);
    readPublished.mockRejectedValue(new Error('offline again'));
    const { queue, wake } = await openQueue();
    await queue.submit({ ...entry(1, '45'), expected: null });
    online();
    wake();
    await settle(queue);
    expect(listed(queue.getSnapshot())).toEqual([`1 ${TODAY} 45 changed`]);
    expect(queue.getSnapshot().submissions[0]).toMatchObject({ current: undefined, message: CHANGED });
  });

  it('reads any other 409 (a holiday) as a refusal when the published value is the one expected', async () => {
    const closed = 'Gali is closed for a holiday on 2026-11-26; ask an admin if a result must be declared';
    network.answer(() => json(409, { success: false, message: closed }));
    published.set(`1 ${TODAY}`, '44');
    const { queue } = await openQueue();
    expect(await queue.submit({ ...entry(1, '45'), expected: '44' })).toMatchObject({
      kind: 'refused',
      message: closed,
    });
  });
});

describe('SubmissionQueue, too many submissions (429)', () => {
  it('waits as long as Retry-After says, then sends the entry again with its key and body', async () => {
    let limited = true;
    network.answer((call) =>
      limited
        ? json(429, { success: false, message: 'Too many submissions' }, { 'retry-after': '40' })
        : savedAnswer(call.body),
    );
    const { queue } = await openQueue();
    expect((await queue.submit({ ...entry(1, '45'), expected: null })).kind).toBe('queued');
    expect(queue.getSnapshot().submissions[0]?.message).toBe('Too many submissions');
    expect(queue.getSnapshot().nextAttemptAt).toBe(clock.now() + 40_000);

    limited = false;
    clock.advance(39_999);
    await settle(queue);
    expect(network.calls).toHaveLength(1);
    clock.advance(1);
    await settle(queue);
    expect(listed(queue.getSnapshot())).toEqual([`1 ${TODAY} 45 saved`]);
    expect(network.calls[1]).toMatchObject({ key: network.calls[0]?.key, body: network.calls[0]?.body });
  });
});

describe('SubmissionQueue, entries older than 20 hours', () => {
  it('stops sending an entry once it is 20 hours old and sets it aside; later ones still go', async () => {
    const online = networkDownThen((call) => savedAnswer(call.body));
    const { queue, wake } = await openQueue();
    await queue.submit({ ...entry(1, '45'), expected: null });
    clock.advance(STALE_AFTER_MS - 60_000);
    await settle(queue);
    await queue.submit({ ...entry(2, '07'), expected: null });
    const tried = network.calls.length;

    // Exactly 20 hours: still sent (it fails, the network is down).
    clock.advance(60_000);
    wake();
    await settle(queue);
    expect(network.calls.length).toBeGreaterThan(tried);
    expect(listed(queue.getSnapshot())).toEqual([`1 ${TODAY} 45 waiting`, `2 ${TODAY} 07 waiting`]);

    online();
    clock.advance(1);
    const before = network.calls.length;
    wake();
    await settle(queue);
    expect(listed(queue.getSnapshot())).toEqual([`1 ${TODAY} 45 stale`, `2 ${TODAY} 07 saved`]);
    expect(network.calls.slice(before).map((call) => call.body.ghadiId)).toEqual([2]);
    clock.advance(10 * 60_000);
    wake();
    await settle(queue);
    expect(network.calls.slice(before).map((call) => call.body.ghadiId)).toEqual([2]);
  });

  it('sends a stale entry anyway when the agent says, with its key and Expected, or discards it', async () => {
    const online = networkDownThen((call) => savedAnswer(call.body));
    const { queue, wake } = await openQueue();
    await queue.submit({ ...entry(1, '45'), expected: '40' });
    await queue.submit({ ...entry(2, '07'), expected: null });
    const firstKey = network.calls[0]?.key;
    online();
    clock.advance(STALE_AFTER_MS + 1);
    wake();
    await settle(queue);
    expect(listed(queue.getSnapshot())).toEqual([`1 ${TODAY} 45 stale`, `2 ${TODAY} 07 stale`]);

    const [stale, other] = queue.getSnapshot().submissions;
    await queue.sendAnyway(stale?.key ?? '');
    await settle(queue);
    expect(network.calls.at(-1)).toMatchObject({
      key: firstKey,
      body: { ghadiId: 1, result: '45', Expected: '40' },
    });
    await queue.dismiss(other?.key ?? '');
    expect(listed(queue.getSnapshot())).toEqual([`1 ${TODAY} 45 saved`]);
    // Entered behind the first while the network was down, it was never tried, and now never will be.
    expect(network.calls.filter((call) => call.body.ghadiId === 2)).toHaveLength(0);
  });

  it('sets aside what an earlier page left once it is too old, as soon as the page opens', async () => {
    network.answer(offline);
    const { queue: before } = await openQueue();
    await before.submit({ ...entry(1, '45'), expected: null });
    before.stop();

    network.answer((call) => savedAnswer(call.body));
    clock.advance(21 * 60 * 60_000);
    const sent = network.calls.length;
    const { queue } = await openQueue();
    await settle(queue);
    expect(listed(queue.getSnapshot())).toEqual([`1 ${TODAY} 45 stale`]);
    expect(network.calls).toHaveLength(sent);
  });
});
