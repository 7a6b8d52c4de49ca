import type { YearChartResult } from '../../../shared/chart-grids.js';
import { todayInZone } from '../../../shared/dates.js';
import type { Pagination } from '../../../shared/schemas/common.js';
import type {
  AgentHistoryQuery,
  PublicResultRecord,
  ResultListQuery,
  ResultRecord,
} from '../../../shared/schemas/results.js';
import { ForbiddenError } from '../../errors.js';
import { OneAtATime } from '../../lib/one-at-a-time.js';
import type { AssignmentsRepository } from '../assignments/assignments-repository.js';
import type { AuthenticatedUser } from '../auth/session-service.js';
import { toAdminRecord, toPublicRecord } from './result-records.js';
import type { ChartPeriods, ResultsChartRepository } from './results-chart-repository.js';
import type {
  PageRequest,
  ResultFilter,
  ResultRow,
  ResultsListRepository,
} from './results-list-repository.js';

export interface PagedResults {
  data: Array<ResultRecord | PublicResultRecord>;
  pagination: Pagination;
}

/** Rows read and sent at a time by the unpaged admin list: a few milliseconds of work each. */
const UNPAGED_CHUNK_SIZE = 500;

export interface ResultsServiceNeeds {
  lists: ResultsListRepository;
  charts: ResultsChartRepository;
  assignments: AssignmentsRepository;
  timeZone: string;
}

/** The results as the API lists them: pages, months, a ghadi's, charts, an agent's history. */
export class ResultsService {
  private readonly unpagedLists = new OneAtATime();

  constructor(private readonly needs: ResultsServiceNeeds) {}

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
    for await (const rows of this.needs.lists.chunks(filter, UNPAGED_CHUNK_SIZE))
      yield rows.map(toAdminRecord);
  }

  /** A month's public results (YYYY-MM), newest first. */
  async publicMonth(month: string): Promise<PublicResultRecord[]> {
    return (await this.needs.lists.list({ month, liveGhadisOnly: true })).map(toPublicRecord);
  }

  private async pageOf(
    filter: ResultFilter,
    { page, limit }: PageRequest,
    toRecord: (row: ResultRow) => ResultRecord | PublicResultRecord,
  ): Promise<PagedResults> {
    const { rows, total } = await this.needs.lists.page(filter, { page, limit });
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
      const today = todayInZone(this.needs.timeZone);
      const chosenYear = year ?? Number(today.slice(0, 4));
      const chosenMonth = month ?? Number(today.slice(5, 7));
      filter.month = `${chosenYear}-${String(chosenMonth).padStart(2, '0')}`;
    }
    return (await this.needs.lists.list(filter)).map(toPublicRecord);
  }

  /** A ghadi's results of a year (YYYY) as its chart shows them. */
  async yearCells(gid: number, year: number): Promise<YearChartResult[]> {
    return (await this.needs.charts.yearCells(gid, year)).map((row) => ({
      GID: gid,
      Date: row.result_date,
      Result: row.value,
      Corrected: row.previous_value !== null,
    }));
  }

  /** Each live ghadi's years with results, and the months with results of any live ghadi. */
  chartPeriods(): Promise<ChartPeriods> {
    return this.needs.charts.chartPeriods();
  }

  /** One result as the public lists show it, or null when they do not show it. */
  async findPublic(gid: number, date: string): Promise<PublicResultRecord | null> {
    const row = await this.needs.lists.findOne(gid, date, true);
    return row ? toPublicRecord(row) : null;
  }

  /** An agent's history, a page at a time: results of its assigned ghadis, or of one of them. */
  async agentHistory(actor: AuthenticatedUser, query: AgentHistoryQuery): Promise<PagedResults> {
    const assigned = await this.needs.assignments.assignedGids(actor.userId);
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
    return this.needs.lists.countAll();
  }
}
