import { type Selectable, sql } from 'kysely';
import type { Database, Executor } from '../../db/database.js';
import type { ActivityLogTable } from '../../db/schema.js';

export type ActivityRow = Selectable<ActivityLogTable>;

/** An entry as the recorder gives it: its places in the trail and its instant are the repository's. */
export type NewActivityRow = Omit<
  ActivityLogTable,
  'activity_id' | 'at' | 'user_seq' | 'action_seq' | 'user_action_seq'
>;

export interface ActivityFilter {
  userId?: number;
  action?: string;
  /** ISO instants: entries at or after `since`, and before `before`. */
  since?: string;
  before?: string;
}

/** The column numbering the entries a filter selects, one by one (see the migration). */
type Place = 'activity_id' | 'user_seq' | 'action_seq' | 'user_action_seq';

function placeOf(filter: ActivityFilter): Place {
  if (filter.userId !== undefined) return filter.action === undefined ? 'user_seq' : 'user_action_seq';
  return filter.action === undefined ? 'activity_id' : 'action_seq';
}

/**
 * Taken before an entry's places are read, held to the end of the change's transaction: entries are
 * numbered one at a time on PostgreSQL (SQLite has one writer anyway). Every writer takes it as the
 * last lock of its transaction (only the change log's comes after), so it closes no cycle.
 */
export const ACTIVITY_LOCK = 'ghadi:activity-log';

/** How far the trail has lost its old details: every entry up to this activity_id (a settings key). */
export const SCRUBBED_THROUGH_SETTING = 'activity_scrubbed_through';

export class ActivityRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  /**
   * Takes the client's details out of up to `batch` entries older than `before` (an ISO instant):
   * the address and user agent of each, and the masked name of a failed sign-in by a name no account
   * has. Entries keep their number, time, author, action and summary, so the trail stays gapless.
   * Since `at` never goes back, the entries before an instant are a range of numbers: one seek finds
   * its end, a stored mark its start, so each call costs the same however long the trail. Answers how
   * many entries it reached (fewer than `batch`: none are left). Processes running it at once redo
   * the same rows, which changes nothing.
   */
  async scrub(before: string, batch: number): Promise<number> {
    const [last, mark] = await Promise.all([
      this.db
        .selectFrom('activity_log')
        .select('activity_id')
        .where('at', '<', before)
        .orderBy('at', 'desc')
        .orderBy('activity_id', 'desc')
        .limit(1)
        .executeTakeFirst(),
      this.db
        .selectFrom('settings')
        .select('value')
        .where('key', '=', SCRUBBED_THROUGH_SETTING)
        .executeTakeFirst(),
    ]);
    const done = Number(mark?.value ?? 0) || 0;
    if (!last || last.activity_id <= done) return 0;
    const upTo = Math.min(last.activity_id, done + batch);
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('activity_log')
        .set({ ip: '', user_agent: '' })
        .where('activity_id', '>', done)
        .where('activity_id', '<=', upTo)
        .execute();
      await trx
        .updateTable('activity_log')
        .set({ target_name: '' })
        .where('activity_id', '>', done)
        .where('activity_id', '<=', upTo)
        .where('action', '=', 'login_failed')
        .where('target_id', 'is', null)
        .execute();
      await trx
        .insertInto('settings')
        .values({ key: SCRUBBED_THROUGH_SETTING, value: String(upTo) })
        .onConflict((conflict) => conflict.column('key').doUpdateSet({ value: String(upTo) }))
        .execute();
    });
    return upTo - done;
  }

  /** Appends an entry in the caller's transaction, numbered after the latest of each of its sequences. */
  async append(trx: Executor, row: NewActivityRow, now: string): Promise<void> {
    if (this.database.dialect === 'postgres')
      await sql`select pg_advisory_xact_lock(hashtext(${ACTIVITY_LOCK}))`.execute(trx);
    const { user_id: userId, action } = row;
    const latest = (place: Place, scope: { userId?: number; action?: string }) =>
      trx
        .selectFrom('activity_log')
        .select(place)
        .$if(scope.userId !== undefined, (query) => query.where('user_id', '=', scope.userId ?? 0))
        .$if(scope.action !== undefined, (query) => query.where('action', '=', scope.action ?? ''))
        .orderBy(place, 'desc')
        .limit(1);
    const hasUser = userId !== null;
    // One round trip: each is one seek down an index.
    const last: Partial<Record<'id' | 'at' | 'action_seq' | 'user_seq' | 'user_action_seq', unknown>> =
      await trx
        .selectNoFrom((eb) => [
          latest('activity_id', {}).as('id'),
          eb.selectFrom('activity_log').select('at').orderBy('activity_id', 'desc').limit(1).as('at'),
          latest('action_seq', { action }).as('action_seq'),
          ...(hasUser
            ? [
                latest('user_seq', { userId }).as('user_seq'),
                latest('user_action_seq', { userId, action }).as('user_action_seq'),
              ]
            : []),
        ])
        .executeTakeFirstOrThrow();
    const next = (value: unknown) => Number(value ?? 0) + 1;
    await trx
      .insertInto('activity_log')
      .values({
        ...row,
        activity_id: next(last.id),
        // Another process's clock may be ahead: the trail's order stays its time order.
        at: typeof last.at === 'string' && last.at > now ? last.at : now,
        action_seq: next(last.action_seq),
        user_seq: hasUser ? next(last.user_seq) : null,
        user_action_seq: hasUser ? next(last.user_action_seq) : null,
      })
      .execute();
  }

  /**
   * One page of the entries a filter selects, newest first, and how many it selects. Their places
   * run without gaps, so the range is known from the latest place before each end of the dates (one
   * seek each), and the page is a range of places: the same cost at any depth and any size.
   */
  async page(
    filter: ActivityFilter,
    page: number,
    limit: number,
  ): Promise<{ rows: ActivityRow[]; total: number }> {
    const place = placeOf(filter);
    const selected = () =>
      this.db
        .selectFrom('activity_log')
        .$if(filter.userId !== undefined, (query) => query.where('user_id', '=', filter.userId ?? 0))
        .$if(filter.action !== undefined, (query) => query.where('action', '=', filter.action ?? ''));
    const latestBefore = async (instant: string | undefined): Promise<number> => {
      const row = await selected()
        .select(place)
        .$if(instant !== undefined, (query) => query.where('at', '<', instant ?? ''))
        .orderBy('at', 'desc')
        .orderBy(place, 'desc')
        .limit(1)
        .executeTakeFirst();
      return Number(row?.[place] ?? 0);
    };
    const [newest, beforeFirst] = await Promise.all([
      latestBefore(filter.before),
      filter.since === undefined ? 0 : latestBefore(filter.since),
    ]);
    const total = Math.max(0, newest - beforeFirst);
    const highest = newest - (page - 1) * limit;
    const lowest = Math.max(beforeFirst + 1, highest - limit + 1);
    if (highest < lowest) return { rows: [], total };
    const rows = await selected()
      .selectAll()
      .where(place, '>=', lowest)
      .where(place, '<=', highest)
      .orderBy(place, 'desc')
      .execute();
    return { rows, total };
  }
}
