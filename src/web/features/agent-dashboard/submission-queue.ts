/**
 * The agent's submissions, kept on the phone (IndexedDB) until the server has answered them, so that
 * a weak network loses none (decision 0011). Each keeps the Idempotency-Key it was first sent with:
 * however often it is sent again, the server applies it once (decision 0010).
 *
 * This file holds the queue that sends them, when and how often: the entries are kept by
 * submission-store.ts, and the server's answers read by submission-verdicts.ts.
 *
 * Plain TypeScript, no React: the clock, the timers, the network and the browser's signals are
 * given, so that tests drive every transition without waiting.
 */
import { apiFetch } from '../../lib/api-client.js';
import { newSubmissionKey } from '../../lib/submission-key.js';
import { type NewSubmission, SUBMISSIONS_DB, type Submission, SubmissionStore } from './submission-store.js';
import { NO_ANSWER, type Verdict, verdictOf } from './submission-verdicts.js';

/** What became of a submission by the time `submit` returns. */
export type SubmitOutcome =
  | { kind: 'saved'; submission: Submission }
  | { kind: 'refused'; submission: Submission; message: string }
  | { kind: 'queued'; submission: Submission };

export interface QueueSnapshot {
  /** The listed entries, in the order entered. */
  submissions: readonly Submission[];
  /** The server refused the session (401): nothing is sent until the agent signs in again. */
  signInNeeded: boolean;
  /** When the backoff timer sends again (the clock's milliseconds), or null when none is set. */
  nextAttemptAt: number | null;
}

export interface Clock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface SubmissionBody {
  ghadiId: number;
  result: string;
  dateTime: string;
}

/** Sends one submission; resolves with the server's answer, rejects when none came. */
export type PostSubmission = (body: SubmissionBody, key: string, signal: AbortSignal) => Promise<Response>;

export interface SubmissionQueueOptions {
  userId: number;
  post: PostSubmission;
  /** The signed-in user now (null when none): a queue sends only while its own user is signed in. */
  currentUserId: () => number | null;
  clock?: Clock;
  /** Calls `wake` whenever the network may be back; returns what stops it. */
  wakeUps?: (wake: () => void) => () => void;
  newKey?: () => string;
  /** The IndexedDB database (tests give each their own). */
  dbName?: string;
  /** After the server saved an entry (to refresh what the screen shows). */
  onSaved?: (submission: Submission) => void;
  /** How long one attempt may take before it counts as lost and is sent again later. */
  requestTimeoutMs?: number;
}

/** Waits after consecutive failed attempts; the last one repeats. */
export const BACKOFF_MS = [2_000, 5_000, 10_000, 20_000, 30_000, 60_000] as const;
const DEFAULT_TIMEOUT_MS = 20_000;

