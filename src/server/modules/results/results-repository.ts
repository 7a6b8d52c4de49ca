import type { Database, Executor } from '../../db/database.js';
import { type ChartCellRow, type ChartPeriods, ResultsChartRepository } from './results-chart-repository.js';
import {
  type PageRequest,
  type ResultFilter,
  type ResultRow,
  ResultsListRepository,
} from './results-list-repository.js';
import {
  ResultsWriteRepository,
  type SubmittedResult,
  type UpsertOutcome,
} from './results-write-repository.js';

// Where the public site's modules (public-data, read-model, site-files) import it from.
export type { ChartPeriods } from './results-chart-repository.js';

/**
 * The results table's queries as ResultsService and ResultsCsvService are given them: one object over
 * the writes, the list reads and the chart reads, each its own repository. It builds them from the
 * database itself, so that the services' constructors and app.ts, which build it, need not name each.
 */
export class ResultsRepository {
  private readonly writes: ResultsWriteRepository;
  private readonly lists: ResultsListRepository;
  private readonly charts: ResultsChartRepository;

  constructor(database: Database) {
    this.writes = new ResultsWriteRepository(database);
    this.lists = new ResultsListRepository(database);
    this.charts = new ResultsChartRepository(database);
  }

  upsert(trx: Executor, input: SubmittedResult): Promise<UpsertOutcome> {
    return this.writes.upsert(trx, input);
  }

  findOne(
    gid: number,
    date: string,
    liveGhadisOnly?: boolean,
    db?: Executor,
  ): Promise<ResultRow | undefined> {
    return this.lists.findOne(gid, date, liveGhadisOnly, db);
  }

  list(filter: ResultFilter): Promise<ResultRow[]> {
    return this.lists.list(filter);
  }

  page(filter: ResultFilter, request: PageRequest): Promise<{ rows: ResultRow[]; total: number }> {
    return this.lists.page(filter, request);
  }

  chunks(filter: ResultFilter, size: number): AsyncGenerator<ResultRow[]> {
    return this.lists.chunks(filter, size);
  }

  countAll(): Promise<number> {
    return this.lists.countAll();
  }

  chartPeriods(): Promise<ChartPeriods> {
    return this.charts.chartPeriods();
  }

  yearCells(gid: number, year: number): Promise<ChartCellRow[]> {
    return this.charts.yearCells(gid, year);
  }
}
