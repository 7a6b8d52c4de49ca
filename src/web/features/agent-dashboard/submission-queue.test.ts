import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  entry,
  fakeNetwork,
  json,
  listed,
  offline,
  savedAnswer,
  settle,
  TODAY,
  YESTERDAY,
} from './queue-test-kit.js';
import { browserWakeUps } from './submission-network.js';
import { BACKOFF_MS, SubmissionQueue, type SubmissionQueueOptions } from './submission-queue.js';
import { FAILED_TO_UPDATE, NO_CONNECTION } from './submission-verdicts.js';
import { FakeClock } from './test-support.js';

let dbName: string;
let dbCounter = 0;
let queues: SubmissionQueue[];
let clock: FakeClock;
let network: ReturnType<typeof fakeNetwork>;
let signedIn: number | null;
let keyCounter: number;

beforeEach(() => {
  dbCounter += 1;
  dbName = `queue-test-${dbCounter}`;
  queues = [];
  clock = new FakeClock();
  network = fakeNetwork();
  signedIn = 7;
  keyCounter = 0;
});

afterEach(() => {
  for (const queue of queues) queue.stop();
});

/** A queue as a page makes one: for user 7 unless told, on this test's database, clock and network. */
async function openQueue(options: Partial<SubmissionQueueOptions> = {}) {
  let wake = () => {};
  const queue = new SubmissionQueue({
    userId: 7,
    post: network.post,
    currentUserId: () => signedIn,
    clock,
    dbName,
    newKey: () => `key-${++keyCounter}`,
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

describe('SubmissionQueue, sending at once', () => {
  it('saves a submission the server answers, with its key, and keeps no entry of it', async () => {
    const onAnswered = vi.fn();
    const { queue } = await openQueue({ onAnswered });
    const outcome = await queue.submit(entry(3, '45'));

    expect(outcome.kind).toBe('saved');
    expect(outcome.submission).toMatchObject({
      state: 'saved',
      result: '45',
      savedAt: '2026-11-26T10:00:01.000Z',
    });
    expect(network.calls.map(({ body, key }) => ({ body, key }))).toEqual([
      { body: { ghadiId: 3, result: '45', dateTime: TODAY }, key: 'key-1' },
    ]);
    expect(queue.getSnapshot().submissions).toEqual([]);
    expect(onAnswered).toHaveBeenCalledTimes(1);
    expect(clock.pending()).toEqual([]);
  });

  it('gives a refusal back to the form, keeps nothing and never sends it again', async () => {
    network.answer(() => json(403, { success: false, message: 'Agents may only enter today or yesterday' }));
    const { queue, wake } = await openQueue();
    const outcome = await queue.submit(entry(3, '45', '2026-11-20'));

    expect(outcome).toMatchObject({ kind: 'refused', message: 'Agents may only enter today or yesterday' });
    expect(queue.getSnapshot().submissions).toEqual([]);
    wake();
    clock.advance(10 * 60_000);
    await settle(queue);
    expect(network.calls).toHaveLength(1);
  });

  it('refuses without retrying on any 4xx but 408 and 429, and on a server fault, in the server’s words', async () => {
    for (const status of [400, 403, 404, 409, 422, 500]) {
      network.answer(() => json(status, { success: false, message: `No (${status})` }));
      const { queue } = await openQueue();
      expect(await queue.submit(entry(status, '1'))).toMatchObject({
        kind: 'refused',
        message: `No (${status})`,
      });
      queue.stop();
    }
    // No message from the server: the spec's own text.
    network.answer(() => new Response('oops', { status: 500 }));
    const { queue } = await openQueue();
    expect(await queue.submit(entry(1, '1'))).toMatchObject({ kind: 'refused', message: FAILED_TO_UPDATE });
    expect(clock.pending()).toEqual([]);
  });
});

describe('SubmissionQueue, where the phone keeps nothing', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('sends once and reports what came of it, as the form did before the queue', async () => {
    vi.stubGlobal('indexedDB', {
      open() {
        throw new DOMException(
          'A mutation operation was attempted on a database that did not allow mutations.',
          'InvalidStateError',
        );
      },
    });
    const { queue } = await openQueue();
    expect(await queue.submit(entry(1, '10'))).toMatchObject({ kind: 'saved', submission: { result: '10' } });
    network.answer(offline);
    expect(await queue.submit(entry(1, '11'))).toMatchObject({
      kind: 'refused',
      message: 'No connection: this phone cannot keep it, send it again',
    });
    expect(network.calls.map((call) => call.body.result)).toEqual(['10', '11']);
    expect(new Set(network.calls.map((call) => call.key)).size).toBe(2);
    expect(queue.getSnapshot().submissions).toEqual([]);
    expect(clock.pending()).toEqual([]);
  });
});

describe('SubmissionQueue, when the network fails', () => {
  it('keeps the submission waiting, in the list, and sends it again with the same key', async () => {
    network.answer(offline);
    const { queue } = await openQueue();
    const outcome = await queue.submit(entry(3, '45'));

    expect(outcome.kind).toBe('queued');
    expect(queue.getSnapshot().submissions).toMatchObject([
      {
        key: 'key-1',
        ghadiId: 3,
        ghadiName: 'Ghadi 3',
        date: TODAY,
        result: '45',
        state: 'waiting',
        message: NO_CONNECTION,
        attempts: 1,
      },
    ]);
    expect(queue.getSnapshot().nextAttemptAt).toBe(clock.now() + BACKOFF_MS[0]);

    network.answer((call) => savedAnswer(call.body, '2026-11-26T10:00:03.000Z'));
    clock.advance(BACKOFF_MS[0]);
    await settle(queue);
    expect(network.calls.map((call) => call.key)).toEqual(['key-1', 'key-1']);
    // Saved, with the server's time, and still listed so that the agent sees it went.
    expect(queue.getSnapshot().submissions).toMatchObject([
      { key: 'key-1', state: 'saved', savedAt: '2026-11-26T10:00:03.000Z', attempts: 2 },
    ]);
    expect(queue.getSnapshot().nextAttemptAt).toBeNull();
  });

  it('retries on 408, 429, 502, 503 and 504, and waits as long as Retry-After asks', async () => {
    for (const status of [408, 429, 502, 503, 504]) {
      network.answer(() => json(status, { success: false, message: 'Busy' }));
      const { queue } = await openQueue();
      expect((await queue.submit(entry(status, '1'))).kind, String(status)).toBe('queued');
      expect(queue.getSnapshot().submissions[0]?.message).toBe('Busy');
      queue.stop();
    }
    network.answer(() =>
      json(503, { success: false, message: 'Database unavailable' }, { 'retry-after': '30' }),
    );
    const { queue } = await openQueue();
    await queue.submit(entry(1, '1'));
    expect(clock.pending()).toEqual([30_000]);
  });

  it('backs off longer after each failure, up to a minute, and starts over after a success', async () => {
    network.answer(offline);
    const { queue } = await openQueue();
    await queue.submit(entry(1, '10'));
    const delays: number[] = [];
    for (let attempt = 0; attempt < BACKOFF_MS.length + 2; attempt += 1) {
      const [delay = 0] = clock.pending();
      delays.push(delay);
      clock.advance(delay);
      await settle(queue);
    }
    expect(delays).toEqual([...BACKOFF_MS, 60_000, 60_000]);
    expect(network.calls).toHaveLength(BACKOFF_MS.length + 3);

    network.answer((call) => savedAnswer(call.body));
    clock.advance(60_000);
    await settle(queue);
    network.answer(offline);
    await queue.submit(entry(2, '20'));
    expect(clock.pending()).toEqual([BACKOFF_MS[0]]);
  });

  it('counts an attempt with no answer within the time limit as failed, and sends it again', async () => {
    network.answer(
      ({ signal }) =>
        new Promise<Response>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
    );
    const { queue } = await openQueue({ requestTimeoutMs: 20_000 });
    const submitted = queue.submit(entry(1, '10'));
    await vi.waitFor(() => expect(network.calls).toHaveLength(1));
    expect(queue.getSnapshot().submissions).toEqual([]);
    clock.advance(20_000);
    expect((await submitted).kind).toBe('queued');
    expect(network.calls[0]?.signal.aborted).toBe(true);

    network.answer((call) => savedAnswer(call.body));
    clock.advance(BACKOFF_MS[0]);
    await settle(queue);
    expect(network.calls.map((call) => call.key)).toEqual(['key-1', 'key-1']);
    expect(listed(queue.getSnapshot())).toEqual([`1 ${TODAY} 10 saved`]);
  });

  it('shows an entry as sending while its attempt runs', async () => {
    network.answer(offline);
    const { queue, wake } = await openQueue();
    await queue.submit(entry(1, '10'));
    let answer: (response: Response) => void = () => {};
    network.answer(() => new Promise<Response>((resolve) => (answer = resolve)));
    wake();
    await vi.waitFor(() => expect(listed(queue.getSnapshot())).toEqual([`1 ${TODAY} 10 sending`]));
    answer(savedAnswer({ ghadiId: 1, result: '10', dateTime: TODAY }));
    await settle(queue);
    expect(listed(queue.getSnapshot())).toEqual([`1 ${TODAY} 10 saved`]);
  });

  it('marks a waiting entry refused when the server later says no, and does not send it again', async () => {
    network.answer(offline);
    const { queue } = await openQueue();
    await queue.submit(entry(1, '10'));
    network.answer(() => json(403, { success: false, message: 'Ghadi not assigned to you' }));
    clock.advance(BACKOFF_MS[0]);
    await settle(queue);
    expect(queue.getSnapshot().submissions).toMatchObject([
      { state: 'refused', message: 'Ghadi not assigned to you' },
    ]);
    clock.advance(10 * 60_000);
    await settle(queue);
    expect(network.calls).toHaveLength(2);
  });
});

describe('SubmissionQueue, order and replacement', () => {
  it('sends entries in the order entered, one at a time, when the network comes back', async () => {
    network.answer(offline);
    const { queue, wake } = await openQueue();
    await queue.submit(entry(1, '10'));
    await queue.submit(entry(2, '20'));
    await queue.submit(entry(3, '30', YESTERDAY));
    // Each new one waited behind the first, which was tried again; none went ahead of it.
    expect(network.calls.map((call) => call.key)).toEqual(['key-1', 'key-1', 'key-1']);

    let inFlight = 0;
    let most = 0;
    network.answer(async (call) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 1));
      inFlight -= 1;
      return savedAnswer(call.body);
    });
    wake();
    await settle(queue);
    expect(network.calls.slice(3).map((call) => call.key)).toEqual(['key-1', 'key-2', 'key-3']);
    expect(most).toBe(1);
    expect(listed(queue.getSnapshot())).toEqual([
      `1 ${TODAY} 10 saved`,
      `2 ${TODAY} 20 saved`,
      `3 ${YESTERDAY} 30 saved`,
    ]);
  });

  it('replaces a waiting entry for the same ghadi and date, and says which value it replaced', async () => {
    network.answer(offline);
    const { queue, wake } = await openQueue();
    await queue.submit(entry(1, '10'));
    await queue.submit(entry(1, '10', YESTERDAY));
    await queue.submit(entry(2, '20'));
    const outcome = await queue.submit(entry(1, '11'));

    expect(outcome.kind).toBe('queued');
    expect(outcome.submission).toMatchObject({ key: 'key-4', result: '11', replaced: '10' });
    // Another date or another ghadi is another declaration, and stays.
    expect(listed(queue.getSnapshot())).toEqual([
      `1 ${YESTERDAY} 10 waiting`,
      `2 ${TODAY} 20 waiting`,
      `1 ${TODAY} 11 waiting`,
    ]);
    network.answer((call) => savedAnswer(call.body));
    wake();
    await settle(queue);
    expect(
      network.calls.filter((call) => call.key === 'key-1').every((call) => call.body.result === '10'),
    ).toBe(true);
    expect(network.calls.slice(-3).map((call) => call.body.result)).toEqual(['10', '20', '11']);
  });

  it('does not replace an entry already being sent: both go, the later last', async () => {
    network.answer(offline);
    const { queue, wake } = await openQueue();
    await queue.submit(entry(1, '10'));
    let answer: (response: Response) => void = () => {};
    network.answer(() => new Promise<Response>((resolve) => (answer = resolve)));
    wake();
    await vi.waitFor(() => expect(listed(queue.getSnapshot())).toEqual([`1 ${TODAY} 10 sending`]));

    network.answer((call) => savedAnswer(call.body));
    const later = queue.submit(entry(1, '11'));
    answer(savedAnswer({ ghadiId: 1, result: '10', dateTime: TODAY }));
    expect((await later).kind).toBe('saved');
    expect(network.calls.slice(-2).map((call) => `${call.key} ${call.body.result}`)).toEqual([
      'key-1 10',
      'key-2 11',
    ]);
  });
});

