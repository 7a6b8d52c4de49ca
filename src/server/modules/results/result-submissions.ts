import { addDays, businessDateOf, todayInZone } from '../../../shared/dates.js';
import { completesOpenHalf, stepOf, weekdayOf } from '../../../shared/matka.js';
import { resolveSubmission } from '../../../shared/matka-submissions.js';
import type { PublicResultRecord, ResultRecord, ResultSubmitInput } from '../../../shared/schemas/results.js';
import { isUniqueViolation } from '../../db/database.js';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../../errors.js';
import type { Activity, ActivityRecorder, Actor } from '../activity/activity-recorder.js';
import { changedFields, fieldValues, summaryOf } from '../activity/activity-summary.js';
import type { AssignmentsRepository } from '../assignments/assignments-repository.js';
import type { ChangeLog } from '../changes/change-log.js';
import type { DeclarationLog } from '../declarations/declaration-log.js';
import type { GhadisService } from '../ghadis/ghadis-service.js';
import {
  type IdempotencyKeys,
  type KeyedRequest,
  requestHashOf,
  type StoredAnswer,
} from '../idempotency/idempotency-keys.js';
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
export interface Submitted extends StoredAnswer {
  status: 200;
  body: { success: true; message: string; data: ResultRecord | PublicResultRecord };
}

export interface ResultSubmissionsNeeds {
  writes: ResultsWriteRepository;
  lists: ResultsListRepository;
  ghadis: GhadisService;
  assignments: AssignmentsRepository;
  timeZone: string;
  changes: ChangeLog;
  declarations: DeclarationLog;
  keys: IdempotencyKeys;
  activity: ActivityRecorder;
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
    const keyed: KeyedRequest | null =
      idempotencyKey === undefined
        ? null
        : {
            userId: actor.userId,
            key: idempotencyKey,
            requestHash: requestHashOf(SUBMIT_ROUTE, [input.ghadiId, input.result, input.dateTime]),
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
    const { answer } = await this.needs.changes.write(
      async (trx) => {
        if (keyed) await this.needs.keys.prepare(trx, keyed);
        const now = new Date().toISOString();
        const gid = input.ghadiId;
        const userId = actor.userId;
        // Pannas are read against the day's stored value (an open half, a whole day), held until commit.
        const current = kind === 'jodi' ? null : await this.needs.writes.current(trx, gid, date);
        const resolved = resolveSubmission(kind, input.result, current);
        if (!resolved.ok) throw new BadRequestError(`result: ${resolved.message}`);
        const value = resolved.value;
        const completes = kind === 'open-close' && completesOpenHalf(current, value);
        const outcome = await this.needs.writes.upsert(trx, { gid, date, value, userId, now, completes });
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
        const row = await this.needs.lists.findOne(input.ghadiId, date, false, trx);
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
        if (outcome.kind !== 'unchanged')
          await this.needs.activity.record(trx, actor, resultActivity(row, outcome));
        return { outcome, answer, shown };
      },
      // The same value sent again changes nothing anyone sees.
      ({ outcome, shown }) =>
        outcome.kind === 'unchanged'
          ? []
          : [{ kind: 'result', gid: input.ghadiId, date, created: outcome.kind === 'created', shown }],
    );
    this.needs.onDeclared?.(actor.userType);
    return answer;
  }
}
