import { addDays, businessDateOf, todayInZone } from '../../../shared/dates.js';
import { completesOpenHalf, stepOf, weekdayOf } from '../../../shared/matka.js';
import { resolveSubmission } from '../../../shared/matka-submissions.js';
import {
  MISMATCH_MESSAGE,
  type MismatchAnswer,
  PENDING_MESSAGE,
  type PendingAnswer,
} from '../../../shared/schemas/pending.js';
import type { PublicResultRecord, ResultRecord, ResultSubmitInput } from '../../../shared/schemas/results.js';
import { type Executor, isUniqueViolation } from '../../db/database.js';
import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  TooManyRequestsError,
} from '../../errors.js';
import type { PerMinuteLimit } from '../../lib/per-minute-limit.js';
import type { Activity, ActivityRecorder, Actor } from '../activity/activity-recorder.js';
import { changedFields, fieldValues, summaryOf } from '../activity/activity-summary.js';
import type { AssignmentsRepository } from '../assignments/assignments-repository.js';
import type { ChangeLog } from '../changes/change-log.js';
import type { DeclarationLog } from '../declarations/declaration-log.js';
import type { GhadisService } from '../ghadis/ghadis-service.js';
import { type IdempotencyKeys, type KeyedRequest, requestHashOf } from '../idempotency/idempotency-keys.js';
import type { NotificationOutbox } from '../notifications/notification-outbox.js';
import type { PendingRepository } from '../pending/pending-repository.js';
import { adminDateRange } from './result-dates.js';
import { toAdminRecord, toPublicRecord } from './result-records.js';
import type { ResultRow, ResultsListRepository } from './results-list-repository.js';
import type { ResultsWriteRepository, UpsertOutcome } from './results-write-repository.js';

/** A declared or corrected result as the activity trail names it: its ghadi and date, and the values. */
function resultActivity(row: ResultRow, outcome: UpsertOutcome): Activity {
  if (outcome.kind === 'completed') {
    return {
      action: 'result_declare',
      target: { id: row.result_id, name: `${row.name_en} ${row.result_date}` },
      summary: summaryOf(changedFields({ Result: outcome.previous }, { Result: row.value })),
    };
  }
  return {
    action: outcome.kind === 'corrected' ? 'result_correct' : 'result_declare',
    target: { id: row.result_id, name: `${row.name_en} ${row.result_date}` },
    summary: summaryOf(
      outcome.kind === 'corrected'
        ? changedFields({ Result: outcome.previous }, { Result: row.value })
        : fieldValues({ Result: row.value }),
    ),
  };
}

const AGENT_DATE_WINDOW_MESSAGE =
  'Agents may only enter results for today or yesterday; ask an admin to correct older dates';

