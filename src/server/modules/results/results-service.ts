import type { YearChartResult } from '../../../shared/chart-grids.js';
import { addDays, businessDateOf, businessDateToIso, todayInZone } from '../../../shared/dates.js';
import type { Pagination } from '../../../shared/schemas/common.js';
import type {
  AgentHistoryQuery,
  PublicResultRecord,
  ResultListQuery,
  ResultRecord,
  ResultSubmitInput,
} from '../../../shared/schemas/results.js';
import { isUniqueViolation } from '../../db/database.js';
import { BadRequestError, ForbiddenError, NotFoundError } from '../../errors.js';
import { OneAtATime } from '../../lib/one-at-a-time.js';
import { recordIds } from '../../lib/record-ids.js';
import type { Activity, ActivityRecorder, Actor } from '../activity/activity-recorder.js';
import { changedFields, fieldValues, summaryOf } from '../activity/activity-summary.js';
import type { AssignmentsRepository } from '../assignments/assignments-repository.js';
import type { AuthenticatedUser } from '../auth/session-service.js';
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
import type { ChartPeriods, ResultsChartRepository } from './results-chart-repository.js';
import type {
  PageRequest,
  ResultFilter,
  ResultRow,
  ResultsListRepository,
} from './results-list-repository.js';
import type { ResultsWriteRepository, UpsertOutcome } from './results-write-repository.js';

function toPublicRecord(row: ResultRow): PublicResultRecord {
  return {
    ...recordIds(row.result_id),
    GID: row.gid,
    Name: row.name_en,
    Result: row.value,
    DateTime: businessDateToIso(row.result_date),
    Date: row.result_date,
    isActive: row.is_active === 1,
    Corrected: row.previous_value !== null,
    Previous: row.previous_value,
    DeclaredAt: row.declared_at,
  };
}

function toAdminRecord(row: ResultRow): ResultRecord {
  return {
    ...toPublicRecord(row),
    CreatedById: row.created_by,
    CreatedByName: row.author_display_name ?? row.author_username ?? '',
    UpdatedAt: row.updated_at,
  };
}

