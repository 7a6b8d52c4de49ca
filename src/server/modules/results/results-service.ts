import { addDays, businessDateOf, businessDateToIso, todayInZone } from '../../../shared/dates.js';
import type { Pagination } from '../../../shared/schemas/common.js';
import type {
  PublicResultRecord,
  ResultListQuery,
  ResultRecord,
  ResultSubmitInput,
} from '../../../shared/schemas/results.js';
import { BadRequestError, ForbiddenError, NotFoundError } from '../../errors.js';
import type { ChangeFeed } from '../../lib/change-feed.js';
import { recordIds } from '../../lib/record-ids.js';
import type { AuthenticatedUser } from '../auth/session-service.js';
import type { GhadisService } from '../ghadis/ghadis-service.js';
import type { UsermapsRepository } from '../usermaps/usermaps-repository.js';
import type { ResultFilter, ResultRow, ResultsRepository } from './results-repository.js';

function toPublicRecord(row: ResultRow): PublicResultRecord {
  return {
    ...recordIds(row.result_id),
    GID: row.gid,
    Name: row.name_en,
    Result: row.value,
    DateTime: businessDateToIso(row.result_date),
    Date: row.result_date,
    isActive: row.is_active === 1,
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

export interface ResultList {
  data: Array<ResultRecord | PublicResultRecord>;
  pagination?: Pagination;
}

/** Admins may date submissions from 2000 up to tomorrow (a late-night ghadi may be entered early). */
const EARLIEST_DATE = '2000-01-01';

const AGENT_DATE_WINDOW_MESSAGE =
  'Agents may only enter results for today or yesterday; ask an admin to correct older dates';

/** Agents declare and correct today's and yesterday's results only (docs/decisions/0006-agent-result-window.md). */
function isWithinAgentWindow(date: string, timeZone: string): boolean {
  const today = todayInZone(timeZone);
  return date === today || date === addDays(today, -1);
}

export class ResultsService {
  constructor(
    private readonly results: ResultsRepository,
    private readonly ghadis: GhadisService,
    private readonly usermaps: UsermapsRepository,
    private readonly timeZone: string,
    private readonly changes: ChangeFeed,
  ) {}

  async submit(actor: AuthenticatedUser, input: ResultSubmitInput): Promise<ResultRecord> {
    const date = businessDateOf(input.dateTime, this.timeZone);
    if (!date) {
      throw new BadRequestError(
        'dateTime: Must be a date (YYYY-MM-DD), a local date-time or an ISO timestamp',
      );
    }
    const latest = todayInZone(this.timeZone, new Date(Date.now() + 24 * 60 * 60 * 1000));
    if (date < EARLIEST_DATE || date > latest) {
      throw new BadRequestError(`dateTime: Must be between ${EARLIEST_DATE} and ${latest}`);
    }
    if (actor.userType === 'agent' && !isWithinAgentWindow(date, this.timeZone)) {
      throw new ForbiddenError(AGENT_DATE_WINDOW_MESSAGE);
    }
    if (actor.userType === 'agent' && !(await this.usermaps.isAssigned(actor.userId, input.ghadiId))) {
      throw new ForbiddenError('This ghadi is not assigned to you');
    }
    await this.ghadis.requireLive(input.ghadiId);
    await this.results.upsert({
      gid: input.ghadiId,
      date,
      value: input.result,
      userId: actor.userId,
      now: new Date().toISOString(),
    });
    this.changes.publish({ kind: 'result', gid: input.ghadiId, date });
    const row = await this.results.findOne(input.ghadiId, date);
    if (!row) throw new NotFoundError('Result not found');
    return toAdminRecord(row);
  }

  /** Admins see who declared each result; everyone else sees public fields only. */
  async list(query: ResultListQuery, asAdmin: boolean): Promise<ResultList> {
    const filter: ResultFilter = {
      month: query.month,
      search: query.q || undefined,
      searchAuthors: asAdmin,
      liveGhadisOnly: !asAdmin,
    };
    const toRecord = asAdmin ? toAdminRecord : toPublicRecord;
    if (query.page === undefined && query.limit === undefined) {
      return { data: (await this.results.list(filter)).map(toRecord) };
    }
    const page = query.page ?? 1;
    const limit = query.limit ?? 10;
    const [rows, total] = await Promise.all([
      this.results.list(filter, { offset: (page - 1) * limit, limit }),
      this.results.countMatching(filter),
    ]);
    return {
      data: rows.map(toRecord),
      pagination: { page, limit, total, totalPages: Math.max(1, Math.ceil(total / limit)) },
    };
  }

  /** A ghadi's results, newest first, by its lower-cased English name; 404 when there are none. */
  async listForGhadiName(name: string, month?: number, year?: number): Promise<PublicResultRecord[]> {
    const ghadi = await this.ghadis.findByName(name);
    if (!ghadi) throw new NotFoundError(`No data available for ${name}`);
    const filter: ResultFilter = { gids: [ghadi.gid], liveGhadisOnly: true };
    if (month !== undefined || year !== undefined) {
      const today = todayInZone(this.timeZone);
      const chosenYear = year ?? Number(today.slice(0, 4));
      const chosenMonth = month ?? Number(today.slice(5, 7));
      filter.month = `${chosenYear}-${String(chosenMonth).padStart(2, '0')}`;
    }
    const rows = await this.results.list(filter);
    if (rows.length === 0) throw new NotFoundError(`No data available for ${name}`);
    return rows.map(toPublicRecord);
  }

  /** An agent's history: results of its assigned ghadis, or of one of them. */
  async agentHistory(actor: AuthenticatedUser, ghadiId?: number): Promise<PublicResultRecord[]> {
    const assigned = await this.usermaps.assignedGids(actor.userId);
    if (ghadiId !== undefined && !assigned.includes(ghadiId)) {
      throw new ForbiddenError('This ghadi is not assigned to you');
    }
    const rows = await this.results.list({
      gids: ghadiId === undefined ? assigned : [ghadiId],
      liveGhadisOnly: true,
    });
    return rows.map(toPublicRecord);
  }

  count(): Promise<number> {
    return this.results.countAll();
  }
}