/** Agents declare and correct today's and yesterday's results only (docs/decisions/0006-agent-result-window.md). */
function isWithinAgentWindow(date: string, timeZone: string): boolean {
  const today = todayInZone(timeZone);
  return date === today || date === addDays(today, -1);
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const weekdayName = (date: string) => WEEKDAYS[weekdayOf(date)] ?? date;

/** The route an Idempotency-Key's request hash names (a key sent to another route is another request). */
const SUBMIT_ROUTE = 'POST /api/agent/my-ghadi/update-result';

/** A submission's answer: its status and body, as sent the first time and to every retry with its key. */
export type Submitted =
  | { status: 200; body: { success: true; message: string; data: ResultRecord | PublicResultRecord } }
  /** Held for a second person (decision 0020): nothing is public yet. */
  | { status: 202; body: PendingAnswer }
  /** Held, but another person's held value differs: an admin decides. */
  | { status: 409; body: MismatchAnswer };

const HELD: Submitted = {
  status: 202,
  body: { success: true, pending: true, message: PENDING_MESSAGE },
};
const MISMATCHED: Submitted = {
  status: 409,
  body: { success: false, mismatch: true, message: MISMATCH_MESSAGE },
};

/** What a submission on a ghadi needing two people did with its value. */
type Confirmation = 'confirmed' | 'held' | 'mismatch';

export interface ResultSubmissionsNeeds {
  writes: ResultsWriteRepository;
  lists: ResultsListRepository;
  ghadis: GhadisService;
  assignments: AssignmentsRepository;
  timeZone: string;
  changes: ChangeLog;
  declarations: DeclarationLog;
  keys: IdempotencyKeys;
  pending: PendingRepository;
  /** Submissions each user may send a minute (SUBMISSIONS_PER_USER_PER_MINUTE), keyed by user id. */
  perUser: PerMinuteLimit;
  activity: ActivityRecorder;
  /** Declarations and corrections to notify subscribers of, enqueued with the write (decision 0025). */
  notifications?: NotificationOutbox;
  /** Told of each accepted submission, by the submitter's role (the metrics). */
  onDeclared?: (source: 'admin' | 'agent') => void;
}

/**
 * A declared result, as an agent or an admin submits it: checked (dates, the agent's window and
 * assignments, a live ghadi), written with its log entry and its change in one transaction, and
 * answered once per Idempotency-Key (decision 0010).
 */
export class ResultSubmissions {
  constructor(private readonly needs: ResultSubmissionsNeeds) {}

  /**
   * Stores a declaration and answers the stored result: with its author for an admin, with the public
   * fields for an agent, changed or not (the same value again may be an admin's, and who declared
   * what is the admin's to see). With an Idempotency-Key, a request already answered is answered the
   * same again and writes nothing (decision 0010).
   */
  async submit(actor: Actor, input: ResultSubmitInput, idempotencyKey?: string): Promise<Submitted> {
    if (!this.needs.perUser.take(String(actor.userId))) {
      throw new TooManyRequestsError(
        'Too many submissions this minute; wait a moment and send again',
        this.needs.perUser.secondsToNextMinute(),
      );
    }
    const keyed: KeyedRequest | null =
      idempotencyKey === undefined
        ? null
        : {
            userId: actor.userId,
            key: idempotencyKey,
            requestHash: requestHashOf(SUBMIT_ROUTE, [
              input.ghadiId,
              input.result,
              input.dateTime,
              // Left out when absent, so keys stored before Expected existed still match their retries.
              ...(input.Expected === undefined ? [] : [input.Expected]),
            ]),
          };
    // Before the checks: a retry gets its first answer even if, since, the date left the agent's window.
    const answered = keyed && (await this.needs.keys.answerOf(keyed));
    if (answered) return answered as Submitted;
    try {
      return await this.declare(actor, input, keyed);
    } catch (error) {
      // A request with the same key stored its answer first (this one's writes are rolled back).
      if (keyed && isUniqueViolation(error)) {
        const stored = await this.needs.keys.answerOf(keyed);
        if (stored) return stored as Submitted;
      }
      throw error;
    }
  }

  private async declare(
    actor: Actor,
    input: ResultSubmitInput,
    keyed: KeyedRequest | null,
  ): Promise<Submitted> {
    const date = businessDateOf(input.dateTime, this.needs.timeZone);
    if (!date) {
      throw new BadRequestError(
        'dateTime: Must be a date (YYYY-MM-DD), a local date-time or an ISO timestamp',
      );
    }
    const { earliest, latest } = adminDateRange(this.needs.timeZone);
    if (date < earliest || date > latest) {
      throw new BadRequestError(`dateTime: Must be between ${earliest} and ${latest}`);
    }
    if (actor.userType === 'agent' && !isWithinAgentWindow(date, this.needs.timeZone)) {
      throw new ForbiddenError(AGENT_DATE_WINDOW_MESSAGE);
    }
    if (
      actor.userType === 'agent' &&
      !(await this.needs.assignments.isAssigned(actor.userId, input.ghadiId))
    ) {
      throw new ForbiddenError('This ghadi is not assigned to you');
    }
    const ghadi = await this.needs.ghadis.requireLive(input.ghadiId);
    // After the window and assignment checks: an agent told "not assigned" learns nothing of closures.
    const closed = await this.needs.ghadis.closedOn(ghadi, date);
    if (closed && actor.userType === 'agent') {
      throw new ConflictError(
        closed === 'holiday'
          ? `${ghadi.name_en} is closed for a holiday on ${date}; ask an admin if a result must be declared`
          : `${ghadi.name_en} does not run on ${weekdayName(date)}s; ask an admin if a result must be declared`,
      );
    }
    const kind = ghadi.kind;
    const gid = input.ghadiId;
    const userId = actor.userId;
    const { answer, published } = await this.needs.changes.write(
      async (trx) => {
        if (keyed) await this.needs.keys.prepare(trx, keyed);
        const now = new Date().toISOString();
        // Read against the day's stored value (an open half, a whole day), held until commit.
        const current = await this.needs.writes.current(trx, gid, date);
        const resolved = resolveSubmission(kind, input.result, kind === 'jodi' ? null : current);
        if (!resolved.ok) throw new BadRequestError(`result: ${resolved.message}`);
        const value = resolved.value;
        if (value !== current && input.Expected !== undefined && input.Expected !== current) {
          throw new ConflictError(
            current === null
              ? `Expected: no result is published for ${ghadi.name_en} on ${date}; nothing was changed`
              : `Expected: the published result for ${ghadi.name_en} on ${date} is now ${current}; nothing was changed`,
          );
        }
        if (ghadi.confirmations === 2 && value !== current) {
          const confirmation = await this.confirm(trx, { gid, date, userId, value, now });
          if (confirmation !== 'confirmed') {
            const held = confirmation === 'held' ? HELD : MISMATCHED;
            if (keyed) await this.needs.keys.store(trx, keyed, held);
            await this.needs.activity.record(trx, actor, {
              action: confirmation === 'held' ? 'result_hold' : 'result_mismatch',
              target: { id: gid, name: `${ghadi.name_en} ${date}` },
              summary: summaryOf(fieldValues({ Result: value })),
            });
            return { answer: held, published: null };
          }
        }
        const completes = kind === 'open-close' && completesOpenHalf(current, value);
        const outcome = await this.needs.writes.upsert(trx, { gid, date, value, userId, now, completes });
        // A value published leaves nothing to confirm (entries of a ghadi set back to one person, too).
        if (outcome.kind !== 'unchanged') await this.needs.pending.clear(trx, gid, date);
        const [entry] =
          outcome.kind === 'unchanged'
            ? []
            : await this.needs.declarations.append(trx, [
                {
                  gid,
                  date,
                  value,
                  previous: outcome.previous,
                  completes,
                  declaredAt: now,
                  declaredBy: userId,
                },
              ]);
        // Read in the transaction: the answer is this write's, and is stored with it under the key.
        const row = await this.needs.lists.findOne(gid, date, false, trx);
        if (!row) throw new NotFoundError('Result not found');
        // The ghadi is live (checked above), so the public sees the row as written.
        const shown = entry && {
          result: toPublicRecord(row),
          declaration: { ...entry, Name: row.name_en, Step: stepOf(kind, entry.Result) },
        };
        const answer: Submitted = {
          status: 200,
          body: {
            success: true,
            message: 'Result updated',
            data: actor.userType === 'admin' ? toAdminRecord(row) : toPublicRecord(row),
          },
        };
        if (keyed) await this.needs.keys.store(trx, keyed, answer);
        if (outcome.kind !== 'unchanged') {
          await this.needs.activity.record(trx, actor, resultActivity(row, outcome));
          const corrected = outcome.kind === 'corrected';
          await this.needs.notifications?.announce(trx, { gid, date, value, corrected, declaredAt: now });
        }
        return { answer, published: { outcome, shown } };
      },
      // The same value sent again, or a value held for a second person, changes nothing anyone sees.
      ({ published }) =>
        !published || published.outcome.kind === 'unchanged'
          ? []
          : [
              {
                kind: 'result',
                gid,
                date,
                created: published.outcome.kind === 'created',
                shown: published.shown,
              },
            ],
    );
    if (published) this.needs.onDeclared?.(actor.userType);
    return answer;
  }

  /**
   * The two-person rule (decision 0020), under the result's lock: another person's held entry of the
   * same value confirms it (the held entries go, and the caller publishes); otherwise the person's
   * entry is held, replacing their own earlier one, and differs from another's when any is held.
   */
  private async confirm(
    trx: Executor,
    entry: { gid: number; date: string; userId: number; value: string; now: string },
  ): Promise<Confirmation> {
    const others = (await this.needs.pending.entriesOf(trx, entry.gid, entry.date)).filter(
      (held) => held.user_id !== entry.userId,
    );
    if (others.some((held) => held.value === entry.value)) return 'confirmed';
    await this.needs.pending.hold(trx, entry);
    return others.length === 0 ? 'held' : 'mismatch';
  }
}