const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => globalThis.setTimeout(run, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** The agent's submission route, with its key; the session's token is added by apiFetch. */
export const postSubmission: PostSubmission = (body, key, signal) =>
  apiFetch('POST', '/api/agent/my-ghadi/update-result', {
    headers: { accept: 'application/json', 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify(body),
    signal,
  });

/** The browser's signals that the network may be back: `online`, and the page coming to the front. */
export function browserWakeUps(wake: () => void): () => void {
  const onVisible = () => {
    if (document.visibilityState === 'visible') wake();
  };
  window.addEventListener('online', wake);
  document.addEventListener('visibilitychange', onVisible);
  return () => {
    window.removeEventListener('online', wake);
    document.removeEventListener('visibilitychange', onVisible);
  };
}

export class SubmissionQueue {
  private readonly userId: number;
  private readonly post: PostSubmission;
  private readonly currentUserId: () => number | null;
  private readonly clock: Clock;
  private readonly wakeUps: ((wake: () => void) => () => void) | undefined;
  private readonly newKey: () => string;
  private readonly store: SubmissionStore;
  private readonly onSaved: ((submission: Submission) => void) | undefined;
  private readonly requestTimeoutMs: number;

  private running = false;
  /** Set once start has read the stored entries: no pass runs before (it could take one as new). */
  private ready = false;
  private stopWakeUps: (() => void) | null = null;
  private timer: unknown = null;
  private failures = 0;
  private draining: Promise<void> | null = null;
  private lookAgain = false;
  private inFlight: AbortController | null = null;
  /** Keys `submit` is waiting on, and what became of each. */
  private readonly awaited = new Map<string, SubmitOutcome | null>();
  private readonly listeners = new Set<() => void>();
  private snapshot: QueueSnapshot = { submissions: [], signInNeeded: false, nextAttemptAt: null };

  constructor(options: SubmissionQueueOptions) {
    this.userId = options.userId;
    this.post = options.post;
    this.currentUserId = options.currentUserId;
    this.clock = options.clock ?? realClock;
    this.wakeUps = options.wakeUps;
    this.newKey = options.newKey ?? newSubmissionKey;
    this.store = new SubmissionStore({
      userId: this.userId,
      dbName: options.dbName ?? SUBMISSIONS_DB,
      newKey: this.newKey,
      now: () => this.clock.now(),
    });
    this.onSaved = options.onSaved;
    this.requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /**
   * Reads what an earlier page left (an entry caught mid-send is sent again: its key makes that
   * safe), listens for the network coming back and sends what waits. May follow `stop`.
   */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.stopWakeUps = this.wakeUps?.(() => void this.flush()) ?? null;
    try {
      await this.store.open();
    } catch {
      return; // No storage: submissions go unkept (sendUnkept), and nothing was left to send.
    }
    await this.store.reopen();
    this.ready = true;
    await this.refresh();
    if (this.running) await this.flush();
  }

  /** Stops sending and listening; what waits stays stored for the next start. */
  stop(): void {
    this.running = false;
    this.ready = false;
    this.stopWakeUps?.();
    this.stopWakeUps = null;
    this.cancelTimer();
    this.inFlight?.abort();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  getSnapshot(): QueueSnapshot {
    return this.snapshot;
  }

  /**
   * Stores a new submission (replacing a waiting one for the same ghadi and date) and sends it, after
   * any entered before it. Resolves once it is saved, refused, or left waiting for the network.
   */
  async submit(input: NewSubmission): Promise<SubmitOutcome> {
    let entry: Submission;
    try {
      entry = await this.store.add(input);
    } catch {
      return this.sendUnkept(input);
    }
    this.awaited.set(entry.key, null);
    try {
      await this.refresh();
      await this.flush();
      const outcome = this.awaited.get(entry.key);
      if (outcome) return outcome;
      // Still waiting (the network, or an earlier entry that could not go): now the list's to show.
      const stored = (await this.store.get(entry.key)) ?? entry;
      const queued = { ...stored, listed: true };
      await this.store.put(queued);
      await this.refresh();
      return { kind: 'queued', submission: queued };
    } finally {
      this.awaited.delete(entry.key);
    }
  }

  /**
   * Where the phone keeps nothing (IndexedDB refused: a private window, a full disk), one attempt,
   * reported to the form as before the queue existed: the agent sends it again by hand.
   */
  private async sendUnkept(input: NewSubmission): Promise<SubmitOutcome> {
    const submission: Submission = {
      ...input,
      key: this.newKey(),
      userId: this.userId,
      order: 0,
      enteredAt: new Date(this.clock.now()).toISOString(),
      state: 'sending',
      attempts: 1,
      listed: false,
    };
    let verdict: Verdict;
    try {
      const body = { ghadiId: input.ghadiId, result: input.result, dateTime: input.date };
      verdict = await verdictOf(await this.post(body, submission.key, new AbortController().signal));
    } catch {
      verdict = NO_ANSWER;
    }
    if (verdict.kind === 'saved') {
      const saved: Submission = { ...submission, state: 'saved', savedAt: verdict.savedAt };
      this.onSaved?.(saved);
      return { kind: 'saved', submission: { ...saved, result: verdict.result ?? input.result } };
    }
    const message =
      verdict.kind === 'refused'
        ? verdict.message
        : `${verdict.kind === 'retry' ? verdict.message : 'Sign in again'}: this phone cannot keep it, send it again`;
    return { kind: 'refused', submission: { ...submission, state: 'refused', message }, message };
  }

  /** Removes a saved or refused entry from the list. */
  async dismiss(key: string): Promise<void> {
    await this.store.dismiss(key);
    await this.refresh();
  }

  /**
   * Sends every waiting entry, in order, now: on a wake-up, at the timer, after a new submission.
   * One pass runs at a time; a call during a pass makes it look for entries once more.
   */
  flush(): Promise<void> {
    this.lookAgain = true;
    if (!this.draining) {
      this.draining = this.drain()
        .catch(() => {
          // Storage failed mid-pass: what it holds is unchanged, and the next wake-up tries again.
        })
        .finally(() => {
          this.draining = null;
        });
    }
    return this.draining;
  }

  /** Resolves once no pass is running: for tests, which move a fake clock and then look. */
  async idle(): Promise<void> {
    while (this.draining) await this.draining;
  }

  private async drain(): Promise<void> {
    while (this.lookAgain && this.running && this.ready) {
      this.lookAgain = false;
      this.cancelTimer();
      if (this.currentUserId() !== this.userId) {
        this.setSignInNeeded(true);
        return;
      }
      this.setSignInNeeded(false);
      for (;;) {
        if (!this.running) return;
        const next = await this.store.claimNext();
        if (!next) break;
        await this.refresh();
        // Anything but a saved or refused answer ends the pass: later entries wait their turn.
        if (!(await this.attempt(next))) return;
      }
    }
  }

  /** Sends one entry; false when the queue must wait (the network, a busy server, the session). */
  private async attempt(sending: Submission): Promise<boolean> {
    const controller = new AbortController();
    this.inFlight = controller;
    const timeout = this.clock.setTimeout(() => controller.abort(), this.requestTimeoutMs);
    let verdict: Verdict;
    try {
      const response = await this.post(
        { ghadiId: sending.ghadiId, result: sending.result, dateTime: sending.date },
        sending.key,
        controller.signal,
      );
      verdict = await verdictOf(response);
    } catch {
      // No answer: offline, a dropped connection, a timeout. The server may have written it; the
      // same key makes the next attempt answer as that write did.
      verdict = NO_ANSWER;
    } finally {
      this.clock.clearTimeout(timeout);
      this.inFlight = null;
    }
    if (!this.running && verdict.kind === 'retry') {
      // Stopped mid-send (the page left): the entry waits for the next start.
      await this.store.put({ ...sending, state: 'waiting', listed: true });
      return false;
    }
    return this.record(sending, verdict);
  }

  private async record(entry: Submission, verdict: Verdict): Promise<boolean> {
    switch (verdict.kind) {
      case 'saved': {
        this.failures = 0;
        const saved: Submission = {
          ...entry,
          state: 'saved',
          result: verdict.result ?? entry.result,
          savedAt: verdict.savedAt,
          message: undefined,
        };
        if (saved.listed) await this.store.put(saved);
        else await this.store.delete(entry.key);
        this.settle(entry.key, { kind: 'saved', submission: saved });
        await this.refresh();
        this.onSaved?.(saved);
        return true;
      }
      case 'refused': {
        this.failures = 0;
        const refused: Submission = { ...entry, state: 'refused', message: verdict.message };
        if (refused.listed) await this.store.put(refused);
        else await this.store.delete(entry.key);
        this.settle(entry.key, { kind: 'refused', submission: refused, message: verdict.message });
        await this.refresh();
        return true;
      }
      case 'sign-in': {
        await this.store.put({ ...entry, state: 'waiting', listed: true, message: 'Sign in again to send' });
        this.setSignInNeeded(true);
        await this.refresh();
        return false;
      }
      case 'retry': {
        await this.store.put({ ...entry, state: 'waiting', listed: true, message: verdict.message });
        const backoff = BACKOFF_MS[Math.min(this.failures, BACKOFF_MS.length - 1)] ?? 60_000;
        this.failures += 1;
        this.schedule(Math.max(backoff, verdict.retryAfterMs));
        await this.refresh();
        return false;
      }
    }
  }

  private settle(key: string, outcome: SubmitOutcome) {
    if (this.awaited.has(key)) this.awaited.set(key, outcome);
  }

  private schedule(delay: number) {
    this.cancelTimer();
    if (!this.running) return;
    this.timer = this.clock.setTimeout(() => {
      this.timer = null;
      this.update({ nextAttemptAt: null });
      void this.flush();
    }, delay);
    this.update({ nextAttemptAt: this.clock.now() + delay });
  }

  private cancelTimer() {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    if (this.snapshot.nextAttemptAt !== null) this.update({ nextAttemptAt: null });
  }

  private setSignInNeeded(signInNeeded: boolean) {
    if (this.snapshot.signInNeeded !== signInNeeded) this.update({ signInNeeded });
  }

  private async refresh() {
    const submissions = await this.store.listed();
    this.update({ submissions });
  }

  private update(change: Partial<QueueSnapshot>) {
    this.snapshot = { ...this.snapshot, ...change };
    for (const listener of this.listeners) listener();
  }
}
