/**
 * The agent's submissions as the phone keeps them (IndexedDB): the reads and writes the queue makes,
 * each user's entries apart and in the order entered. The entry itself: submission-entry.ts.
 */
import { type DBSchema, type IDBPDatabase, openDB } from 'idb';

import {
  answeredAtOf,
  FINISHED_STATES,
  type NewSubmission,
  REPLACEABLE,
  revisedDependents,
  SAVED_KEPT_MS,
  type Submission,
} from './submission-entry.js';

export interface SubmissionStoreOptions {
  /** Whose entries these are: the store reads and changes no other user's. */
  userId: number;
  dbName: string;
  newKey: () => string;
  /** The queue's clock (milliseconds), so that tests set the time an entry is entered. */
  now: () => number;
}

export const SUBMISSIONS_DB = 'ghadi-agent-submissions';
const STORE = 'submissions';
const BY_USER = 'by-user';

interface SubmissionsSchema extends DBSchema {
  submissions: {
    key: string;
    value: Submission;
    indexes: { 'by-user': [number, number] };
  };
}

type Database = IDBPDatabase<SubmissionsSchema>;

export class SubmissionStore {
  private readonly userId: number;
  private readonly dbName: string;
  private readonly newKey: () => string;
  private readonly now: () => number;

  private database: Promise<Database> | null = null;

  constructor(options: SubmissionStoreOptions) {
    this.userId = options.userId;
    this.dbName = options.dbName;
    this.newKey = options.newKey;
    this.now = options.now;
  }

  /** Rejects where the phone keeps nothing (IndexedDB refused). */
  async open(): Promise<void> {
    await this.db();
  }

  /**
   * Takes over what an earlier page left: an entry caught mid-send waits to be sent again, every
   * entry is listed, and a saved or held one is forgotten after SAVED_KEPT_MS.
   */
  async reopen(): Promise<void> {
    const db = await this.db();
    const tx = db.transaction(STORE, 'readwrite');
    const now = this.now();
    for (const entry of await tx.store.index(BY_USER).getAll(this.range())) {
      const answeredAt = answeredAtOf(entry);
      const expired = answeredAt !== undefined && now - Date.parse(answeredAt) > SAVED_KEPT_MS;
      if (expired) await tx.store.delete(entry.key);
      else if (entry.state === 'sending' || !entry.listed) {
        await tx.store.put({
          ...entry,
          state: entry.state === 'sending' ? 'waiting' : entry.state,
          listed: true,
        });
      }
    }
    await tx.done;
  }

  /**
   * Adds the entry after the user's last, in place of one for the same ghadi and date that is still
   * unsent or was answered without publishing (held, changed): the new one says what the agent means
   * now. One being sent stays, and the new one expects the value it would publish.
   */
  async add(input: NewSubmission): Promise<Submission> {
    const db = await this.db();
    const tx = db.transaction(STORE, 'readwrite');
    const existing = await tx.store.index(BY_USER).getAll(this.range());
    const sameDay = (entry: Submission) => entry.ghadiId === input.ghadiId && entry.date === input.date;
    const replaced = existing.filter((entry) => sameDay(entry) && REPLACEABLE.has(entry.state));
    for (const entry of replaced) await tx.store.delete(entry.key);
    const unsent = replaced.filter((entry) => entry.state === 'waiting' || entry.state === 'stale');
    const sending = existing.findLast((entry) => sameDay(entry) && entry.state === 'sending');
    const entry: Submission = {
      key: this.newKey(),
      userId: this.userId,
      order: (existing.at(-1)?.order ?? 0) + 1,
      ghadiId: input.ghadiId,
      ghadiName: input.ghadiName,
      date: input.date,
      result: input.result,
      enteredAt: new Date(this.now()).toISOString(),
      state: 'waiting',
      attempts: 0,
      // Replacing an entry the list shows keeps the new one there, where the agent saw the old.
      listed: unsent.some((entry) => entry.listed),
      replaced: unsent.at(-1)?.result,
      expected: sending ? sending.result : input.expected,
      expectedFrom: sending?.key,
    };
    await tx.store.put(entry);
    await tx.done;
    return entry;
  }