describe('SubmissionQueue, the network coming back', () => {
  it('sends at once on a wake-up, without waiting for the timer', async () => {
    network.answer(offline);
    const { queue, wake } = await openQueue();
    await queue.submit(entry(1, '10'));
    network.answer((call) => savedAnswer(call.body));
    wake();
    await settle(queue);
    expect(listed(queue.getSnapshot())).toEqual([`1 ${TODAY} 10 saved`]);
    expect(clock.pending()).toEqual([]);
  });

  it('wakes on the browser’s online event and when the page comes back to the front', () => {
    const wake = vi.fn();
    const stop = browserWakeUps(wake);
    window.dispatchEvent(new Event('online'));
    expect(wake).toHaveBeenCalledTimes(1);

    const visibility = vi.spyOn(document, 'visibilityState', 'get');
    visibility.mockReturnValue('hidden');
    document.dispatchEvent(new Event('visibilitychange'));
    expect(wake).toHaveBeenCalledTimes(1);
    visibility.mockReturnValue('visible');
    document.dispatchEvent(new Event('visibilitychange'));
    expect(wake).toHaveBeenCalledTimes(2);

    stop();
    window.dispatchEvent(new Event('online'));
    document.dispatchEvent(new Event('visibilitychange'));
    expect(wake).toHaveBeenCalledTimes(2);
    visibility.mockRestore();
  });
});

