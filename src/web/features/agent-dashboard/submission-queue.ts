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
import { newSubmissionKey } from '../../lib/submission-key.js';
import type { NewSubmission, Submission } from './submission-entry.js';
import {
  bodyOf,
  type Clock,
  type PostSubmission,
  type ReadPublished,
  readPublished,
  realClock,
} from './submission-network.js';
import { SUBMISSIONS_DB, SubmissionStore } from './submission-store.js';
import {
  answeredEntry,
  NO_ANSWER,
  outcomeOf,
  type SubmitOutcome,
  type Verdict,
  verdictOf,
} from './submission-verdicts.js';

export interface QueueSnapshot {
  /** The listed entries, in the order entered. */
  submissions: readonly Submission[];
  /** The server refused the session (401): nothing is sent until the agent signs in again. */
  signInNeeded: boolean;
  /** When the backoff timer sends again (the clock's milliseconds), or null when none is set. */
  nextAttemptAt: number | null;
}

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
  /** After the server answered an entry for good (to refresh what the screen shows). */
  onAnswered?: (submission: Submission) => void;
  /** How long one attempt may take before it counts as lost and is sent again later. */
  requestTimeoutMs?: number;
  /** Reads the published value after a 409, to tell "changed since entered" from other conflicts. */
  readPublished?: ReadPublished;
}

/** Waits after consecutive failed attempts; the last one repeats. */
export const BACKOFF_MS = [2_000, 5_000, 10_000, 20_000, 30_000, 60_000] as const;
/**
 * An entry older than this is not sent by itself: the agent is asked (send anyway, or discard). A
 * day's result entered this long ago has most likely been declared or corrected since (issue 40).
 */
export const STALE_AFTER_MS = 20 * 60 * 60_000;
const DEFAULT_TIMEOUT_MS = 20_000;

export class SubmissionQueue {
  private readonly userId: number;
  private readonly post: PostSubmission;
  private readonly currentUserId: () => number | null;
  private readonly clock: Clock;
  private readonly wakeUps: ((wake: () => void) => () => void) | undefined;
  private readonly newKey: () => string;
  private readonly store: SubmissionStore;
  private readonly onAnswered: ((submission: Submission) => void) | undefined;
  private readonly requestTimeoutMs: number;
  private readonly readPublished: ReadPublished;

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
    this.onAnswered = options.onAnswered;
    this.requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.readPublished = options.readPublished ?? readPublished;
  }

  /** The queue's clock now: what an entry's age is measured against. */
  now(): number {
    return this.clock.now();
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
      verdict = await verdictOf(
        await this.post(bodyOf(submission), submission.key, new AbortController().signal),
      );
    } catch {
      verdict = NO_ANSWER;
    }
    if (verdict.kind === 'retry' || verdict.kind === 'sign-in') {
      const message = `${verdict.kind === 'retry' ? verdict.message : 'Sign in again'}: this phone cannot keep it, send it again`;
      return { kind: 'refused', submission: { ...submission, state: 'refused', message }, message };
    }
    const final = await answeredEntry(submission, verdict, this.clock.now(), this.readPublished);
    this.onAnswered?.(final);
    return outcomeOf(final);
  }

  /** Removes an entry from the list: a finished one, or one set aside as stale (discarded). */
  async dismiss(key: string): Promise<void> {
    await this.store.dismiss(key);
    await this.refresh();
  }

  /** Sends an entry set aside as stale, as the agent chose, and is not held back by its age again. */
  async sendAnyway(key: string): Promise<void> {
    if (await this.store.sendAnyway(key)) {
      await this.refresh();
      await this.flush();
    }
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
        const { next, setAside } = await this.store.claimNext(this.isStale);
        if (setAside && !next) await this.refresh();
        if (!next) break;
        await this.refresh();
        // Anything but a saved or refused answer ends the pass: later entries wait their turn.
        if (!(await this.attempt(next))) return;
      }
    }
  }

  private readonly isStale = (entry: Submission): boolean =>
    this.clock.now() - Date.parse(entry.enteredAt) > STALE_AFTER_MS;

  /** Sends one entry; false when the queue must wait (the network, a busy server, the session). */
  private async attempt(sending: Submission): Promise<boolean> {
    const controller = new AbortController();
    this.inFlight = controller;
    const timeout = this.clock.setTimeout(() => controller.abort(), this.requestTimeoutMs);
    let verdict: Verdict;
    try {
      const response = await this.post(bodyOf(sending), sending.key, controller.signal);
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
      default: {
        // An answer for good: saved, held on the server, or refused. None is sent again by itself.
        this.failures = 0;
        const final = await answeredEntry(entry, verdict, this.clock.now(), this.readPublished);
        if (final.listed) await this.store.put(final);
        else await this.store.delete(entry.key);
        await this.store.settleDependents(entry, final.state === 'saved' ? final.result : undefined);
        this.settle(entry.key, outcomeOf(final));
        await this.refresh();
        this.onAnswered?.(final);
        return true;
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