  /**
   * The first waiting entry, marked as being sent, in one transaction: a replacement stored meanwhile
   * (or another tab of the app) cannot take it between the look and the mark. A waiting entry `stale`
   * calls too old is set aside on the way (state stale), unless the agent said to send it anyway.
   */
  async claimNext(
    stale: (entry: Submission) => boolean,
  ): Promise<{ next: Submission | undefined; setAside: boolean }> {
    const db = await this.db();
    const tx = db.transaction(STORE, 'readwrite');
    const entries = await tx.store.index(BY_USER).getAll(this.range());
    let next: Submission | undefined;
    let setAside = false;
    for (let index = 0; index < entries.length && !next; index += 1) {
      const entry = entries[index] as Submission;
      if (entry.state !== 'waiting') continue;
      if (!entry.sendAnyway && stale(entry)) {
        setAside = true;
        await tx.store.put({ ...entry, state: 'stale', listed: true });
        // Those entered behind it no longer expect what it would have published.
        for (const revised of revisedDependents(entries, entry, undefined)) {
          entries[entries.findIndex((other) => other.key === revised.key)] = revised;
          await tx.store.put(revised);
        }
        continue;
      }
      next = { ...entry, state: 'sending', attempts: entry.attempts + 1 };
      await tx.store.put(next);
    }
    await tx.done;
    return { next, setAside };
  }

  /** The entries entered while `from` was unanswered, now expecting what it published (if anything). */
  async settleDependents(from: Submission, published: string | undefined): Promise<void> {
    const db = await this.db();
    const tx = db.transaction(STORE, 'readwrite');
    const entries = await tx.store.index(BY_USER).getAll(this.range());
    for (const revised of revisedDependents(entries, from, published)) await tx.store.put(revised);
    await tx.done;
  }

  /** A stale entry the agent chose to send: it waits again, and is not set aside a second time. */
  async sendAnyway(key: string): Promise<boolean> {
    const db = await this.db();
    const entry = await db.get(STORE, key);
    if (!entry || entry.userId !== this.userId || entry.state !== 'stale') return false;
    await db.put(STORE, { ...entry, state: 'waiting', sendAnyway: true, message: undefined });
    return true;
  }

  async get(key: string): Promise<Submission | undefined> {
    return (await this.db()).get(STORE, key);
  }

  async put(entry: Submission): Promise<void> {
    await (await this.db()).put(STORE, entry);
  }

  async delete(key: string): Promise<void> {
    await (await this.db()).delete(STORE, key);
  }

  /**
   * Removes an entry of the user's that is finished or set aside (returned, to settle those behind
   * it); one still to be sent stays.
   */
  async dismiss(key: string): Promise<Submission | undefined> {
    const db = await this.db();
    const entry = await db.get(STORE, key);
    if (
      entry &&
      entry.userId === this.userId &&
      (FINISHED_STATES.has(entry.state) || entry.state === 'stale')
    ) {
      await db.delete(STORE, key);
      return entry;
    }
    return undefined;
  }

  /** The entries the list shows, in the order entered. */
  async listed(): Promise<Submission[]> {
    return (await this.entries()).filter((entry) => entry.listed);
  }

  private range() {
    return IDBKeyRange.bound(
      [this.userId, Number.NEGATIVE_INFINITY],
      [this.userId, Number.POSITIVE_INFINITY],
    );
  }

  private async entries(): Promise<Submission[]> {
    return (await this.db()).getAllFromIndex(STORE, BY_USER, this.range());
  }

  private db(): Promise<Database> {
    this.database ??= openDB<SubmissionsSchema>(this.dbName, 1, {
      upgrade(db) {
        db.createObjectStore(STORE, { keyPath: 'key' }).createIndex(BY_USER, ['userId', 'order']);
      },
    });
    return this.database;
  }
}