/** A declared or corrected result as the activity trail names it: its ghadi and date, and the values. */
function resultActivity(row: ResultRow, outcome: UpsertOutcome): Activity {
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

export interface PagedResults {
  data: Array<ResultRecord | PublicResultRecord>;
  pagination: Pagination;
}

/** Rows read and sent at a time by the unpaged admin list: a few milliseconds of work each. */
const UNPAGED_CHUNK_SIZE = 500;

const AGENT_DATE_WINDOW_MESSAGE =
  'Agents may only enter results for today or yesterday; ask an admin to correct older dates';

/** Agents declare and correct today's and yesterday's results only (docs/decisions/0006-agent-result-window.md). */
function isWithinAgentWindow(date: string, timeZone: string): boolean {
  const today = todayInZone(timeZone);
  return date === today || date === addDays(today, -1);
}

/** The route an Idempotency-Key's request hash names (a key sent to another route is another request). */
const SUBMIT_ROUTE = 'POST /api/agent/my-ghadi/update-result';

/** A submission's answer: its status and body, as sent the first time and to every retry with its key. */
export interface Submitted extends StoredAnswer {
  status: 200;
  body: { success: true; message: string; data: ResultRecord | PublicResultRecord };
}

export interface ResultsServiceNeeds {
  writes: ResultsWriteRepository;
  lists: ResultsListRepository;
  charts: ResultsChartRepository;
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

export class ResultsService {
  private readonly unpagedLists = new OneAtATime();

  private readonly writes: ResultsWriteRepository;
  private readonly lists: ResultsListRepository;
  private readonly charts: ResultsChartRepository;
  private readonly ghadis: GhadisService;
  private readonly assignments: AssignmentsRepository;
  private readonly timeZone: string;
  private readonly changes: ChangeLog;
  private readonly declarations: DeclarationLog;
  private readonly keys: IdempotencyKeys;
  private readonly activity: ActivityRecorder;
  private readonly onDeclared: (source: 'admin' | 'agent') => void;

  constructor(needs: ResultsServiceNeeds) {
    this.writes = needs.writes;
    this.lists = needs.lists;
    this.charts = needs.charts;
    this.ghadis = needs.ghadis;
    this.assignments = needs.assignments;
    this.timeZone = needs.timeZone;
    this.changes = needs.changes;
    this.declarations = needs.declarations;
    this.keys = needs.keys;
    this.activity = needs.activity;
    this.onDeclared = needs.onDeclared ?? (() => {});
  }

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
    const answered = keyed && (await this.keys.answerOf(keyed));
    if (answered) return answered as Submitted;
    try {
      return await this.declare(actor, input, keyed);
    } catch (error) {
      // A request with the same key stored its answer first (this one's writes are rolled back).
      if (keyed && isUniqueViolation(error)) {
        const stored = await this.keys.answerOf(keyed);
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
    const date = businessDateOf(input.dateTime, this.timeZone);
    if (!date) {
      throw new BadRequestError(
        'dateTime: Must be a date (YYYY-MM-DD), a local date-time or an ISO timestamp',
      );
    }
    const { earliest, latest } = adminDateRange(this.timeZone);
    if (date < earliest || date > latest) {
      throw new BadRequestError(`dateTime: Must be between ${earliest} and ${latest}`);
    }
    if (actor.userType === 'agent' && !isWithinAgentWindow(date, this.timeZone)) {
      throw new ForbiddenError(AGENT_DATE_WINDOW_MESSAGE);
    }
    if (actor.userType === 'agent' && !(await this.assignments.isAssigned(actor.userId, input.ghadiId))) {
      throw new ForbiddenError('This ghadi is not assigned to you');
    }
    await this.ghadis.requireLive(input.ghadiId);
    const submitted = { gid: input.ghadiId, date, value: input.result, userId: actor.userId };
    const { answer } = await this.changes.write(
      async (trx) => {
        if (keyed) await this.keys.prepare(trx, keyed);
        const now = new Date().toISOString();
        const outcome = await this.writes.upsert(trx, { ...submitted, now });
        const { gid, value, userId } = submitted;
        const [entry] =
          outcome.kind === 'unchanged'
            ? []
            : await this.declarations.append(trx, [
                { gid, date, value, previous: outcome.previous, declaredAt: now, declaredBy: userId },
              ]);
        // Read in the transaction: the answer is this write's, and is stored with it under the key.
        const row = await this.lists.findOne(input.ghadiId, date, false, trx);
        if (!row) throw new NotFoundError('Result not found');
        // The ghadi is live (checked above), so the public sees the row as written.
        const shown = entry && { result: toPublicRecord(row), declaration: { ...entry, Name: row.name_en } };
        const answer: Submitted = {
          status: 200,
          body: {
            success: true,
            message: 'Result updated',
            data: actor.userType === 'admin' ? toAdminRecord(row) : toPublicRecord(row),
          },
        };
        if (keyed) await this.keys.store(trx, keyed, answer);
        if (outcome.kind !== 'unchanged')
          await this.activity.record(trx, actor, resultActivity(row, outcome));
        return { outcome, answer, shown };
      },
      // The same value sent again changes nothing anyone sees.
      ({ outcome, shown }) =>
        outcome.kind === 'unchanged'
          ? []
          : [{ kind: 'result', gid: input.ghadiId, date, created: outcome.kind === 'created', shown }],
    );
    this.onDeclared(actor.userType);
    return answer;
  }

  /**
   * One page of the list. Admins see who declared each result, and their search also matches
   * authors; everyone else sees public fields of live ghadis only.
   */
  async page(query: ResultListQuery, asAdmin: boolean, defaultLimit: number): Promise<PagedResults> {
    const request = { page: query.page ?? 1, limit: query.limit ?? defaultLimit };
    return this.pageOf(this.filterOf(query, asAdmin), request, asAdmin ? toAdminRecord : toPublicRecord);
  }

  /**
   * The admin's whole list (no page asked for), in chunks of records, one such list at a time in this
   * process: ten at once would each take a turn of the event loop per chunk, and a public read
   * waiting behind all ten would wait ten chunks (decision 0007).
   */
  everyAdminRecord(query: ResultListQuery): AsyncGenerator<ResultRecord[]> {
    const filter = this.filterOf(query, true);
    return this.unpagedLists.run(() => this.adminChunks(filter));
  }

  private async *adminChunks(filter: ResultFilter): AsyncGenerator<ResultRecord[]> {
    for await (const rows of this.lists.chunks(filter, UNPAGED_CHUNK_SIZE)) yield rows.map(toAdminRecord);
  }

  /** A month's public results (YYYY-MM), newest first. */
  async publicMonth(month: string): Promise<PublicResultRecord[]> {
    return (await this.lists.list({ month, liveGhadisOnly: true })).map(toPublicRecord);
  }

  private async pageOf(
    filter: ResultFilter,
    { page, limit }: PageRequest,
    toRecord: (row: ResultRow) => ResultRecord | PublicResultRecord,
  ): Promise<PagedResults> {
    const { rows, total } = await this.lists.page(filter, { page, limit });
    return {
      data: rows.map(toRecord),
      pagination: { page, limit, total, totalPages: Math.max(1, Math.ceil(total / limit)) },
    };
  }

  private filterOf(query: ResultListQuery, asAdmin: boolean): ResultFilter {
    return {
      month: query.month,
      search: query.q || undefined,
      searchAuthors: asAdmin,
      liveGhadisOnly: !asAdmin,
    };
  }

  /**
   * A live ghadi's public results, newest first: of all time, or of one month when a month or a year
   * is given (the other defaulting to the current one in the site's time zone).
   */
  async listForGhadi(gid: number, month?: number, year?: number): Promise<PublicResultRecord[]> {
    const filter: ResultFilter = { gids: [gid], liveGhadisOnly: true };
    if (month !== undefined || year !== undefined) {
      const today = todayInZone(this.timeZone);
      const chosenYear = year ?? Number(today.slice(0, 4));
      const chosenMonth = month ?? Number(today.slice(5, 7));
      filter.month = `${chosenYear}-${String(chosenMonth).padStart(2, '0')}`;
    }
    return (await this.lists.list(filter)).map(toPublicRecord);
  }

  /** A ghadi's results of a year (YYYY) as its chart shows them. */
  async yearCells(gid: number, year: number): Promise<YearChartResult[]> {
    return (await this.charts.yearCells(gid, year)).map((row) => ({
      GID: gid,
      Date: row.result_date,
      Result: row.value,
      Corrected: row.previous_value !== null,
    }));
  }

  /** Each live ghadi's years with results, and the months with results of any live ghadi. */
  chartPeriods(): Promise<ChartPeriods> {
    return this.charts.chartPeriods();
  }

  /** One result as the public lists show it, or null when they do not show it. */
  async findPublic(gid: number, date: string): Promise<PublicResultRecord | null> {
    const row = await this.lists.findOne(gid, date, true);
    return row ? toPublicRecord(row) : null;
  }

  /** An agent's history, a page at a time: results of its assigned ghadis, or of one of them. */
  async agentHistory(actor: AuthenticatedUser, query: AgentHistoryQuery): Promise<PagedResults> {
    const assigned = await this.assignments.assignedGids(actor.userId);
    if (query.ghadiId !== undefined && !assigned.includes(query.ghadiId)) {
      throw new ForbiddenError('This ghadi is not assigned to you');
    }
    const filter: ResultFilter = {
      gids: query.ghadiId === undefined ? assigned : [query.ghadiId],
      search: query.q || undefined,
      liveGhadisOnly: true,
    };
    return this.pageOf(filter, { page: query.page, limit: query.limit }, toPublicRecord);
  }

  count(): Promise<number> {
    return this.lists.countAll();
  }
}
