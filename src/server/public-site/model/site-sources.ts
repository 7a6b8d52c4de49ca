import type { YearChartResult } from '../../../shared/chart-grids.js';
import type { ContentBlockRecord } from '../../../shared/schemas/content-blocks.js';
import type { DeclarationEntry, DeclarationHead } from '../../../shared/schemas/declarations.js';
import type { GhadiRecord } from '../../../shared/schemas/ghadis.js';
import type { HolidayRecord } from '../../../shared/schemas/holidays.js';
import type { PublicResultRecord } from '../../../shared/schemas/results.js';
import { NotFoundError } from '../../errors.js';
import type { ContentBlocksService } from '../../modules/content-blocks/content-blocks-service.js';
import type { DeclarationLog } from '../../modules/declarations/declaration-log.js';
import type { GhadisService } from '../../modules/ghadis/ghadis-service.js';
import type { HolidaysService } from '../../modules/holidays/holidays-service.js';
import type { ChartPeriods } from '../../modules/results/results-chart-repository.js';
import type { ResultsService } from '../../modules/results/results-service.js';

/**
 * What the public site reads, from the same services the rest of the API uses, with "not found" as
 * null instead of an error.
 */
export class SiteSources {
  constructor(
    private readonly ghadis: GhadisService,
    private readonly results: ResultsService,
    private readonly blocks: ContentBlocksService,
    private readonly declarations: DeclarationLog,
    private readonly holidayList: HolidaysService,
  ) {}

  /** Every holiday, past and future. */
  holidays(): Promise<HolidayRecord[]> {
    return this.holidayList.list();
  }

  /** The dates a ghadi is on holiday (its own and every ghadi's) from `from` to `to`: its weekly charts. */
  ghadiHolidays(gid: number, from: string, to: string): Promise<string[]> {
    return this.holidayList.datesOff(gid, from, to);
  }

  /** The log's latest entry of a result: a live event pushes it with the result. */
  declaration(gid: number, date: string): Promise<DeclarationEntry | null> {
    return this.declarations.latestOf(gid, date);
  }

  /** Every live ghadi by OrderId with today's and yesterday's results. */
  ghadiList(): Promise<GhadiRecord[]> {
    return this.ghadis.list();
  }

  /** A month's public results (YYYY-MM; live ghadis only), newest first. */
  monthResults(month: string): Promise<PublicResultRecord[]> {
    return this.results.publicMonth(month);
  }

  /** A ghadi's results of all time or of a month, or null when there are none (the API's 404). */
  async ghadiResults(gid: number, month?: number, year?: number): Promise<PublicResultRecord[] | null> {
    const rows = await this.results.listForGhadi(gid, month, year);
    return rows.length > 0 ? rows : null;
  }

  /** A ghadi's results of a year, as its chart shows them. */
  ghadiYear(gid: number, year: number): Promise<YearChartResult[]> {
    return this.results.yearCells(gid, year);
  }

  /** The declaration log's latest entry. */
  declarationHead(): Promise<DeclarationHead> {
    return this.declarations.head();
  }

  /** The active content blocks' slugs. */
  activeSlugs(): Promise<string[]> {
    return this.blocks.activeSlugs();
  }

  /** Each live ghadi's years with results, and the months with results of any live ghadi (the sitemap). */
  chartPeriods(): Promise<ChartPeriods> {
    return this.results.chartPeriods();
  }

  result(gid: number, date: string): Promise<PublicResultRecord | null> {
    return this.results.findPublic(gid, date);
  }

  /** An active content block, or null. */
  async content(slug: string): Promise<ContentBlockRecord | null> {
    try {
      return await this.blocks.findActiveBySlug(slug);
    } catch (error) {
      if (error instanceof NotFoundError) return null;
      throw error;
    }
  }
}
