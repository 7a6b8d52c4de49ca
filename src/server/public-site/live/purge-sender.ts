import type { FastifyBaseLogger } from 'fastify';
import { CHANGE_ID_HEADER } from '../edge/answer-delivery.js';
import { SITE_KEY } from '../model/answer-keys.js';

/** The request header that names the keys to purge: what Varnish's xkey module reads (docs/deployment.md). */
export const PURGE_KEYS_HEADER = 'xkey-purge';

/** The first retry after a failed purge, doubled each time up to the last. */
export const PURGE_RETRY = { firstMs: 500, lastMs: 30_000 };
const REQUEST_TIMEOUT_MS = 5000;
/** Past this many purges waiting (the cache has been away long), they become one purge of everything. */
const MAX_WAITING = 1000;

interface Purge {
  id: number;
  keys: readonly string[];
}

export interface PurgeOutcomes {
  /** A purge the cache accepted, or an attempt that failed (it is tried again). */
  purged(outcome: 'sent' | 'failed'): void;
}

/**
 * Tells a shared cache in front of the site (PURGE_URL) what each change of this process's made
 * stale: one `PURGE` request per change, naming its keys, in the order of the changes, each sent
 * after the answers it names are rebuilt here (so the cache's next fetch gets the new ones). Failed
 * sends are tried again with back-off while the cache is away; nobody waits for them. The change id
 * goes along, so that the cache keeps no answer from a process that had not yet read that far.
 */
export class PurgeSender {
  private readonly waiting: Purge[] = [];
  private sending = false;
  private retryMs: number;
  private retryTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly log: Pick<FastifyBaseLogger, 'warn' | 'info'>,
    private readonly outcomes: PurgeOutcomes,
    private readonly retry = PURGE_RETRY,
  ) {
    this.retryMs = retry.firstMs;
  }

  /** Queues the purge of `keys` for change `id`, and tries at once (a new change ends any back-off). */
  send(id: number, keys: readonly string[]): void {
    if (this.closed || keys.length === 0) return;
    this.waiting.push({ id, keys });
    if (this.waiting.length > MAX_WAITING) {
      const latest = this.waiting.at(-1) as Purge;
      this.waiting.splice(0, this.waiting.length, { id: latest.id, keys: [SITE_KEY] });
    }
    if (this.retryTimer) {
      clearTimeout(this.retryTimer);
      this.retryTimer = undefined;
    }
    this.next();
  }

  /** Purges not sent yet (tests, and the metrics' view of a cache that is away). */
  get backlog(): number {
    return this.waiting.length;
  }

  /** Stops: purges still waiting are not sent (the cache keeps those answers until their next change). */
  close(): void {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.waiting.length > 0)
      this.log.warn({ purges: this.waiting.length }, 'stopping with purges the shared cache did not get');
  }

  private next(): void {
    if (this.sending || this.retryTimer || this.closed) return;
    const purge = this.waiting[0];
    if (!purge) return;
    this.sending = true;
    this.request(purge)
      .then((ok) => {
        this.sending = false;
        if (ok) {
          this.outcomes.purged('sent');
          if (this.retryMs !== this.retry.firstMs) this.log.info('the shared cache takes purges again');
          this.retryMs = this.retry.firstMs;
          this.waiting.shift();
          this.next();
          return;
        }
        this.outcomes.purged('failed');
        this.retryTimer = setTimeout(() => {
          this.retryTimer = undefined;
          this.next();
        }, this.retryMs);
        this.retryTimer.unref();
        this.retryMs = Math.min(this.retryMs * 2, this.retry.lastMs);
      })
      .catch(() => {});
  }

  private async request(purge: Purge): Promise<boolean> {
    try {
      const answer = await fetch(this.url, {
        method: 'PURGE',
        headers: { [PURGE_KEYS_HEADER]: purge.keys.join(' '), [CHANGE_ID_HEADER]: String(purge.id) },
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      await answer.arrayBuffer().catch(() => {});
      if (answer.ok) return true;
      this.logFailure(`the shared cache answered ${answer.status}`);
      return false;
    } catch (error) {
      this.logFailure((error as Error).message);
      return false;
    }
  }

  /** Logged once when the cache goes away (then once more when it is back), not at every retry. */
  private logFailure(reason: string): void {
    if (this.retryMs === this.retry.firstMs)
      this.log.warn({ url: this.url, reason }, 'a purge failed; trying again with back-off');
  }
}