describe('SubmissionQueue, sessions', () => {
  it('keeps entries through an expired session (401) and sends them once the agent signs in again', async () => {
    network.answer(offline);
    const { queue, wake } = await openQueue();
    await queue.submit(entry(1, '10'));
    await queue.submit(entry(2, '20'));

    network.answer(() => {
      signedIn = null; // what apiFetch does on a 401
      return json(401, { success: false, message: 'Session expired' });
    });
    wake();
    await settle(queue);
    expect(queue.getSnapshot().signInNeeded).toBe(true);
    expect(queue.getSnapshot().submissions).toMatchObject([
      { state: 'waiting', message: 'Sign in again to send' },
      { state: 'waiting' },
    ]);
    // No timer, and no wake-up sends anything while no one is signed in.
    expect(clock.pending()).toEqual([]);
    const sent = network.calls.length;
    wake();
    await settle(queue);
    expect(network.calls).toHaveLength(sent);

    signedIn = 7;
    network.answer((call) => savedAnswer(call.body));
    wake();
    await settle(queue);
    expect(queue.getSnapshot().signInNeeded).toBe(false);
    expect(listed(queue.getSnapshot())).toEqual([`1 ${TODAY} 10 saved`, `2 ${TODAY} 20 saved`]);
    expect(network.calls.slice(sent).map((call) => call.key)).toEqual(['key-1', 'key-2']);
  });

  it('keeps each user’s entries apart: another agent on the phone neither sees nor sends them', async () => {
    network.answer(offline);
    const { queue: first } = await openQueue();
    await first.submit(entry(1, '10'));
    first.stop();

    signedIn = 8;
    network.answer((call) => savedAnswer(call.body));
    const { queue: second } = await openQueue({ userId: 8 });
    await settle(second);
    expect(second.getSnapshot().submissions).toEqual([]);
    expect(network.calls.map((call) => call.key)).toEqual(['key-1']);

    // The first agent's queue, were it open, sends nothing under another agent's session.
    const { queue: stale } = await openQueue();
    await settle(stale);
    expect(stale.getSnapshot().signInNeeded).toBe(true);
    expect(network.calls).toHaveLength(1);
    expect(listed(stale.getSnapshot())).toEqual([`1 ${TODAY} 10 waiting`]);
  });
});

