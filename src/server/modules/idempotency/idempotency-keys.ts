import { createHash } from 'node:crypto';
import type { Executor } from '../../db/database.js';
import { UnprocessableEntityError } from '../../errors.js';
import type { Now } from '../../lib/clock.js';
import type { IdempotencyKeysRepository } from './idempotency-keys-repository.js';

/** How long a key is kept with its answer, at least: a phone that lost the answer may retry for a day. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Expired keys one keyed write deletes, at most: each write stores one key, so the table holds about
 * a day of keys, and no write pays for a backlog (after a long stop, say) all at once.
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
  prepare(trx: Executor, request: KeyedRequest): Promise<void> {
    return this.repository.prune(trx, request.userId, request.key, this.since(), PRUNE_BATCH);
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
