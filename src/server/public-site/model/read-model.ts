import type { YearChartResult } from '../../../shared/chart-grids.js';
import { addDays } from '../../../shared/dates.js';
import { BANNER_SLUG, BLOG_SLUG } from '../../../shared/home-content-blocks.js';
import { utcYearMonth } from '../../../shared/month-tables.js';
import { foldName, ghadiAddressed, indexNames, type NameIndex } from '../../../shared/names.js';
import type { GhadiNames, HomePageData, PublicGhadi } from '../../../shared/public-page-data.js';
import type { ContentBlockRecord } from '../../../shared/schemas/content-blocks.js';
import type { DeclarationHead } from '../../../shared/schemas/declarations.js';
import type { GhadiRecord } from '../../../shared/schemas/ghadis.js';
import type { HolidayRecord } from '../../../shared/schemas/holidays.js';
import type { PublicResultRecord } from '../../../shared/schemas/results.js';
import { SITE_NAME } from '../../../shared/site.js';
import type { ChartPeriods } from '../../modules/results/results-chart-repository.js';
import type { AnswerCache } from './answer-cache.js';
import { HOME_KEY, LOG_KEY, PERIODS_KEY, SITE_KEY, TODAY_KEY } from './answer-keys.js';
import { MemoStore, whenReady } from './memo-store.js';
import type { SiteSources } from './site-sources.js';

const tickerNamesByList = new WeakMap<GhadiRecord[], GhadiNames[]>();

const namesByList = new WeakMap<GhadiRecord[], NameIndex<GhadiRecord>>();

/** The list's live ghadis by the names their public addresses spell (names.ts), built once per list. */
function namesOf(list: GhadiRecord[]): NameIndex<GhadiRecord> {
  let index = namesByList.get(list);
  if (!index) {
    index = indexNames(list);
    namesByList.set(list, index);
  }
  return index;
}

const MONTH_KEY = /^month-(\d{4}-\d{2})$/;
const CONTENT_KEY = /^content-(.+)$/;

/**
 * The public site's data (the ghadi list, months of results, content blocks, which periods have
 * results, the log's head) and its answers (`answers`), built from the database once and kept until a
 * change drops the keys they show (answer-keys.ts). Data values are returned without a promise once
 * built, so the hot paths cost no allocation for a hit.
 */
export class ReadModel {
  /** The id of the latest change applied: data built now includes at least that much. */
  version = 0;
  /**
   * When the board's data last changed (a result, a ghadi, a new day), as the home board's "Last
   * updated": one value for every answer built from the same data, so the page and /api/home agree.
   */
  private changedAt = new Date().toISOString();
  private readonly ghadiList = new MemoStore<GhadiRecord[]>(1);
  /**
   * The live ghadis as of the latest list read since the whole site was last dropped: who they are and
   * their names, which only a whole-site change moves. Cache keys are made from it without waiting,
   * while the list with today's values is read again after each result.
   */
  private directory: GhadiRecord[] | undefined;
  private directoryGeneration = 0;
  private readonly monthResults = new MemoStore<PublicResultRecord[]>(24);
  private readonly blocks = new MemoStore<ContentBlockRecord | null>(64);
  private readonly slugs = new MemoStore<ReadonlySet<string>>(1);
  private readonly periods = new MemoStore<ChartPeriods>(1);
  private readonly head = new MemoStore<DeclarationHead>(1);

  constructor(
    private readonly data: SiteSources,
    /** The site's date (SITE_TIMEZONE). */
    readonly today: () => string,
    /** Rolls the site's day over if it is due, which drops what the new day changes: before keys are made. */
    readonly rollOverIfDue: () => void,
    readonly timeZone: string,
    /** The kept answers. */
    readonly answers: AnswerCache,
  ) {}

  /** The site's date the day before today. */
  yesterday(): string {
    return addDays(this.today(), -1);
  }

  ghadis(): GhadiRecord[] | Promise<GhadiRecord[]> {
    return this.ghadiList.get('all', async () => {
      const generation = this.directoryGeneration;
      const list = await this.data.ghadiList();
      if (generation === this.directoryGeneration) this.directory ??= list;
      return list;
    });
  }

