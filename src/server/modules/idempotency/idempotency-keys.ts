import { createHash } from 'node:crypto';
import type { Executor } from '../../db/database.js';
import { TooManyRequestsError, UnprocessableEntityError } from '../../errors.js';
import type { Now } from '../../lib/clock.js';
import type { IdempotencyKeysRepository } from './idempotency-keys-repository.js';

const HOUR_MS = 60 * 60 * 1000;

/**
 * How long a key is kept with its answer, at least: the agent's window (today and yesterday) and a
 * day more. A phone may replay a submission as long as its date is in the window; a key gone before
 * that would let the replay write its old value over a correction made since (issue 40).
 */
export const IDEMPOTENCY_KEY_TTL_MS = 72 * HOUR_MS;

/** Keys one user may store in a day: far above a day of real submissions, and a bound on a runaway client. */
export const MAX_KEYS_PER_USER_PER_DAY = 1000;

/**
 * Expired keys one keyed write deletes, at most: each write stores one key, so the table holds about
 * three days of keys, and no write pays for a backlog (after a long stop, say) all at once.
 */
const PRUNE_BATCH = 100;

const OTHER_REQUEST =
  'Idempotency-Key: this key was already used for a different submission; send a new key with each new submission';

/** A request sent with an Idempotency-Key: whose key, and a hash of what was asked. */
export interface KeyedRequest {
  userId: number;
  key: string;
  requestHash: string;
}

/** An answer as it was sent: sent again as it is to a retry. */
export interface StoredAnswer {
  status: number;
  body: unknown;
}

/**
 * The hash a key's request is recognised by: the route and its canonical body (validated, trimmed,
 * in a fixed order), so the same submission retried matches even if a client spaced it otherwise.
 */
export function requestHashOf(route: string, canonicalBody: unknown): string {
  return createHash('sha256')
    .update(`${route}\n${JSON.stringify(canonicalBody)}`)
    .digest('hex');
}

/**
 * Idempotency-Keys and their answers, in the database so every process agrees (decision 0010). A key
 * is stored in the transaction of the write it answers, so it exists exactly when that write was
 * committed; a failed request stores nothing, and a retry of it runs again.
 */
export class IdempotencyKeys {
  constructor(
    private readonly repository: IdempotencyKeysRepository,
    private readonly now: Now,
  ) {}

  /** Keys created before this instant count as never sent. */
  private since(): string {
    return new Date(this.now() - IDEMPOTENCY_KEY_TTL_MS).toISOString();
  }

  /** The answer stored for the request's key, or null; 422 when the key was sent with another request. */
  async answerOf(request: KeyedRequest): Promise<StoredAnswer | null> {
    const row = await this.repository.find(request.userId, request.key, this.since());
    if (!row) return null;
    if (row.request_hash !== request.requestHash) throw new UnprocessableEntityError(OTHER_REQUEST);
    return { status: row.status_code, body: JSON.parse(row.answer) };
  }

  /**
   * The keyed write's first step, in its transaction: the request's own expired key and a batch of
   * others go. (First, and a write: on SQLite the transaction then holds the write lock from its start.)
   */
  async prepare(trx: Executor, request: KeyedRequest): Promise<void> {
    await this.repository.prune(trx, request.userId, request.key, this.since(), PRUNE_BATCH);
    const dayAgo = this.now() - 24 * HOUR_MS;
    const { count, oldest } = await this.repository.storedSince(
      trx,
      request.userId,
      new Date(dayAgo).toISOString(),
    );
    if (count >= MAX_KEYS_PER_USER_PER_DAY) {
      // Free again when the oldest key of the day is a day old.
      const wait = oldest === null ? 3600 : Math.ceil((Date.parse(oldest) - dayAgo) / 1000);
      throw new TooManyRequestsError(
        `Idempotency-Key: at most ${MAX_KEYS_PER_USER_PER_DAY} keyed submissions a day per user`,
        Math.max(1, wait),
      );
    }
  }

  /**
   * Stores the answer in the write's transaction. A concurrent request with the same key that stored
   * first makes this fail with a unique violation: the caller's transaction rolls back, and it answers
   * with what the other stored.
   */
  store(trx: Executor, request: KeyedRequest, answer: StoredAnswer): Promise<void> {
    return this.repository.insert(trx, {
      user_id: request.userId,
      key: request.key,
      request_hash: request.requestHash,
      status_code: answer.status,
      answer: JSON.stringify(answer.body),
      created_at: new Date(this.now()).toISOString(),
    });
  }
}
