/**
 * The agent's submissions as the phone keeps them (IndexedDB): the entry's shape and the reads and
 * writes the queue makes, each user's entries apart and in the order entered.
 */
import { type DBSchema, type IDBPDatabase, openDB } from 'idb';

export type SubmissionState = 'waiting' | 'sending' | 'saved' | 'refused';

export interface Submission {
  /** The Idempotency-Key, also the entry's key in the store. */
  key: string;
  userId: number;
  /** The order entered: entries are sent in it. */
  order: number;
  ghadiId: number;
  ghadiName: string;
  /** The business date, YYYY-MM-DD. */
  date: string;
  result: string;
  /** When the agent entered it, by the phone's clock. */
  enteredAt: string;
  state: SubmissionState;
  attempts: number;
  /**
   * Whether the list shows it. Not while its first attempt runs: the form reports that one, and only
   * a submission that could not be sent at once (or outlived its page) becomes the list's.
   */
  listed: boolean;
  /** The value of the waiting entry this one replaced (one declaration per ghadi and date). */
  replaced?: string | undefined;
  /** saved: the declaration's time on the server (ISO 8601 UTC). */
  savedAt?: string | undefined;
  /** refused: the server's reason; waiting: why the last attempt did not get through. */
  message?: string | undefined;
}

export interface NewSubmission {
  ghadiId: number;
  ghadiName: string;
  date: string;
  result: string;
}

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

/** A saved entry stays in the list this long after the page opens again, unless dismissed. */
const SAVED_KEPT_MS = 24 * 60 * 60_000;

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
   * entry is listed, and a saved one is forgotten after SAVED_KEPT_MS.
   */
  async reopen(): Promise<void> {
    const db = await this.db();
    const tx = db.transaction(STORE, 'readwrite');
    const now = this.now();
    for (const entry of await tx.store.index(BY_USER).getAll(this.range())) {
      const expired =
        entry.state === 'saved' && entry.savedAt && now - Date.parse(entry.savedAt) > SAVED_KEPT_MS;
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

  /** Adds the entry after the user's last, in place of a waiting one for the same ghadi and date. */
  async add(input: NewSubmission): Promise<Submission> {
    const db = await this.db();
    const tx = db.transaction(STORE, 'readwrite');
    const existing = await tx.store.index(BY_USER).getAll(this.range());
    const replaced = existing.filter(
      (entry) => entry.state === 'waiting' && entry.ghadiId === input.ghadiId && entry.date === input.date,
    );
    for (const entry of replaced) await tx.store.delete(entry.key);
    const last = replaced.at(-1);
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
      listed: replaced.some((entry) => entry.listed),
      replaced: last?.result,
    };
    await tx.store.put(entry);
    await tx.done;
    return entry;
  }

  /**
   * The first waiting entry, marked as being sent, in one transaction: a replacement stored meanwhile
   * (or another tab of the app) cannot take it between the look and the mark.
   */
  async claimNext(): Promise<Submission | undefined> {
    const db = await this.db();
    const tx = db.transaction(STORE, 'readwrite');
    const next = (await tx.store.index(BY_USER).getAll(this.range())).find(
      (entry) => entry.state === 'waiting',
    );
    const sending: Submission | undefined = next && {
      ...next,
      state: 'sending',
      attempts: next.attempts + 1,
    };
    if (sending) await tx.store.put(sending);
    await tx.done;
    return sending;
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

  /** Removes a saved or refused entry of the user's; one still to be sent stays. */
  async dismiss(key: string): Promise<void> {
    const db = await this.db();
    const entry = await db.get(STORE, key);
    if (entry && entry.userId === this.userId && (entry.state === 'saved' || entry.state === 'refused')) {
      await db.delete(STORE, key);
    }
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