  /** Every live ghadi's names by OrderId (each page's keyword ticker), one array per ghadi list. */
  ghadiNames(): GhadiNames[] | Promise<GhadiNames[]> {
    return whenReady(this.ghadis(), (list) => {
      let names = tickerNamesByList.get(list);
      if (!names) {
        names = list.map(({ GID, NameEn, NameHn }) => ({ GID, NameEn, NameHn }));
        tickerNamesByList.set(list, names);
      }
      return names;
    });
  }

  /** The live ghadi an address names, in any case, with hyphens for spaces (names.ts). */
  ghadiNamed(name: string): GhadiRecord | undefined | Promise<GhadiRecord | undefined> {
    return whenReady(this.ghadis(), (list) => ghadiAddressed(namesOf(list), name));
  }

  /**
   * The live ghadi an address names when the ghadi list is built (null: none has the name), or
   * undefined while the list is being rebuilt: what a cache key may be made of without waiting.
   */
  loadedGhadi(name: string): GhadiRecord | null | undefined {
    // A list read since the last whole-site drop is as good (the memo keeps none from before it).
    const list = this.directory ?? this.ghadiList.peek('all');
    if (list === undefined) return undefined;
    return ghadiAddressed(namesOf(list), name) ?? null;
  }

  /**
   * The name an address's answers are kept under: the folded English name of the ghadi it names,
   * however the address spelled it. Null when the ghadi list is built and no live ghadi has the name
   * (its 404 is then made per request, never kept), or when the list is being rebuilt and the
   * spelling may be another's (a hyphen): such a request is answered for itself, and builds the list.
   */
  keptName(name: string): string | null {
    const ghadi = this.loadedGhadi(name);
    if (ghadi === undefined) {
      const folded = foldName(name);
      return folded.includes('-') ? null : folded;
    }
    return ghadi ? foldName(ghadi.NameEn) : null;
  }

  /**
   * A promise while what cache keys are made of (who the ghadis are, which periods have results, the
   * log's head, the blocks' slugs) is being read, else undefined: a request waits for it rather than
   * be answered as if its answer were not kept.
   */
  keysReady(): Promise<unknown> | undefined {
    if (
      (this.directory ?? this.ghadiList.peek('all')) !== undefined &&
      this.periods.peek('all') !== undefined &&
      this.head.peek('head') !== undefined &&
      this.slugs.peek('all') !== undefined
    )
      return undefined;
    return Promise.all([this.ghadis(), this.chartPeriods(), this.declarationHead(), this.activeSlugs()]);
  }

  /** A month's public results (YYYY-MM), newest first. */
  results(month: string): PublicResultRecord[] | Promise<PublicResultRecord[]> {
    return this.monthResults.get(month, () => this.data.monthResults(month));
  }

  /** An active content block by its slug, in any case (slugs are stored lower-cased), or null. */
  content(slug: string): ContentBlockRecord | null | Promise<ContentBlockRecord | null> {
    const folded = slug.toLowerCase();
    return this.blocks.get(folded, () => this.data.content(folded));
  }

  /** The active blocks' slugs. */
  activeSlugs(): ReadonlySet<string> | Promise<ReadonlySet<string>> {
    return this.slugs.get('all', async () => new Set(await this.data.activeSlugs()));
  }

  /**
   * The slug a block's answer is kept under (lower-cased), when it names an active block; null for an
   * unknown one (its 404 is made per request) or while the slugs are being read again.
   */
  keptSlug(slug: string): string | null {
    const folded = slug.toLowerCase();
    return this.slugs.peek('all')?.has(folded) ? folded : null;
  }

  /**
   * One ghadi's results as GET /api/results/{name} gives them: undefined when no live ghadi has the
   * name (answered without the database), null when it has no results in the period.
   */
  async ghadiResults(
    name: string,
    month?: number,
    year?: number,
  ): Promise<PublicResultRecord[] | null | undefined> {
    const ghadi = await this.ghadiNamed(name);
    if (!ghadi) return undefined;
    return this.data.ghadiResults(ghadi.GID, month, year);
  }