describe('SubmissionQueue, a page closed and opened again', () => {
  it('reads the entries back at start and sends them, with their keys, in order', async () => {
    network.answer(offline);
    const { queue: before } = await openQueue();
    await before.submit(entry(1, '10'));
    await before.submit(entry(2, '20'));
    before.stop();

    network.answer((call) => savedAnswer(call.body));
    const { queue: after } = await openQueue();
    await settle(after);
    expect(network.calls.slice(-2).map((call) => call.key)).toEqual(['key-1', 'key-2']);
    expect(listed(after.getSnapshot())).toEqual([`1 ${TODAY} 10 saved`, `2 ${TODAY} 20 saved`]);
  });

  it('sends again an entry the page closed on in mid-send, and lists it', async () => {
    network.answer(() => new Promise<Response>(() => {}));
    const { queue: before } = await openQueue();
    void before.submit(entry(1, '10'));
    await vi.waitFor(() => expect(network.calls).toHaveLength(1));
    before.stop();

    network.answer((call) => savedAnswer(call.body));
    const { queue: after } = await openQueue();
    await settle(after);
    expect(network.calls.map((call) => call.key)).toEqual(['key-1', 'key-1']);
    expect(listed(after.getSnapshot())).toEqual([`1 ${TODAY} 10 saved`]);
  });

  it('lets the agent dismiss finished entries, and forgets saved ones after a day', async () => {
    network.answer(offline);
    const { queue } = await openQueue();
    await queue.submit(entry(1, '10'));
    await queue.submit(entry(2, '20'));
    network.answer((call) =>
      call.body.ghadiId === 2
        ? json(404, { message: 'Gone' })
        : savedAnswer(call.body, new Date(clock.now()).toISOString()),
    );
    // Two failures so far (the second submission tried the first entry again): the second wait.
    expect(clock.pending()).toEqual([BACKOFF_MS[1]]);
    clock.advance(BACKOFF_MS[1]);
    await settle(queue);
    expect(listed(queue.getSnapshot())).toEqual([`1 ${TODAY} 10 saved`, `2 ${TODAY} 20 refused`]);

    await queue.submit(entry(3, '30'));
    const waiting = queue.getSnapshot().submissions.find((submission) => submission.ghadiId === 3);
    expect(waiting).toBeUndefined(); // saved at once: never listed

    const [saved, refused] = queue.getSnapshot().submissions;
    await queue.dismiss(refused?.key ?? '');
    expect(listed(queue.getSnapshot())).toEqual([`1 ${TODAY} 10 saved`]);
    queue.stop();

    clock.advance(25 * 60 * 60_000);
    const { queue: nextDay } = await openQueue();
    expect(nextDay.getSnapshot().submissions).toEqual([]);
    expect(saved?.state).toBe('saved');
  });
});