  async publicGhadi(name: string): Promise<PublicGhadi | null> {
    const ghadi = await this.ghadiNamed(name);
    if (!ghadi) return null;
    const { GID, NameEn, NameHn, RTime, Kind, OpenTime, Days } = ghadi;
    return { GID, NameEn, NameHn, RTime, Kind, OpenTime, Days };
  }

  /** A ghadi's results of a year and the years it has results in (its year chart's data). */
  async ghadiYear(gid: number, year: number): Promise<{ rows: YearChartResult[]; years: number[] }> {
    const [rows, periods] = await Promise.all([this.data.ghadiYear(gid, year), this.chartPeriods()]);
    return { rows, years: periods.years.get(gid) ?? [] };
  }

  /**
   * A ghadi's results and holidays of a year and the years it has results in (its weekly charts'
   * data). Not kept: the charts' answers are, and a holiday drops them (HOLIDAYS_KEY, its year).
   */
  async ghadiWeeks(
    gid: number,
    year: number,
  ): Promise<{ rows: YearChartResult[]; holidays: string[]; years: number[] }> {
    const [{ rows, years }, holidays] = await Promise.all([
      this.ghadiYear(gid, year),
      this.data.ghadiHolidays(gid, `${year}-01-01`, `${year}-12-31`),
    ]);
    return { rows, holidays, years };
  }

  /** Each live ghadi's years with results, and the months with results of any live ghadi. */
  chartPeriods(): ChartPeriods | Promise<ChartPeriods> {
    return this.periods.get('all', () => this.data.chartPeriods());
  }

  /** The periods when they are read (undefined while they are read again): cache keys use them. */
  loadedPeriods(): ChartPeriods | undefined {
    return this.periods.peek('all');
  }

  /** Every holiday (its answer is kept; nothing else reads the list). */
  holidays(): Promise<HolidayRecord[]> {
    return this.data.holidays();
  }

  /** The declaration log's latest entry. */
  declarationHead(): DeclarationHead | Promise<DeclarationHead> {
    return this.head.get('head', () => this.data.declarationHead());
  }

  /** The log's head when it is read (undefined while it is read again). */
  loadedHead(): DeclarationHead | undefined {
    return this.head.peek('head');
  }

  /** Everything the home page shows (GET /api/home, and the page's embedded data). */
  async homeData(): Promise<HomePageData> {
    const version = this.version;
    const today = this.today();
    const recordMonth = utcYearMonth();
    const [ghadis, record, blog, banner] = await Promise.all([
      this.ghadis(),
      this.results(recordMonth),
      this.content(BLOG_SLUG),
      this.content(BANNER_SLUG),
    ]);
    return {
      page: 'home',
      version,
      siteName: SITE_NAME,
      today,
      timeZone: this.timeZone,
      updatedAt: this.changedAt,
      recordMonth,
      ghadis,
      record: record.filter((result) => result.Name),
      blogHtml: blog?.Content ?? null,
      bannerHtml: banner?.Content ?? null,
    };
  }

  /** Forgets the data and answers that show any of `keys` (answer-keys.ts). */
  drop(keys: readonly string[]): void {
    const all = keys.includes(SITE_KEY);
    if (all || keys.includes(HOME_KEY) || keys.includes(TODAY_KEY)) {
      this.changedAt = new Date().toISOString();
      this.ghadiList.clear();
    }
    if (all) {
      this.directory = undefined;
      this.directoryGeneration += 1;
      this.monthResults.clear();
      this.blocks.clear();
    }
    for (const key of all ? [] : keys) {
      const month = MONTH_KEY.exec(key)?.[1];
      if (month) this.monthResults.delete(month);
      const slug = CONTENT_KEY.exec(key)?.[1];
      if (slug) this.blocks.delete(decodeURIComponent(slug));
    }
    if (all || keys.some((key) => CONTENT_KEY.test(key))) this.slugs.clear();
    if (all || keys.includes(PERIODS_KEY)) this.periods.clear();
    if (all || keys.includes(LOG_KEY)) this.head.clear();
    this.answers.drop(keys);
  }

  /** Forgets everything (changes may have been missed). */
  dropAll(): void {
    this.drop([SITE_KEY]);
    this.answers.dropAll();
  }
}
